"""A train/validation split that draws both index sets from one key: the two "independent" subsets are the
same indices, so validation measures the training examples.
"""
import jax
import jax.numpy as jnp


def split_indices(key, n, k):
    train = jax.random.choice(key, n, (k,), replace=False)
    val = jax.random.choice(key, n, (k,), replace=False)  # expect: prng-key-reuse
    return train, val


if __name__ == "__main__":
    train, val = split_indices(jax.random.PRNGKey(0), 100, 10)
    print("SHARP BIT: validation indices equal training indices:", bool(jnp.array_equal(train, val)))
