"""Gradient accumulation with `optax.MultiSteps(optax.adam(...), every_k_schedule=4)`: the jitted step logs only
on real updates with `if opt_state.mini_step == 0:`, but the mini-step counter in the state is a traced array.
"""
import jax
import jax.numpy as jnp
import optax

opt = optax.MultiSteps(optax.adam(1e-2), every_k_schedule=4)


@jax.jit
def step(params, opt_state, grads):
    updates, opt_state = opt.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    if opt_state.mini_step == 0:  # expect: traced-control-flow
        params = params * 1.0
    return params, opt_state


if __name__ == "__main__":
    params = jnp.ones(3)
    state = opt.init(params)
    print(step(params, state, jnp.ones(3)))
