"""Code that asks for int64 only when x64 is on (as gymnax's tests do with `jax.config.x64_enabled`).

Reading the flag shows the module knows about x64: its 64-bit requests are deliberate. Real-code class: gymnax
tests/test_spaces.py (a `skipif(not jax.config.x64_enabled)` test that builds `jnp.array(3, dtype=jnp.int64)`).
"""
import jax
import jax.numpy as jnp


def index_dtype():
    return jnp.int64 if jax.config.x64_enabled else jnp.int32


def counts(n):
    if jax.config.x64_enabled:
        return jnp.arange(n, dtype=jnp.int64)
    return jnp.arange(n, dtype=index_dtype())


if __name__ == "__main__":
    c = counts(4)
    assert c.dtype == index_dtype(), c.dtype
    print(c.dtype)
