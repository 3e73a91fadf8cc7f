"""Experiment configuration: frozen dataclasses (hashable, so they can be static arguments of `jax.jit`)
and plain dict presets that are turned into them.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Module-level constants: assigned once and never changed.
DEFAULT_SEED = 0
LOG_EVERY = 10
DTYPE_NAMES = ("float32", "bfloat16", "float16")


@dataclass(frozen=True)
class ModelConfig:
    kind: str = "mlp"  # mlp | cnn | transformer | rnn
    hidden: int = 64
    num_layers: int = 2
    num_heads: int = 4
    num_classes: int = 10
    vocab_size: int = 64
    max_len: int = 32
    dropout_rate: float = 0.1
    activation: str = "gelu"
    channels: tuple[int, ...] = (8, 16)
    use_layernorm: bool = True
    tie_embeddings: bool = False

    @property
    def head_dim(self) -> int:
        return self.hidden // self.num_heads


@dataclass(frozen=True)
class OptimConfig:
    name: str = "adamw"
    learning_rate: float = 3e-3
    b1: float = 0.9
    b2: float = 0.999
    eps: float = 1e-8
    weight_decay: float = 1e-4
    momentum: float = 0.9
    clip_norm: float | None = 1.0
    warmup_steps: int = 10
    decay_steps: int = 200
    schedule: str = "warmup_cosine"


@dataclass(frozen=True)
class DataConfig:
    dataset: str = "blobs"  # blobs | images | sequences | copy_task
    num_train: int = 512
    num_eval: int = 128
    batch_size: int = 32
    input_dim: int = 16
    image_size: int = 8
    seq_len: int = 16
    noise: float = 0.1
    augment: bool = False


@dataclass(frozen=True)
class TrainConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    optim: OptimConfig = field(default_factory=OptimConfig)
    data: DataConfig = field(default_factory=DataConfig)
    seed: int = DEFAULT_SEED
    num_steps: int = 50
    eval_every: int = 25
    grad_accum_steps: int = 1
    checkpoint_dir: str | None = None
    keep_checkpoints: int = 3


PRESETS: dict[str, dict[str, Any]] = {
    "mlp-blobs": {
        "model": {"kind": "mlp", "hidden": 64, "num_layers": 2},
        "data": {"dataset": "blobs", "input_dim": 16},
    },
    "cnn-images": {
        "model": {"kind": "cnn", "channels": (8, 16), "hidden": 32},
        "data": {"dataset": "images", "image_size": 8, "augment": True},
    },
    "transformer-copy": {
        "model": {"kind": "transformer", "hidden": 32, "num_layers": 2, "num_heads": 4, "vocab_size": 16,
                  "max_len": 16},
        "data": {"dataset": "copy_task", "seq_len": 8},
        "optim": {"learning_rate": 1e-3},
    },
    "rnn-sequences": {
        "model": {"kind": "rnn", "hidden": 32, "num_classes": 2},
        "data": {"dataset": "sequences", "seq_len": 16, "input_dim": 4},
    },
}


def _merge(base: Any, overrides: dict[str, Any]) -> Any:
    """Returns a copy of the dataclass `base` with (nested) fields replaced from a dict."""
    changes = {}
    for key, value in overrides.items():
        if not hasattr(base, key):
            raise KeyError(f"{type(base).__name__} has no field {key!r}")
        current = getattr(base, key)
        if dataclasses.is_dataclass(current) and isinstance(value, dict):
            changes[key] = _merge(current, value)
        elif isinstance(current, tuple) and isinstance(value, list):
            changes[key] = tuple(value)
        else:
            changes[key] = value
    return dataclasses.replace(base, **changes)


def from_preset(name: str, **overrides: Any) -> TrainConfig:
    if name not in PRESETS:
        raise KeyError(f"unknown preset {name!r}; choose from {sorted(PRESETS)}")
    cfg = _merge(TrainConfig(), PRESETS[name])
    return _merge(cfg, overrides) if overrides else cfg


def to_dict(cfg: TrainConfig) -> dict[str, Any]:
    return dataclasses.asdict(cfg)


def from_dict(data: dict[str, Any]) -> TrainConfig:
    return _merge(TrainConfig(), data)


def save(cfg: TrainConfig, path: str | Path) -> None:
    Path(path).write_text(json.dumps(to_dict(cfg), indent=2, sort_keys=True))


def load(path: str | Path) -> TrainConfig:
    return from_dict(json.loads(Path(path).read_text()))


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """`["optim.learning_rate=1e-3", "model.hidden=128"]` -> nested dict with parsed values."""
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise ValueError(f"override {item!r} is not KEY=VALUE")
        dotted, raw = item.split("=", 1)
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        node = out
        *parents, leaf = dotted.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return out
