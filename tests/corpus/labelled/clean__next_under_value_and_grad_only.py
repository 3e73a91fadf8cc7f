"""An outer iterator of keys advanced with `next(keys)` in a loss that only `jax.value_and_grad` traces (no jit):
value_and_grad traces the function anew on every call, so every call takes the next key, as eager code would.
"""
import jax
import jax.numpy as jnp

keys = iter(jax.random.split(jax.random.key(0), 10))


def noisy_loss(w):
    noise = jax.random.normal(next(keys), w.shape)
    return jnp.sum((w + 0.1 * noise) ** 2)


if __name__ == "__main__":
    w = jnp.ones(3)
    first, _ = jax.value_and_grad(noisy_loss)(w)
    second, _ = jax.value_and_grad(noisy_loss)(w)
    print(float(first), float(second), "different:", float(first) != float(second))
