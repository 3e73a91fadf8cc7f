"""JAX PRNG docs: a key used once in each branch of an if/else is used once per execution.
"""
import jax
import jax.numpy as jnp


def sample_init(key, shape, kind="normal"):
    if kind == "normal":
        w = jax.random.normal(key, shape)
    elif kind == "uniform":
        w = jax.random.uniform(key, shape, minval=-1.0, maxval=1.0)
    else:
        w = jax.random.truncated_normal(key, -2.0, 2.0, shape)
    return w * jnp.sqrt(2.0 / shape[0])


def maybe_noise(key, x, noisy):
    if noisy:
        return x + 0.1 * jax.random.normal(key, x.shape)
    return x


if __name__ == "__main__":
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    print(sample_init(k1, (3, 2), "uniform"), maybe_noise(k2, jnp.ones(2), True))
