"""The data pipeline: NumPy all the way (host memory, in-place updates, boolean masks), JAX only at the end.

Synthetic datasets stand in for the real ones so that the code base runs anywhere in seconds.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from jaxlab.config import DataConfig

PAD_ID = 0
BOS_ID = 1
FIRST_TOKEN = 2


@dataclass
class Dataset:
    inputs: np.ndarray
    labels: np.ndarray
    mask: np.ndarray | None = None  # per-position validity for sequence data

    def __len__(self) -> int:
        return int(self.inputs.shape[0])

    def subset(self, idx: np.ndarray) -> Dataset:
        mask = None if self.mask is None else self.mask[idx]
        return Dataset(self.inputs[idx], self.labels[idx], mask)


# --- synthetic datasets ----------------------------------------------------------------------------------

def make_blobs(n: int, dim: int, num_classes: int, noise: float, rng: np.random.Generator) -> Dataset:
    centers = rng.normal(size=(num_classes, dim)).astype(np.float32) * 3.0
    labels = rng.integers(0, num_classes, size=n)
    x = centers[labels] + noise * rng.normal(size=(n, dim)).astype(np.float32)
    return Dataset(x.astype(np.float32), labels.astype(np.int32))


def make_images(n: int, size: int, num_classes: int, noise: float, rng: np.random.Generator) -> Dataset:
    """Tiny images whose class decides which stripe pattern they show."""
    images = np.zeros((n, size, size, 1), dtype=np.float32)
    labels = rng.integers(0, num_classes, size=n).astype(np.int32)
    for i in range(n):
        c = labels[i]
        period = 2 + c % 4
        if c % 2 == 0:
            images[i, ::period, :, 0] = 1.0
        else:
            images[i, :, ::period, 0] = 1.0
        images[i] += noise * rng.normal(size=(size, size, 1))
    np.clip(images, -1.0, 2.0, out=images)
    return Dataset(images, labels)


def make_sequences(n: int, length: int, dim: int, rng: np.random.Generator) -> Dataset:
    """Binary task: does the running sum of the first feature ever exceed a threshold?"""
    x = rng.normal(size=(n, length, dim)).astype(np.float32)
    lengths = rng.integers(length // 2, length + 1, size=n)
    mask = np.arange(length)[None, :] < lengths[:, None]
    x[~mask] = 0.0
    running = np.cumsum(x[:, :, 0], axis=1)
    labels = (running.max(axis=1) > 2.0).astype(np.int32)
    return Dataset(x, labels, mask.astype(np.float32))


def make_copy_task(n: int, length: int, vocab: int, rng: np.random.Generator) -> Dataset:
    """Sequence-to-sequence copy: input `BOS a b c PAD...`, target `a b c PAD...` shifted by one."""
    tokens = rng.integers(FIRST_TOKEN, vocab, size=(n, length)).astype(np.int32)
    lengths = rng.integers(2, length + 1, size=n)
    valid = np.arange(length)[None, :] < lengths[:, None]
    tokens[~valid] = PAD_ID
    inputs = np.full((n, 2 * length), PAD_ID, dtype=np.int32)
    inputs[:, 0] = BOS_ID
    inputs[:, 1:length + 1] = tokens
    inputs[:, length + 1:] = tokens[:, :-1]
    targets = np.full_like(inputs, PAD_ID)
    targets[:, length:] = tokens
    loss_mask = np.zeros(inputs.shape, dtype=np.float32)
    loss_mask[:, length:] = valid
    return Dataset(inputs, targets, loss_mask)


def build(cfg: DataConfig, num_classes: int, vocab_size: int, seed: int) -> tuple[Dataset, Dataset]:
    rng = np.random.default_rng(seed)
    n = cfg.num_train + cfg.num_eval
    if cfg.dataset == "blobs":
        full = make_blobs(n, cfg.input_dim, num_classes, cfg.noise, rng)
    elif cfg.dataset == "images":
        full = make_images(n, cfg.image_size, num_classes, cfg.noise, rng)
    elif cfg.dataset == "sequences":
        full = make_sequences(n, cfg.seq_len, cfg.input_dim, rng)
    elif cfg.dataset == "copy_task":
        full = make_copy_task(n, cfg.seq_len, vocab_size, rng)
    else:
        raise ValueError(f"unknown dataset {cfg.dataset!r}")
    order = rng.permutation(n)
    return full.subset(order[: cfg.num_train]), full.subset(order[cfg.num_train:])


# --- preprocessing (in place, NumPy) ----------------------------------------------------------------------

class Standardizer:
    """Per-feature mean/std fitted on the training set; transforms in place to save host memory."""

    def __init__(self) -> None:
        self.mean: np.ndarray | None = None
        self.std: np.ndarray | None = None

    def fit(self, x: np.ndarray) -> Standardizer:
        axes = tuple(range(x.ndim - 1))
        self.mean = x.mean(axis=axes)
        std = x.std(axis=axes)
        std[std < 1e-6] = 1.0
        self.std = std
        return self

    def transform_(self, x: np.ndarray) -> np.ndarray:
        assert self.mean is not None and self.std is not None, "call fit() first"
        x -= self.mean
        x /= self.std
        return x

    def state(self) -> dict[str, np.ndarray]:
        return {"mean": np.asarray(self.mean), "std": np.asarray(self.std)}


def winsorize_(x: np.ndarray, k: float = 4.0) -> np.ndarray:
    """Clamps outliers beyond k standard deviations, in place."""
    mu, sd = x.mean(), x.std() + 1e-8
    hi, lo = mu + k * sd, mu - k * sd
    x[x > hi] = hi
    x[x < lo] = lo
    return x


def augment_images_(images: np.ndarray, rng: np.random.Generator, max_shift: int = 1) -> np.ndarray:
    """Random flips and shifts, in place, one image at a time (the host is idle anyway)."""
    n = images.shape[0]
    flips = rng.random(n) < 0.5
    images[flips] = images[flips, :, ::-1]
    shifts = rng.integers(-max_shift, max_shift + 1, size=(n, 2))
    for i in range(n):
        dy, dx = shifts[i]
        if dy or dx:
            images[i] = np.roll(images[i], (dy, dx), axis=(0, 1))
    return images


def one_hot(labels: np.ndarray, num_classes: int) -> np.ndarray:
    out = np.zeros((labels.shape[0], num_classes), dtype=np.float32)
    out[np.arange(labels.shape[0]), labels] = 1.0
    return out


def class_weights(labels: np.ndarray, num_classes: int) -> np.ndarray:
    counts = np.bincount(labels, minlength=num_classes).astype(np.float32)
    counts[counts == 0] = 1.0
    weights = counts.sum() / (num_classes * counts)
    weights /= weights.mean()
    return weights


# --- batching ---------------------------------------------------------------------------------------------

def num_batches(n: int, batch_size: int, drop_remainder: bool = True) -> int:
    return n // batch_size if drop_remainder else math.ceil(n / batch_size)


def iterate_batches(ds: Dataset, batch_size: int, rng: np.random.Generator | None = None,
                    drop_remainder: bool = True) -> Iterator[dict[str, np.ndarray]]:
    n = len(ds)
    order = rng.permutation(n) if rng is not None else np.arange(n)
    for b in range(num_batches(n, batch_size, drop_remainder)):
        idx = order[b * batch_size:(b + 1) * batch_size]
        batch = {"inputs": ds.inputs[idx], "labels": ds.labels[idx]}
        if ds.mask is not None:
            batch["mask"] = ds.mask[idx]
        yield batch


def pad_batch(batch: dict[str, np.ndarray], batch_size: int) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Pads a short final batch to `batch_size` (so jit does not recompile) and returns the validity mask."""
    n = next(iter(batch.values())).shape[0]
    valid = np.zeros(batch_size, dtype=np.float32)
    valid[:n] = 1.0
    if n == batch_size:
        return batch, valid
    padded = {}
    for name, value in batch.items():
        out = np.zeros((batch_size,) + value.shape[1:], dtype=value.dtype)
        out[:n] = value
        padded[name] = out
    return padded, valid


def infinite_batches(ds: Dataset, batch_size: int, seed: int,
                     augment: bool = False) -> Iterator[dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    epoch = 0
    while True:
        for batch in iterate_batches(ds, batch_size, rng):
            if augment and batch["inputs"].ndim == 4:
                batch["inputs"] = augment_images_(batch["inputs"].copy(), rng)
            yield batch
        epoch += 1


def shard_batch(batch: dict[str, np.ndarray], num_devices: int) -> dict[str, np.ndarray]:
    """Reshapes the leading axis to (devices, per_device, ...) for pmap."""
    out = {}
    for name, value in batch.items():
        per = value.shape[0] // num_devices
        out[name] = value[: per * num_devices].reshape((num_devices, per) + value.shape[1:])
    return out


class Prefetcher:
    """Keeps a small queue of batches already converted to device arrays."""

    def __init__(self, batches: Iterator[dict[str, np.ndarray]], size: int = 2) -> None:
        import collections

        import jax

        self._batches = batches
        self._queue: collections.deque = collections.deque()
        self._put = jax.device_put
        self._size = size

    def __iter__(self):
        return self

    def __next__(self):
        while len(self._queue) < self._size:
            try:
                self._queue.append(self._put(next(self._batches)))
            except StopIteration:
                break
        if not self._queue:
            raise StopIteration
        return self._queue.popleft()
