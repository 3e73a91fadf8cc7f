"""Repeated differentiation with a Python counter, as ott's arc-cosine kernel does: `jax.grad(f)(t, i - 1)`
differentiates only `t` and passes `i` through as a Python int, so `if i == 0` is ordinary Python."""
import jax
import jax.numpy as jnp


def nth_derivative_ratio(t, i):
    if i == 0:
        return (jnp.pi - t) / jnp.sin(t)
    return jax.grad(nth_derivative_ratio)(t, i - 1) / jnp.sin(t)


@jax.jit
def j3(theta):
    return jnp.sin(theta) ** 7 * nth_derivative_ratio(theta, 3)


if __name__ == "__main__":
    print(j3(1.0))
