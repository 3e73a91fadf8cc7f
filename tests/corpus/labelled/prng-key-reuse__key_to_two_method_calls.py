"""A key made by a helper and handed to a method twice: the method draws from the key it is given, so both calls
draw the same numbers. No `jax.random` call appears in the caller itself: the key is known by its kind (what the
helper returns), and the method by what its body consumes.
"""
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
        key = make_key(seed)
        first = self.sample(key, (3,))
        second = self.sample(key, (3,))  # expect: prng-key-reuse
        return first, second


if __name__ == "__main__":
    first, second = Noise(2.0).pair(0)
    if bool(jnp.all(first == second)):
        print("SHARP BIT: the two samples are identical")
