"""JAX tutorial "MLP from scratch": looping over a Python list of layers inside jit is idiomatic.
"""
import jax
import jax.numpy as jnp


def init(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [(jax.random.normal(k, (m, n)) / jnp.sqrt(m), jnp.zeros(n))
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


@jax.jit
def predict(params, x):
    *hidden, (w_out, b_out) = params
    for w, b in hidden:
        x = jax.nn.relu(x @ w + b)
    return x @ w_out + b_out


@jax.jit
def l2(params):
    total = 0.0
    for layer in params:
        total = total + jnp.sum(layer[0] ** 2)
    return total


if __name__ == "__main__":
    params = init(jax.random.PRNGKey(0), [3, 8, 8, 1])
    print(predict(params, jnp.ones((2, 3))), l2(params))
