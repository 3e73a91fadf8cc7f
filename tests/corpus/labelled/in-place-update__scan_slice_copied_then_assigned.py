"""A scan body that keeps a copy of its slice and then writes into the slice: `x.copy()` and `x.sort()` are
methods JAX arrays have too, so they say nothing about `x` being a Python container (unlike `pop`, `append`,
`items`), and `x[0] = 0.0` on the array slice raises TypeError (run under JAX).
"""
import jax
import jax.numpy as jnp


def step(carry, x_and_index):
    x, index = x_and_index
    saved = x.copy()
    x[0] = 0.0  # expect: in-place-update
    return carry + index * (x.sum() + saved.sum()), None


def main():
    try:
        jax.jit(lambda xs: jax.lax.scan(step, 0.0, (xs, jnp.arange(3.0))))(jnp.ones((3, 4)))
    except TypeError as err:
        print("SHARP BIT:", str(err).splitlines()[0])


if __name__ == "__main__":
    main()
