"""PRNG key handling done right: every key is consumed exactly once.

The rules the team follows:
- a function that receives a key either consumes it once or splits it and consumes each child once;
- loops re-derive their key every iteration (`key, subkey = jax.random.split(key)` or `fold_in`);
- inside `jit`, per-example randomness comes from `jax.random.split(key, n)` + `vmap`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import jax
import jax.numpy as jnp


def make_key(seed: int) -> jax.Array:
    """A new-style typed key; works with `jax_debug_key_reuse`."""
    return jax.random.key(seed)


def legacy_key(seed: int) -> jax.Array:
    """A raw uint32 key, for code that stores keys in NumPy checkpoints."""
    return jax.random.PRNGKey(seed)


class KeySequence:
    """A stateful key source for eager (un-jitted) code: each `next()` returns a fresh key.

    Never pass a KeySequence into a jitted function; pass `seq.next()` instead.
    """

    def __init__(self, seed_or_key: int | jax.Array) -> None:
        if isinstance(seed_or_key, int):
            self._key = jax.random.key(seed_or_key)
        else:
            self._key = seed_or_key
        self.drawn = 0

    def next(self) -> jax.Array:
        self._key, subkey = jax.random.split(self._key)
        self.drawn += 1
        return subkey

    def take(self, n: int) -> list[jax.Array]:
        self._key, *subkeys = jax.random.split(self._key, n + 1)
        self.drawn += n
        return list(subkeys)

    def __iter__(self) -> Iterator[jax.Array]:
        while True:
            yield self.next()


def split_like(key: jax.Array, tree: Any) -> Any:
    """One key per leaf of `tree`, in a tree of the same structure."""
    leaves, treedef = jax.tree_util.tree_flatten(tree)
    keys = jax.random.split(key, max(len(leaves), 1))
    return jax.tree_util.tree_unflatten(treedef, list(keys[: len(leaves)]))


def named_keys(key: jax.Array, names: Sequence[str]) -> dict[str, jax.Array]:
    """`{"params": k0, "dropout": k1, ...}`: one fresh key per name."""
    keys = jax.random.split(key, len(names))
    return {name: k for name, k in zip(names, keys)}


def step_key(base_key: jax.Array, step: int | jax.Array) -> jax.Array:
    """The key for training step `step`: deterministic, independent across steps, no state to carry."""
    return jax.random.fold_in(base_key, step)


def per_example_keys(key: jax.Array, batch_size: int) -> jax.Array:
    return jax.random.split(key, batch_size)


def bernoulli_mask(key: jax.Array, keep_prob: float, shape: tuple[int, ...]) -> jax.Array:
    return jax.random.bernoulli(key, keep_prob, shape)


def gumbel_noise(key: jax.Array, shape: tuple[int, ...], dtype=jnp.float32) -> jax.Array:
    u = jax.random.uniform(key, shape, dtype, minval=1e-6, maxval=1.0 - 1e-6)
    return -jnp.log(-jnp.log(u))


def random_crop_offsets(key: jax.Array, batch: int, max_offset: int) -> tuple[jax.Array, jax.Array]:
    k_row, k_col = jax.random.split(key)
    rows = jax.random.randint(k_row, (batch,), 0, max_offset + 1)
    cols = jax.random.randint(k_col, (batch,), 0, max_offset + 1)
    return rows, cols


def shuffle_indices(key: jax.Array, n: int) -> jax.Array:
    return jax.random.permutation(key, n)


def sample_gaussian_like(key: jax.Array, tree: Any, scale: float = 1.0) -> Any:
    """Independent Gaussian noise for every leaf (used for perturbation tests and SAM-style updates)."""
    keys = split_like(key, tree)
    return jax.tree_util.tree_map(lambda k, x: scale * jax.random.normal(k, x.shape, x.dtype), keys, tree)
