"""A jitted rollout counts its steps with a Python `while t < 200:` (the bound a literal, the counter stepped at
the end of the body): JAX runs the Python loop at trace time and unrolls 200 copies of the step
(held-out set recall24).
"""
import jax
import jax.numpy as jnp


@jax.jit
def rollout(obs, w):
    t = 0
    ret = jnp.zeros(())
    while t < 200:  # expect: python-loop-in-jit
        action = jnp.tanh(obs @ w)
        obs = obs + 0.01 * action
        ret = ret + action.sum()
        t += 1
    return obs, ret


if __name__ == "__main__":
    obs, w = jnp.ones(4), jnp.eye(4)
    n = rollout.lower(obs, w).as_text().count("tanh")
    if n >= 200:
        print("SHARP BIT: 200 steps unrolled,", n, "tanh ops")
