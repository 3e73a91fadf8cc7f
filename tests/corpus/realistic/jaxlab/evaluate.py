"""Evaluation: jitted per-batch forward passes, metrics accumulated on the host with NumPy.

Boolean masks and in-place updates below are NumPy (host) code, outside any traced function.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import jax
import numpy as np

from jaxlab import data
from jaxlab.config import TrainConfig


@dataclass
class EvalResult:
    losses: list[float] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)
    predictions: list[np.ndarray] = field(default_factory=list)
    labels: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)

    def add(self, loss: float, weight: float, predictions: np.ndarray, labels: np.ndarray,
            mask: np.ndarray) -> None:
        self.losses.append(loss)
        self.weights.append(weight)
        self.predictions.append(predictions)
        self.labels.append(labels)
        self.masks.append(mask)

    def summary(self) -> dict[str, float]:
        if not self.losses:
            return {"loss": float("nan"), "accuracy": float("nan")}
        preds = np.concatenate(self.predictions)
        labels = np.concatenate(self.labels)
        mask = np.concatenate(self.masks).astype(bool)
        loss = float(np.average(self.losses, weights=self.weights))
        acc = float((preds[mask] == labels[mask]).mean()) if mask.any() else float("nan")
        return {"loss": loss, "accuracy": acc}


def evaluate(params, model_state, ds: data.Dataset, cfg: TrainConfig, eval_step) -> EvalResult:
    result = EvalResult()
    batch_size = cfg.data.batch_size
    for raw in data.iterate_batches(ds, batch_size, rng=None, drop_remainder=False):
        batch, valid = data.pad_batch(raw, batch_size)
        out = jax.device_get(eval_step(params, model_state, batch, cfg.model))
        if "mask" in batch and batch["inputs"].ndim == 2 and cfg.model.kind == "transformer":
            mask = batch["mask"] * valid[:, None]
        else:
            mask = np.broadcast_to(valid.reshape((-1,) + (1,) * (out["predictions"].ndim - 1)),
                                   out["predictions"].shape)
        result.add(float(out["loss"]), float(valid.sum()), np.asarray(out["predictions"]).ravel(),
                   np.asarray(batch["labels"]).ravel(), np.asarray(mask).ravel())
    return result


def confusion_matrix(predictions: np.ndarray, labels: np.ndarray, num_classes: int) -> np.ndarray:
    matrix = np.zeros((num_classes, num_classes), dtype=np.int64)
    np.add.at(matrix, (labels, predictions), 1)
    return matrix


def per_class_metrics(matrix: np.ndarray) -> dict[str, np.ndarray]:
    tp = np.diag(matrix).astype(np.float64)
    fp = matrix.sum(axis=0) - tp
    fn = matrix.sum(axis=1) - tp
    precision = np.zeros_like(tp)
    recall = np.zeros_like(tp)
    has_pred = (tp + fp) > 0
    has_true = (tp + fn) > 0
    precision[has_pred] = tp[has_pred] / (tp + fp)[has_pred]
    recall[has_true] = tp[has_true] / (tp + fn)[has_true]
    f1 = np.zeros_like(tp)
    both = (precision + recall) > 0
    f1[both] = 2 * precision[both] * recall[both] / (precision + recall)[both]
    return {"precision": precision, "recall": recall, "f1": f1}


def expected_calibration_error(probs: np.ndarray, labels: np.ndarray, num_bins: int = 10) -> float:
    confidences = probs.max(axis=-1)
    predictions = probs.argmax(axis=-1)
    correct = predictions == labels
    edges = np.linspace(0.0, 1.0, num_bins + 1)
    ece = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        in_bin = (confidences > lo) & (confidences <= hi)
        if not in_bin.any():
            continue
        gap = abs(correct[in_bin].mean() - confidences[in_bin].mean())
        ece += in_bin.mean() * gap
    return float(ece)


def top_k_accuracy(logits: np.ndarray, labels: np.ndarray, k: int = 5) -> float:
    top = np.argsort(-logits, axis=-1)[:, :k]
    hits = (top == labels[:, None]).any(axis=1)
    return float(hits.mean())


def bootstrap_interval(values: np.ndarray, num_samples: int = 200, alpha: float = 0.05,
                       seed: int = 0) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    stats = np.empty(num_samples)
    for i in range(num_samples):
        sample = values[rng.integers(0, len(values), size=len(values))]
        stats[i] = sample.mean()
    return float(np.quantile(stats, alpha / 2)), float(np.quantile(stats, 1 - alpha / 2))


def hardest_examples(per_example_loss: np.ndarray, k: int = 10) -> np.ndarray:
    order = np.argsort(per_example_loss)[::-1]
    return order[:k]


def report(result: EvalResult, num_classes: int) -> dict[str, Any]:
    preds = np.concatenate(result.predictions)
    labels = np.concatenate(result.labels)
    mask = np.concatenate(result.masks).astype(bool)
    matrix = confusion_matrix(preds[mask], labels[mask], num_classes)
    per_class = per_class_metrics(matrix)
    return {
        **result.summary(),
        "macro_f1": float(per_class["f1"].mean()),
        "confusion": matrix.tolist(),
    }
