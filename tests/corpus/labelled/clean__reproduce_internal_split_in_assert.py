"""An environment test in the gymnax style: `env_step` splits its key internally; the test reproduces that split
to compute the expected final observation and checks it with `assert jnp.array_equal(...)`.
"""
import jax
import jax.numpy as jnp


def transition(key, state):
    return state + jax.random.uniform(key, state.shape)


def env_step(key, state):
    transition_key, _ = jax.random.split(key)
    final = transition(transition_key, state)
    return jnp.zeros_like(state), {"final_observation": final}


def test_final_observation_is_kept():
    step_key = jax.random.key(7)
    state = jnp.ones(2)
    transition_key, _ = jax.random.split(step_key)
    expected = transition(transition_key, state)
    observation, info = env_step(step_key, state)
    assert jnp.array_equal(info["final_observation"], expected)
    assert not jnp.array_equal(observation, expected)


if __name__ == "__main__":
    test_final_observation_is_kept()
    print("passed")
