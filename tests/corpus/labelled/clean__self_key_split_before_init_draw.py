"""The clean twin of prng-key-reuse__self_key_split_in_init_and_step: `__init__` splits `self.rng`, keeps one
half on `self` and resets the environments from the other, so `step` splits a key nothing has drawn from.
"""
import jax
import jax.numpy as jnp


class VecEnv:
    def __init__(self, num_envs, seed=0):
        self.num_envs = num_envs
        self.rng = jax.random.PRNGKey(seed)
        self.rng, reset_key = jax.random.split(self.rng)
        reset_keys = jax.random.split(reset_key, num_envs)
        self.state = jax.vmap(lambda k: jax.random.normal(k, (2,)))(reset_keys)

    def step(self, action):
        self.rng, step_key = jax.random.split(self.rng)
        noise = jax.random.normal(step_key, (2,))
        self.state = self.state + action + noise
        return self.state, noise


if __name__ == "__main__":
    env = VecEnv(4)
    first_state = env.state
    _, noise = env.step(0.0)
    assert not bool(jnp.any(noise == first_state))
    print("fresh noise:", noise)
