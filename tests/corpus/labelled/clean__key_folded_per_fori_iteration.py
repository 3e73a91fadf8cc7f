"""The clean twin of prng-key-reuse__fixed_seed_key_in_fori_body: the objective takes a key, and the body folds
the noise level's index into it, so every level draws its own noise (and each step can pass a new key).
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import random


def _level(i, carry, x, sigmas, key):
    total, noises = carry
    noise = random.normal(random.fold_in(key, i), x.shape)
    perturbed = x + sigmas[i] * noise
    return total + jnp.sum(perturbed**2), noises.at[i].set(noise)


@jax.jit
def objective(x, sigmas, key):
    body = partial(_level, x=x, sigmas=sigmas, key=key)
    return jax.lax.fori_loop(0, sigmas.shape[0], body, (0.0, jnp.zeros((sigmas.shape[0],) + x.shape)))


if __name__ == "__main__":
    _, noises = objective(jnp.ones(3), jnp.array([1.0, 0.5, 0.25]), random.key(0))
    assert not bool(jnp.any(noises[1:] == noises[0]))
    print("one noise pattern per level:", noises)
