"""Gradient accumulation with `optax.MultiSteps(optax.adam(...), every_k_schedule=4)`: the jitted step returns the
state, and the loop outside the jit reads `int(opt_state.mini_step)` to log only on real updates.
"""
import jax
import jax.numpy as jnp
import optax

opt = optax.MultiSteps(optax.adam(1e-2), every_k_schedule=4)


@jax.jit
def step(params, opt_state, grads):
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


if __name__ == "__main__":
    params = jnp.ones(3)
    state = opt.init(params)
    for i in range(8):
        params, state = step(params, state, jnp.ones(3))
        if int(state.mini_step) == 0:
            print("update after micro-batch", i, params)
