"""Weight initialisers. Each takes a key and consumes it exactly once."""

from __future__ import annotations

import math
from collections.abc import Callable

import jax
import jax.numpy as jnp

Initializer = Callable[[jax.Array, tuple[int, ...], jnp.dtype], jax.Array]


def _fans(shape: tuple[int, ...]) -> tuple[int, int]:
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = math.prod(shape[:-2]) if len(shape) > 2 else 1
    return shape[-2] * receptive, shape[-1] * receptive


def zeros(key, shape, dtype=jnp.float32):
    del key
    return jnp.zeros(shape, dtype)


def ones(key, shape, dtype=jnp.float32):
    del key
    return jnp.ones(shape, dtype)


def normal(stddev: float = 0.02) -> Initializer:
    def init(key, shape, dtype=jnp.float32):
        return stddev * jax.random.normal(key, shape, dtype)

    return init


def truncated_normal(stddev: float = 0.02) -> Initializer:
    def init(key, shape, dtype=jnp.float32):
        # 0.8796... is the std of a unit normal truncated to [-2, 2]
        return stddev / 0.87962566 * jax.random.truncated_normal(key, -2.0, 2.0, shape, dtype)

    return init


def variance_scaling(scale: float, mode: str, distribution: str) -> Initializer:
    def init(key, shape, dtype=jnp.float32):
        fan_in, fan_out = _fans(shape)
        denom = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[mode]
        variance = scale / max(1.0, denom)
        if distribution == "normal":
            return jnp.sqrt(variance) * jax.random.normal(key, shape, dtype)
        if distribution == "truncated_normal":
            return jnp.sqrt(variance) / 0.87962566 * jax.random.truncated_normal(key, -2.0, 2.0, shape, dtype)
        limit = jnp.sqrt(3.0 * variance)
        return jax.random.uniform(key, shape, dtype, -limit, limit)

    return init


he_normal = variance_scaling(2.0, "fan_in", "truncated_normal")
lecun_normal = variance_scaling(1.0, "fan_in", "truncated_normal")
glorot_uniform = variance_scaling(1.0, "fan_avg", "uniform")


def orthogonal(scale: float = 1.0) -> Initializer:
    def init(key, shape, dtype=jnp.float32):
        rows, cols = math.prod(shape[:-1]), shape[-1]
        a = jax.random.normal(key, (max(rows, cols), min(rows, cols)), dtype)
        q, r = jnp.linalg.qr(a)
        q = q * jnp.sign(jnp.diag(r))
        if rows < cols:
            q = q.T
        return scale * q.reshape(shape)

    return init


BY_NAME: dict[str, Initializer] = {
    "he_normal": he_normal,
    "lecun_normal": lecun_normal,
    "glorot_uniform": glorot_uniform,
    "orthogonal": orthogonal(),
    "normal": normal(),
}
