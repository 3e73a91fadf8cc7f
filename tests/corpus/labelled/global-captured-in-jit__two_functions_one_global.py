"""Sharp Bits: "Pure functions": two jitted functions read the same mutable global.

Each traced function is flagged once, at its first read (later reads in the same function are not).
"""
import jax
import jax.numpy as jnp

NOISE_SCALE = 0.1


@jax.jit
def perturb(x, eps):
    return x + NOISE_SCALE * eps  # expect: global-captured-in-jit


@jax.jit
def penalty(x):
    scaled = x / NOISE_SCALE  # expect: global-captured-in-jit
    return jnp.sum(scaled ** 2) * NOISE_SCALE


def set_noise(scale):
    global NOISE_SCALE
    NOISE_SCALE = scale


if __name__ == "__main__":
    print(perturb(jnp.ones(2), jnp.ones(2)), penalty(jnp.ones(2)))
    set_noise(1.0)
    print("SHARP BIT: unchanged:", perturb(jnp.ones(2), jnp.ones(2)), penalty(jnp.ones(2)))
