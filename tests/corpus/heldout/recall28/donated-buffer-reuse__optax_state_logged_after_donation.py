"""An optax Adam step jitted with `donate_argnames=("opt_state",)`; the script then logs the old state's first
moment: the donated state's buffers are deleted, so reading them raises.
"""
from functools import partial

import jax
import jax.numpy as jnp
import optax

opt = optax.adam(1e-2)


@partial(jax.jit, donate_argnames=("opt_state",))
def update(params, grads, opt_state):
    updates, new_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), new_state


if __name__ == "__main__":
    params = jnp.ones(512)
    opt_state = opt.init(params)
    params, new_state = update(params, jnp.ones(512), opt_state=opt_state)
    print("old mu norm", jnp.linalg.norm(opt_state[0].mu))  # expect: donated-buffer-reuse
