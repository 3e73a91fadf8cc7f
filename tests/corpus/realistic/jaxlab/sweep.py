"""Hyper-parameter sweeps on one device: many small models trained at once with `vmap`, each training
run expressed as a `lax.scan` over steps (the whole sweep is a single compiled program).
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from jaxlab import losses

DEFAULT_GRID = {"learning_rate": (0.3, 0.1, 0.03, 0.01), "weight_decay": (0.0, 1e-3)}


class RunResult(NamedTuple):
    final_loss: jax.Array
    loss_curve: jax.Array
    params: dict


def init_linear(key, in_dim: int, num_classes: int):
    return {"w": 0.01 * jax.random.normal(key, (in_dim, num_classes)), "b": jnp.zeros(num_classes)}


def linear_loss(params, x, y, weight_decay):
    logits = x @ params["w"] + params["b"]
    ce = jnp.mean(losses.sparse_cross_entropy(logits, y))
    return ce + weight_decay * jnp.sum(params["w"] ** 2)


def train_one(key, x, y, learning_rate, weight_decay, num_steps: int, batch_size: int, num_classes: int):
    init_key, data_key = jax.random.split(key)
    params = init_linear(init_key, x.shape[1], num_classes)
    step_keys = jax.random.split(data_key, num_steps)

    def step(params, k):
        idx = jax.random.randint(k, (batch_size,), 0, x.shape[0])
        loss, grads = jax.value_and_grad(linear_loss)(params, x[idx], y[idx], weight_decay)
        params = jax.tree_util.tree_map(lambda p, g: p - learning_rate * g, params, grads)
        return params, loss

    params, curve = jax.lax.scan(step, params, step_keys)
    return RunResult(final_loss=curve[-1], loss_curve=curve, params=params)


@partial(jax.jit, static_argnames=("num_steps", "batch_size", "num_classes"))
def run_grid(key, x, y, learning_rates, weight_decays, num_steps: int = 100, batch_size: int = 32,
             num_classes: int = 10):
    """Trains len(learning_rates) x len(weight_decays) models; each gets its own key."""
    lr_grid, wd_grid = jnp.meshgrid(learning_rates, weight_decays, indexing="ij")
    lr_flat, wd_flat = lr_grid.ravel(), wd_grid.ravel()
    keys = jax.random.split(key, lr_flat.shape[0])
    train = partial(train_one, num_steps=num_steps, batch_size=batch_size, num_classes=num_classes)
    results = jax.vmap(train, in_axes=(0, None, None, 0, 0))(keys, x, y, lr_flat, wd_flat)
    shape = lr_grid.shape
    return jax.tree_util.tree_map(lambda a: a.reshape(shape + a.shape[1:]), results)


def best_config(results: RunResult, grid: dict[str, tuple[float, ...]]) -> dict[str, float]:
    final = np.asarray(results.final_loss)
    i, j = np.unravel_index(np.nanargmin(final), final.shape)
    return {"learning_rate": grid["learning_rate"][i], "weight_decay": grid["weight_decay"][j],
            "final_loss": float(final[i, j])}


def seeds_study(x, y, num_seeds: int = 4, learning_rate: float = 0.1, num_steps: int = 50,
                num_classes: int = 10):
    """Same configuration, several seeds: the spread of the final loss estimates seed noise."""
    keys = jax.random.split(jax.random.key(1234), num_seeds)
    train = partial(train_one, num_steps=num_steps, batch_size=32, num_classes=num_classes)
    results = jax.jit(jax.vmap(train, in_axes=(0, None, None, None, None)))(keys, x, y, learning_rate, 0.0)
    finals = np.asarray(results.final_loss)
    return {"mean": float(finals.mean()), "std": float(finals.std()), "runs": finals.tolist()}


def summarize_grid(results: RunResult, grid: dict[str, tuple[float, ...]]) -> list[str]:
    final = np.asarray(results.final_loss)
    rows = []
    header = "lr \\ wd  " + "  ".join(f"{wd:>8g}" for wd in grid["weight_decay"])
    rows.append(header)
    for i, lr in enumerate(grid["learning_rate"]):
        cells = "  ".join(f"{final[i, j]:8.4f}" for j in range(len(grid["weight_decay"])))
        rows.append(f"{lr:<8g}  {cells}")
    return rows
