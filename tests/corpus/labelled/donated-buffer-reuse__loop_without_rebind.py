"""A loop that calls a donating step with the same input every iteration (the result is kept elsewhere).

The first call deletes `state`; the second iteration passes the deleted array again.
"""
import jax
import jax.numpy as jnp


def advance(state, dt):
    return state + dt * jnp.cos(state)


advance_jit = jax.jit(advance, donate_argnums=(0,))

if __name__ == "__main__":
    state = jnp.zeros(4)
    trajectory = []
    for _ in range(3):
        trajectory.append(advance_jit(state, 0.1))  # expect: donated-buffer-reuse
    print(trajectory)
