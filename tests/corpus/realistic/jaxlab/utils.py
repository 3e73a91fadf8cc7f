"""Small utilities: pytree inspection, timing (with `block_until_ready`), logging."""

from __future__ import annotations

import contextlib
import logging
import time
from collections import defaultdict
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

logger = logging.getLogger("jaxlab")


def tree_shapes(tree) -> Any:
    return jax.tree_util.tree_map(lambda x: tuple(x.shape), tree)


def tree_size(tree) -> int:
    return sum(int(np.prod(x.shape)) for x in jax.tree_util.tree_leaves(tree))


def tree_bytes(tree) -> int:
    return sum(int(x.size) * x.dtype.itemsize for x in jax.tree_util.tree_leaves(tree))


def tree_all_finite(tree) -> bool:
    leaves = jax.tree_util.tree_leaves(tree)
    return all(bool(jnp.all(jnp.isfinite(x))) for x in leaves)


def tree_cast(tree, dtype):
    return jax.tree_util.tree_map(lambda x: x.astype(dtype) if jnp.issubdtype(x.dtype, jnp.floating) else x, tree)


def describe(params) -> str:
    lines = []
    for path, leaf in jax.tree_util.tree_leaves_with_path(params):
        lines.append(f"{jax.tree_util.keystr(path):<50} {str(tuple(leaf.shape)):<18} {leaf.dtype}")
    lines.append(f"total parameters: {tree_size(params):,}")
    return "\n".join(lines)


class Timer:
    """Wall-clock timing of JAX work; always blocks on the result so asynchronous dispatch is measured."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = defaultdict(float)
        self.counts: dict[str, int] = defaultdict(int)

    @contextlib.contextmanager
    def section(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.totals[name] += time.perf_counter() - start
            self.counts[name] += 1

    def time_call(self, name: str, fn, *args, **kwargs):
        with self.section(name):
            out = fn(*args, **kwargs)
            out = jax.block_until_ready(out)
        return out

    def summary(self) -> str:
        parts = []
        for name in sorted(self.totals):
            mean_ms = 1000 * self.totals[name] / max(self.counts[name], 1)
            parts.append(f"{name}: {mean_ms:.2f} ms x {self.counts[name]}")
        return ", ".join(parts)


class MetricLogger:
    """Accumulates scalar metrics on the host (NumPy) and prints running means."""

    def __init__(self, every: int = 10) -> None:
        self.every = every
        self.sums: dict[str, float] = defaultdict(float)
        self.n = 0
        self.history: list[dict[str, float]] = []

    def log(self, step: int, metrics: dict[str, Any]) -> None:
        host = jax.device_get(metrics)
        for name, value in host.items():
            self.sums[name] += float(value)
        self.n += 1
        if step % self.every == 0:
            means = {name: total / self.n for name, total in self.sums.items()}
            self.history.append({"step": step, **means})
            logger.info("step %d %s", step, " ".join(f"{k}={v:.4f}" for k, v in means.items()))
            self.sums.clear()
            self.n = 0


def count_flops(fn, *args) -> float | None:
    """XLA's own estimate of the flops of a jitted function, if the backend reports one."""
    try:
        cost = jax.jit(fn).lower(*args).compile().cost_analysis()
    except Exception:  # backends differ in what they support
        return None
    if isinstance(cost, list):
        cost = cost[0] if cost else {}
    return float(cost.get("flops", 0.0)) if cost else None


def set_log_level(verbose: bool) -> None:
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(message)s")
