"""The fix of prng-key-reuse__key_to_two_method_calls: split the helper's key, one subkey per method call."""
import jax
import jax.numpy as jnp


def make_key(seed):
    return jax.random.PRNGKey(seed)


class Noise:
    def __init__(self, scale):
        self.scale = scale

    def sample(self, key, shape):
        return self.scale * jax.random.normal(key, shape)

    def pair(self, seed):
        first_key, second_key = jax.random.split(make_key(seed))
        first = self.sample(first_key, (3,))
        second = self.sample(second_key, (3,))
        return first, second


if __name__ == "__main__":
    first, second = Noise(2.0).pair(0)
    assert not bool(jnp.all(first == second))
