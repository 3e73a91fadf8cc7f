"""A hand-written cosine learning-rate schedule with `math.cos`, given to `optax.sgd`; the update runs in jit.

optax calls the schedule from `opt.update` with the step count, an array of the optimizer state: inside the
jitted step it is a tracer and `math.cos` asks it for a Python float (ConcretizationTypeError). The twin
`clean__optax_schedule_math_eager_update` runs the same schedule from an eager update, on a concrete count.
"""
import math

import jax
import jax.numpy as jnp
import optax


def cosine_lr(count, base=0.1, total=100):
    return base * 0.5 * (1 + math.cos(math.pi * count / total))  # expect: host-conversion-in-jit


opt = optax.sgd(learning_rate=cosine_lr)


@jax.jit
def step(params, state, grads):
    updates, state = opt.update(grads, state, params)
    return optax.apply_updates(params, updates), state


if __name__ == "__main__":
    p = jnp.ones(2)
    print(step(p, opt.init(p), jnp.ones(2)))
