"""Reshaping into per-head blocks and drawing noise with a head count passed as a traced argument.

`num_heads` is not static, so `x.reshape(num_heads, -1)` and `jax.random.normal(key, (num_heads,))` raise
TypeError (shapes must be concrete). Mark it `static_argnames="num_heads"`.
"""
import jax
import jax.numpy as jnp


@jax.jit
def noisy_heads(x, key, num_heads):
    heads = x.reshape(num_heads, -1)  # expect: dynamic-shape
    noise = jax.random.normal(key, (num_heads,))  # expect: dynamic-shape
    return heads.sum(axis=1) + noise


if __name__ == "__main__":
    print(noisy_heads(jnp.ones(8), jax.random.key(0), 4))
