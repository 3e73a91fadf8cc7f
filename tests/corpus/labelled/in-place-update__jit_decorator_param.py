"""Sharp Bits: "In-place updates". A NumPy habit carried into a jitted function: zero the diagonal in place.

`x` is a parameter of a `@jax.jit` function, so it is a tracer; item assignment raises TypeError.
"""
import jax
import jax.numpy as jnp


@jax.jit
def zero_diagonal(x):
    n = x.shape[0]
    x[jnp.arange(n), jnp.arange(n)] = 0.0  # expect: in-place-update
    return x


def main():
    x = jnp.ones((4, 4))
    print(zero_diagonal(x))


if __name__ == "__main__":
    main()
