"""Clean twin of python-loop-in-jit__while_counter_to_literal_bound: the 200 steps run in `lax.fori_loop`, one
copy of the step in the program.
"""
import jax
import jax.numpy as jnp


@jax.jit
def rollout(obs, w):
    def step(t, carry):
        obs, ret = carry
        action = jnp.tanh(obs @ w)
        return obs + 0.01 * action, ret + action.sum()

    return jax.lax.fori_loop(0, 200, step, (obs, jnp.zeros(())))


if __name__ == "__main__":
    obs, w = jnp.ones(4), jnp.eye(4)
    print(rollout(obs, w)[1], rollout.lower(obs, w).as_text().count("tanh"))
