"""JAX PRNG docs ("never reuse a key"): four draws from one key, each a finding of its own.

Fixing the second draw (splitting once) still leaves the third and fourth on the same key: each
reuse is a separate hazard at its own line. `c` equals `a`; `b` and `d` come from the same bits.
"""
import jax
import jax.numpy as jnp


def init_layer(key, n):
    w = jax.random.normal(key, (n, n))
    b = jax.random.uniform(key, (n,))  # expect: prng-key-reuse
    scale = jax.random.normal(key, (n, n))  # expect: prng-key-reuse
    mask = jax.random.bernoulli(key, 0.5, (n,))  # expect: prng-key-reuse
    return w, b, scale, mask


if __name__ == "__main__":
    w, b, scale, mask = init_layer(jax.random.PRNGKey(0), 4)
    if bool(jnp.array_equal(mask, b < 0.5)):
        print("SHARP BIT: `mask` is `b < 0.5` (bernoulli and uniform read the same bits)")
    if bool(jnp.array_equal(w, scale)):
        print("SHARP BIT: `scale` equals `w` (same key, same sampler, same shape)")
