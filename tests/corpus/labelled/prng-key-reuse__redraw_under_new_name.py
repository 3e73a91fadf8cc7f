"""A bijector test in the distrax style: the forward check draws `x`, the inverse check means to draw a fresh
`y` but uses the same key, so the inverse runs on exactly the forward input (the second check tests nothing new).
"""
import jax
import jax.numpy as jnp
import numpy as np


def forward(x):
    return 2.0 * x + 1.0


def inverse(y):
    return (y - 1.0) / 2.0


def check_bijector(key):
    x = jax.random.normal(key, (5,))
    np.testing.assert_allclose(inverse(forward(x)), x, rtol=1e-6)
    y = jax.random.normal(key, (5,))  # expect: prng-key-reuse
    np.testing.assert_allclose(forward(inverse(y)), y, rtol=1e-6)
    return y


if __name__ == "__main__":
    y = check_bijector(jax.random.PRNGKey(3))
    x = jax.random.normal(jax.random.PRNGKey(3), (5,))
    print("SHARP BIT: the 'fresh' inverse input equals the forward input:", bool(jnp.array_equal(y, x)))
