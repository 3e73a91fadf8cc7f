"""Name -> function registries for activations and normalisations, filled by decorators at import time.

Experiment configs refer to components by name; the jitted functions below look the name up while
tracing (the name is a static argument, so a different name means a different compiled function).
Registration happens when this module is imported, before anything is traced.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import jax
import jax.numpy as jnp

ACTIVATION_REGISTRY: dict[str, Callable] = {}
NORM_REGISTRY: dict[str, Callable] = {}


def register_activation(name: str):
    def decorator(fn: Callable) -> Callable:
        if name in ACTIVATION_REGISTRY:
            raise ValueError(f"activation {name!r} registered twice")
        ACTIVATION_REGISTRY[name] = fn
        return fn

    return decorator


def register_norm(name: str):
    def decorator(fn: Callable) -> Callable:
        NORM_REGISTRY[name] = fn
        return fn

    return decorator


@register_activation("relu")
def relu(x):
    return jnp.maximum(x, 0.0)


@register_activation("squared_relu")
def squared_relu(x):
    return jnp.square(jnp.maximum(x, 0.0))


@register_activation("swish")
def swish(x):
    return x * jax.nn.sigmoid(x)


@register_activation("gelu_tanh")
def gelu_tanh(x):
    return 0.5 * x * (1.0 + jnp.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


@register_norm("layer")
def layer_norm(x, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + eps)


@register_norm("rms")
def rms_norm(x, eps=1e-6):
    return x / jnp.sqrt(jnp.mean(jnp.square(x), axis=-1, keepdims=True) + eps)


@register_norm("none")
def no_norm(x):
    return x


@partial(jax.jit, static_argnames=("activation", "norm"))
def ffn(params, x, activation: str = "relu", norm: str = "layer"):
    h = NORM_REGISTRY[norm](x)
    h = ACTIVATION_REGISTRY[activation](h @ params["w_in"])
    return x + h @ params["w_out"]


def available() -> dict[str, list[str]]:
    return {"activations": sorted(ACTIVATION_REGISTRY), "norms": sorted(NORM_REGISTRY)}


def compare_activations(params, x) -> dict[str, float]:
    """Output norm of the feed-forward block for every registered activation (eager driver)."""
    out = {}
    for name in sorted(ACTIVATION_REGISTRY):
        y = ffn(params, x, activation=name)
        out[name] = float(jnp.linalg.norm(y))
    return out
