"""A data-parallel step under `jax.pmap` prints its per-device loss with `jax.debug.print`, which is staged into
the compiled program and prints on every step.
"""
import jax
import jax.numpy as jnp


def step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    jax.debug.print("device loss {}", loss)
    return w - 0.01 * jax.grad(lambda w: jnp.mean((x @ w) ** 2))(w)


p_step = jax.pmap(step)

if __name__ == "__main__":
    n = jax.local_device_count()
    w, x = jnp.ones((n, 3)), jnp.ones((n, 4, 3))
    for _ in range(3):
        w = p_step(w, x)
    w.block_until_ready()
