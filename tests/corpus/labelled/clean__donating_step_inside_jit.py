"""A donating step called from inside another jitted function and a `lax.scan` body.

Under an outer trace the inner `jit` is inlined: its donation is a no-op, so reading the argument after the
call is fine (checked on jax 0.10.2: the outer function and the scan run and return correct values).
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def step(x):
    return x + 1.0


@jax.jit
def two_steps(x):
    y = step(x)
    return x + y


def body(carry, _):
    nxt = step(carry)
    return carry + nxt, None


if __name__ == "__main__":
    print(two_steps(jnp.ones(3)), jax.lax.scan(body, jnp.ones(2), None, length=2)[0])
