"""Two parameter sets built from the same pair of keys: the second call reuses both keys, so the two sets are
identical. One call, one hazard: reported once, naming both keys.
"""
import jax
import jax.numpy as jnp


def make_layer(key_w, key_b):
    return jax.random.normal(key_w, (3, 3)), jax.random.normal(key_b, (3,))


def two_layers(key):
    key_w, key_b = jax.random.split(key)
    first = make_layer(key_w, key_b)
    second = make_layer(key_w, key_b)  # expect: prng-key-reuse
    return first, second


if __name__ == "__main__":
    first, second = two_layers(jax.random.PRNGKey(0))
    print("SHARP BIT: the two layers are identical:", bool(jnp.array_equal(first[0], second[0])))
