"""A gymnax-to-gym wrapper (pobax): `__init__` splits `self.rng` to reset one environment per key and leaves
`self.rng` in place; `step` then splits the same `self.rng`. Under JAX's default threefry `split(k)` gives the
first two keys of `split(k, n)`, so the first step's key is environment 1's reset key, and the key kept for later
is environment 0's.
"""
import jax
import jax.numpy as jnp


class VecEnv:
    def __init__(self, num_envs, seed=0):
        self.num_envs = num_envs
        self.rng = jax.random.PRNGKey(seed)
        reset_keys = jax.random.split(self.rng, num_envs)
        self.state = jax.vmap(lambda k: jax.random.normal(k, (2,)))(reset_keys)

    def step(self, action):
        self.rng, step_key = jax.random.split(self.rng)  # expect: prng-key-reuse
        noise = jax.random.normal(step_key, (2,))
        self.state = self.state + action + noise
        return self.state, noise


if __name__ == "__main__":
    env = VecEnv(4)
    first_state = env.state
    _, noise = env.step(0.0)
    if bool(jnp.all(noise == first_state[1])):
        print("SHARP BIT: the first step's noise is environment 1's reset draw:", noise)
