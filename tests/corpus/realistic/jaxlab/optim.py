"""Optimisers written by hand, in the style of optax: a GradientTransformation is an (init, update) pair
of pure functions over pytrees, and transformations compose with `chain`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from jaxlab.config import OptimConfig

Params = Any
Updates = Any
Schedule = Callable[[jax.Array], jax.Array]


class GradientTransformation(NamedTuple):
    init: Callable[[Params], Any]
    update: Callable[[Updates, Any, Params | None], tuple[Updates, Any]]


class EmptyState(NamedTuple):
    pass


class ScaleByAdamState(NamedTuple):
    count: jax.Array
    mu: Any
    nu: Any


class TraceState(NamedTuple):
    trace: Any


class ScheduleState(NamedTuple):
    count: jax.Array


# --- schedules ----------------------------------------------------------------------------------------------

def constant_schedule(value: float) -> Schedule:
    return lambda count: jnp.asarray(value, jnp.float32)


def linear_schedule(init_value: float, end_value: float, transition_steps: int) -> Schedule:
    def schedule(count):
        frac = jnp.clip(count / max(transition_steps, 1), 0.0, 1.0)
        return init_value + frac * (end_value - init_value)

    return schedule


def cosine_decay_schedule(init_value: float, decay_steps: int, alpha: float = 0.0) -> Schedule:
    def schedule(count):
        frac = jnp.clip(count / max(decay_steps, 1), 0.0, 1.0)
        cosine = 0.5 * (1.0 + jnp.cos(math.pi * frac))
        return init_value * ((1.0 - alpha) * cosine + alpha)

    return schedule


def warmup_cosine_schedule(peak: float, warmup_steps: int, decay_steps: int, end: float = 0.0) -> Schedule:
    warmup = linear_schedule(0.0, peak, warmup_steps)
    decay = cosine_decay_schedule(peak, max(decay_steps - warmup_steps, 1), alpha=end / peak if peak else 0.0)

    def schedule(count):
        return jnp.where(count < warmup_steps, warmup(count), decay(count - warmup_steps))

    return schedule


def piecewise_constant_schedule(init_value: float, boundaries_and_scales: dict[int, float]) -> Schedule:
    boundaries = sorted(boundaries_and_scales)

    def schedule(count):
        value = jnp.asarray(init_value, jnp.float32)
        for b in boundaries:
            value = jnp.where(count >= b, value * boundaries_and_scales[b], value)
        return value

    return schedule


# --- tree helpers -------------------------------------------------------------------------------------------

def tree_zeros_like(tree):
    return jax.tree_util.tree_map(jnp.zeros_like, tree)


def global_norm(tree) -> jax.Array:
    leaves = jax.tree_util.tree_leaves(tree)
    return jnp.sqrt(sum(jnp.sum(jnp.square(x)) for x in leaves))


def apply_updates(params, updates):
    return jax.tree_util.tree_map(lambda p, u: (p + u).astype(p.dtype), params, updates)


# --- transformations ----------------------------------------------------------------------------------------

def identity() -> GradientTransformation:
    return GradientTransformation(lambda params: EmptyState(), lambda updates, state, params=None: (updates, state))


def scale(step_size: float) -> GradientTransformation:
    def update(updates, state, params=None):
        return jax.tree_util.tree_map(lambda g: step_size * g, updates), state

    return GradientTransformation(lambda params: EmptyState(), update)


def scale_by_schedule(schedule: Schedule) -> GradientTransformation:
    def init(params):
        return ScheduleState(count=jnp.zeros([], jnp.int32))

    def update(updates, state, params=None):
        step_size = schedule(state.count)
        updates = jax.tree_util.tree_map(lambda g: -step_size * g, updates)
        return updates, ScheduleState(count=state.count + 1)

    return GradientTransformation(init, update)


def clip_by_global_norm(max_norm: float) -> GradientTransformation:
    def update(updates, state, params=None):
        norm = global_norm(updates)
        factor = jnp.minimum(1.0, max_norm / (norm + 1e-6))
        return jax.tree_util.tree_map(lambda g: g * factor, updates), state

    return GradientTransformation(lambda params: EmptyState(), update)


def trace(decay: float, nesterov: bool = False) -> GradientTransformation:
    def init(params):
        return TraceState(trace=tree_zeros_like(params))

    def update(updates, state, params=None):
        new_trace = jax.tree_util.tree_map(lambda g, t: g + decay * t, updates, state.trace)
        if nesterov:
            updates = jax.tree_util.tree_map(lambda g, t: g + decay * t, updates, new_trace)
        else:
            updates = new_trace
        return updates, TraceState(trace=new_trace)

    return GradientTransformation(init, update)


def scale_by_adam(b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8) -> GradientTransformation:
    def init(params):
        return ScaleByAdamState(count=jnp.zeros([], jnp.int32), mu=tree_zeros_like(params),
                                nu=tree_zeros_like(params))

    def update(updates, state, params=None):
        mu = jax.tree_util.tree_map(lambda g, m: b1 * m + (1 - b1) * g, updates, state.mu)
        nu = jax.tree_util.tree_map(lambda g, v: b2 * v + (1 - b2) * jnp.square(g), updates, state.nu)
        count = state.count + 1
        mu_hat_scale = 1.0 / (1 - b1 ** count.astype(jnp.float32))
        nu_hat_scale = 1.0 / (1 - b2 ** count.astype(jnp.float32))
        updates = jax.tree_util.tree_map(
            lambda m, v: (m * mu_hat_scale) / (jnp.sqrt(v * nu_hat_scale) + eps), mu, nu)
        return updates, ScaleByAdamState(count=count, mu=mu, nu=nu)

    return GradientTransformation(init, update)


def add_decayed_weights(weight_decay: float, mask: Callable[[Params], Any] | None = None) -> GradientTransformation:
    def update(updates, state, params=None):
        if params is None:
            raise ValueError("add_decayed_weights needs params")
        decay_mask = mask(params) if mask is not None else jax.tree_util.tree_map(lambda _: True, params)
        updates = jax.tree_util.tree_map(
            lambda g, p, m: g + weight_decay * p if m else g, updates, params, decay_mask)
        return updates, state

    return GradientTransformation(lambda params: EmptyState(), update)


def chain(*transforms: GradientTransformation) -> GradientTransformation:
    def init(params):
        return tuple(t.init(params) for t in transforms)

    def update(updates, state, params=None):
        new_states = []
        for t, s in zip(transforms, state):
            updates, s = t.update(updates, s, params)
            new_states.append(s)
        return updates, tuple(new_states)

    return GradientTransformation(init, update)


# --- ready-made optimisers ----------------------------------------------------------------------------------

def sgd(learning_rate: float | Schedule, momentum: float = 0.0, nesterov: bool = False):
    schedule = learning_rate if callable(learning_rate) else constant_schedule(learning_rate)
    parts = [trace(momentum, nesterov)] if momentum else []
    return chain(*parts, scale_by_schedule(schedule))


def adam(learning_rate: float | Schedule, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8):
    schedule = learning_rate if callable(learning_rate) else constant_schedule(learning_rate)
    return chain(scale_by_adam(b1, b2, eps), scale_by_schedule(schedule))


def decay_mask_no_bias_or_norm(params):
    """Weight decay on kernels and embeddings only (not on biases, norm scales)."""
    def keep(path, leaf):
        name = jax.tree_util.keystr(path)
        return leaf.ndim > 1 and "norm" not in name and "ln" not in name

    return jax.tree_util.tree_map_with_path(keep, params)


def adamw(learning_rate: float | Schedule, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8,
          weight_decay: float = 1e-4):
    schedule = learning_rate if callable(learning_rate) else constant_schedule(learning_rate)
    return chain(scale_by_adam(b1, b2, eps), add_decayed_weights(weight_decay, decay_mask_no_bias_or_norm),
                 scale_by_schedule(schedule))


def from_config(cfg: OptimConfig) -> GradientTransformation:
    if cfg.schedule == "warmup_cosine":
        lr: float | Schedule = warmup_cosine_schedule(cfg.learning_rate, cfg.warmup_steps, cfg.decay_steps)
    elif cfg.schedule == "cosine":
        lr = cosine_decay_schedule(cfg.learning_rate, cfg.decay_steps)
    else:
        lr = cfg.learning_rate
    if cfg.name == "sgd":
        base = sgd(lr, cfg.momentum)
    elif cfg.name == "adam":
        base = adam(lr, cfg.b1, cfg.b2, cfg.eps)
    elif cfg.name == "adamw":
        base = adamw(lr, cfg.b1, cfg.b2, cfg.eps, cfg.weight_decay)
    else:
        raise ValueError(f"unknown optimiser {cfg.name!r}")
    if cfg.clip_norm is not None:
        return chain(clip_by_global_norm(cfg.clip_norm), base)
    return base


def ema_update(ema_params, params, decay: float):
    return jax.tree_util.tree_map(lambda e, p: decay * e + (1.0 - decay) * p, ema_params, params)
