"""JAX PRNG docs: the idiomatic training loop, `key, subkey = jax.random.split(key)` every step.
"""
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def train_step(w, x, y, lr=0.1):
    g = jax.grad(loss_fn)(w, x, y)
    return w - lr * g


def train(num_steps=20, seed=0):
    key = jax.random.PRNGKey(seed)
    key, init_key = jax.random.split(key)
    w = jax.random.normal(init_key, (3,))
    true_w = jnp.array([1.0, -2.0, 0.5])
    for step in range(num_steps):
        key, subkey = jax.random.split(key)
        x = jax.random.normal(subkey, (32, 3))
        y = x @ true_w
        w = train_step(w, x, y)
    return w


if __name__ == "__main__":
    print(train())
