"""JAX PRNG docs: derive a per-step key with `fold_in(base_key, step)` inside the loop.
"""
import jax
import jax.numpy as jnp


def noisy_sgd(w, grad_fn, base_key, steps=5, lr=0.1, sigma=0.01):
    for step in range(steps):
        step_key = jax.random.fold_in(base_key, step)
        noise = sigma * jax.random.normal(step_key, w.shape)
        w = w - lr * (grad_fn(w) + noise)
    return w


@jax.jit
def per_example_noise(key, x):
    keys = jax.random.split(key, x.shape[0])
    return jax.vmap(lambda k, row: row + jax.random.normal(k, row.shape))(keys, x)


if __name__ == "__main__":
    print(noisy_sgd(jnp.ones(3), lambda w: 2 * w, jax.random.PRNGKey(0)))
    print(per_example_noise(jax.random.PRNGKey(1), jnp.zeros((2, 3))))
