"""Noise-conditional score matching (coreax): the `fori_loop` body perturbs the data at each noise level with
`normal(key(0), x.shape)`. The key is made afresh from the same seed in every iteration, so every noise level
gets the same noise pattern, only scaled (and every training step repeats it).
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import random


def _level(i, carry, x, sigmas):
    total, noises = carry
    noise = random.normal(random.key(0), x.shape)  # expect: prng-key-reuse
    perturbed = x + sigmas[i] * noise
    return total + jnp.sum(perturbed**2), noises.at[i].set(noise)


@jax.jit
def objective(x, sigmas):
    body = partial(_level, x=x, sigmas=sigmas)
    return jax.lax.fori_loop(0, sigmas.shape[0], body, (0.0, jnp.zeros((sigmas.shape[0],) + x.shape)))


if __name__ == "__main__":
    _, noises = objective(jnp.ones(3), jnp.array([1.0, 0.5, 0.25]))
    if bool(jnp.all(noises == noises[0])):
        print("SHARP BIT: every noise level drew the same noise:", noises[0])
