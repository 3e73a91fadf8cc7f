"""A `lax.scan` rollout returns every visited state as its stacked output; the logging code converts them with
`.tolist()` after the scan has run.
"""
import logging

import jax.numpy as jnp
from jax import lax

log = logging.getLogger("rollout")


def rollout(x0, n_steps):
    def body(x, _):
        x = 0.9 * x + 0.1
        return x, x

    states = lax.scan(body, x0, None, length=n_steps)[1]
    log.debug("states %s", states.tolist())
    return states


if __name__ == "__main__":
    print(rollout(jnp.zeros(2), 5))
