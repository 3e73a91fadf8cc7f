"""A hand-written cosine learning-rate schedule with `math.cos`, given to `optax.sgd`; the update runs eagerly.

Outside any trace optax calls the schedule with a concrete count (a JAX scalar with a value), which `math.cos`
converts to a float without complaint: no error (the twin of
`host-conversion-in-jit__optax_schedule_math_in_jitted_update`, where the update is jitted).
"""
import math

import jax.numpy as jnp
import optax


def cosine_lr(count, base=0.1, total=100):
    return base * 0.5 * (1 + math.cos(math.pi * count / total))


opt = optax.sgd(learning_rate=cosine_lr)


def step(params, state, grads):
    updates, state = opt.update(grads, state, params)
    return optax.apply_updates(params, updates), state


if __name__ == "__main__":
    p = jnp.ones(2)
    state = opt.init(p)
    for _ in range(2):
        p, state = step(p, state, jnp.ones(2))
    print(p)
