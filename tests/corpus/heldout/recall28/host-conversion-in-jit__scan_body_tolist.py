"""A `lax.scan` rollout that logs each visited state with `logging` and `state.tolist()` inside the body: the
body is traced and the conversion of a tracer to a list raises.
"""
import logging

import jax.numpy as jnp
from jax import lax

log = logging.getLogger("rollout")


def rollout(x0, n_steps):
    def body(x, _):
        x = 0.9 * x + 0.1
        log.debug("state %s", x.tolist())  # expect: host-conversion-in-jit
        return x, x

    return lax.scan(body, x0, None, length=n_steps)[1]


if __name__ == "__main__":
    print(rollout(jnp.zeros(2), 5))
