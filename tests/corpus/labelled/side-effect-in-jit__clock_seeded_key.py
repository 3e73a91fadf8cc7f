"""A key seeded from the clock inside a jitted step is one key for every step (nanodl's trainers).

`jax.random.PRNGKey(int(time.time()))` in the loss of a jitted training step reads the clock once, when the step
is traced; the compiled step has that key as a constant, so every step uses the same dropout mask, however much
time passes between the calls (run: the two masks are equal, 1.1 s apart).
"""
import time

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    def loss_fn(w):
        mask = jax.random.bernoulli(jax.random.PRNGKey(int(time.time())), 0.5, x.shape)  # expect: side-effect-in-jit
        return jnp.sum(jnp.where(mask, x, 0.0) * w), mask

    (loss, mask), grads = jax.value_and_grad(loss_fn, has_aux=True)(w)
    return w - 0.1 * grads, mask


@jax.jit
def noise(x):
    seed = time.time_ns() % (2**31)  # expect: side-effect-in-jit
    return x + jax.random.normal(jax.random.PRNGKey(seed), x.shape)


if __name__ == "__main__":
    w, x = jnp.ones(8), jnp.arange(8.0)
    _, m1 = train_step(w, x)
    time.sleep(1.1)
    _, m2 = train_step(w, x)
    print(bool((m1 == m2).all()), bool((noise(x) == noise(x)).all()))
