"""A ring buffer updated inside a `lax.scan` body with `buf[i] = x`.

JAX arrays are immutable: the assignment raises TypeError when the body is traced.
"""
import jax.numpy as jnp
from jax import lax


def fill_ring(xs, size=4):
    def body(carry, x):
        buf, i = carry
        buf[i % size] = x  # expect: in-place-update
        return (buf, i + 1), None

    (buf, _), _ = lax.scan(body, (jnp.zeros(size), 0), xs)
    return buf


if __name__ == "__main__":
    print(fill_ring(jnp.arange(10.0)))
