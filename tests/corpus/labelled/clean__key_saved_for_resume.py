"""A sampling loop that checkpoints its key after every step, so a resumed run draws the same sequence (jimgw's
samplers call `save_checkpoint_if_due(..., rng_key, ...)`).

Saving the key (here with `pickle.dumps`) stores it and draws nothing: each step still draws only from a fresh
`step_key`. Run with `jax_debug_key_reuse`, which would raise on any reuse of the typed keys.
"""
import pickle

import jax
import jax.numpy as jnp


def run_chain(rng_key, n_steps=3):
    position = jnp.zeros(2)
    saved = b""
    for _ in range(n_steps):
        rng_key, step_key = jax.random.split(rng_key)
        position = position + jax.random.normal(step_key, position.shape)
        saved = pickle.dumps(rng_key)
    return position, saved


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    print(run_chain(jax.random.key(0))[0])
    print(run_chain(jax.random.PRNGKey(0))[0])
