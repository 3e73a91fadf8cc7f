"""An equinox-style block whose noise layer is held in an attribute and called with `key=`: the two calls in
`__call__` hand it the same key, so both layers add the same noise (run under JAX: the two noises are equal).
A held object called with `key=` is no constructor, but it is a function this module defines, and it draws.
"""
import jax
import jax.numpy as jnp


class GaussianNoise:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x, *, key):
        return x + self.scale * jax.random.normal(key, x.shape)


class Block:
    def __init__(self):
        self.Noise = GaussianNoise(0.1)

    def __call__(self, x, *, key):
        h = self.Noise(x, key=key)
        out = self.Noise(jnp.tanh(h), key=key)  # expect: prng-key-reuse
        return h, out


def main():
    x = jnp.zeros(3)
    h, out = Block()(x, key=jax.random.key(0))
    if bool(jnp.allclose(h - x, out - jnp.tanh(h))):
        print("SHARP BIT: both layers added the same noise (one key drew both)")


if __name__ == "__main__":
    main()
