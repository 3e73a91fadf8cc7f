"""A training loop in the flowjax style: every array of the training set is permuted with the same key, so the
rows of inputs and conditions stay aligned after the shuffle."""
import jax
import jax.numpy as jnp
import jax.random as jr


def shuffle_all(key, arrays):
    return [jr.permutation(key, a) for a in arrays]


def epochs(key, train_data, n):
    for _ in range(n):
        key, *subkeys = jr.split(key, 3)
        train_data = [jr.permutation(subkeys[0], a) for a in train_data]
    return train_data


if __name__ == "__main__":
    x, c = jnp.arange(6) * 10, jnp.arange(6)
    xs, cs = shuffle_all(jax.random.PRNGKey(0), [x, c])
    ys, ds = epochs(jax.random.PRNGKey(1), [x, c], 3)
    assert bool(jnp.all(xs == cs * 10)) and bool(jnp.all(ys == ds * 10))
    print("rows stay aligned")
