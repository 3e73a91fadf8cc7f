"""JAX PRNG docs inside `@jax.jit`, with the common `rng` naming: the parent key is used after `split`.

Typed keys make `jax_debug_key_reuse` raise KeyReuseError at trace time.
"""
import jax
import jax.numpy as jnp
import jax.random as jr


@jax.jit
def random_subset(rng, x):
    rng_perm, rng_noise = jr.split(rng)
    idx = jr.choice(rng_perm, x.shape[0], (2,), replace=False)
    noise = jr.normal(rng_noise, (2,) + x.shape[1:])
    scale = jr.uniform(rng, ())  # expect: prng-key-reuse
    return x[idx] + scale * noise


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    print(random_subset(jr.key(0), jnp.ones((5, 2))))
