"""A decorator shows what the function it wraps returns with `jax.debug.print`; `@jax.jit` above it traces the
wrapper, and the debug print runs on every call with the values.
"""
import jax
import jax.numpy as jnp


def show(fn):
    def wrapper(x):
        y = fn(x)
        jax.debug.print("result {}", y)
        return y
    return wrapper


@jax.jit
@show
def double(x):
    return 2 * x


if __name__ == "__main__":
    double(jnp.ones(2))
    double(jnp.ones(2) * 3)
