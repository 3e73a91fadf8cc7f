"""Sampler entry points that check their argument: `assert is_prng_key(key)` before the first draw.

The check reads only the dtype and shape; it draws nothing, so the key is still unused afterwards.
Run with `jax_debug_key_reuse`, which would raise on any reuse of these typed keys.
"""
import jax
import jax.numpy as jnp


def is_prng_key(x):
    if jnp.issubdtype(x.dtype, jax.dtypes.prng_key):
        return x.shape == ()
    return x.dtype == jnp.uint32 and x.shape == (2,)


def random_walk_proposal(key, position, step_size=0.1):
    assert is_prng_key(key), f"expected a PRNG key, got {key!r}"
    return position + step_size * jax.random.normal(key, position.shape)


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    print(random_walk_proposal(jax.random.key(0), jnp.zeros(3)))
    print(random_walk_proposal(jax.random.PRNGKey(1), jnp.zeros(3)))
