"""fedjax 0.0.x aggregators/walsh_hadamard(_test).py and compression.py: a random structured rotation (random
signs, then a Hadamard transform) is undone by its declared inverse, given the same key. Undoing a random
transformation needs the very randomness that made it: the inverse redraws the same signs, and another key
would be the bug (checked below: the same key gives x back, another key does not).
"""
import jax
import jax.numpy as jnp


def hadamard(x):
    n = x.shape[-1]
    h = jnp.array([[1.0]])
    while h.shape[0] < n:
        h = jnp.block([[h, h], [h, -h]])
    return x @ h / jnp.sqrt(n)


def structured_rotation(x, key):
    signs = jax.random.rademacher(key, x.shape[-1:]).astype(x.dtype)
    return hadamard(x * signs), x.shape


def inverse_structured_rotation(y, key, shape):
    signs = jax.random.rademacher(key, shape[-1:]).astype(y.dtype)
    return hadamard(y) * signs


def quantize(x):
    return jnp.round(x * 64) / 64


def round_trip(x, key):
    rng, rotation_rng = jax.random.split(key)
    y, shape = structured_rotation(x, rotation_rng)
    z = inverse_structured_rotation(quantize(y), rotation_rng, shape)
    return z, rng


if __name__ == "__main__":
    x = jax.random.normal(jax.random.PRNGKey(100), (4, 8))
    z, _ = round_trip(x, jax.random.PRNGKey(10))
    assert jnp.allclose(z, x, atol=0.05)
    y, shape = structured_rotation(x, jax.random.PRNGKey(1))
    print("same key undoes it:", bool(jnp.allclose(inverse_structured_rotation(y, jax.random.PRNGKey(1), shape), x,
                                                    atol=1e-5)),
          "another key does not:", not bool(jnp.allclose(inverse_structured_rotation(y, jax.random.PRNGKey(2), shape),
                                                         x, atol=1e-5)))
