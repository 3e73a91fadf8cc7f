"""A jitted cumulative-maximum over a series written with `lax.scan`: the body is traced once whatever the
caller's length (500 time steps).
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def running_max(x):
    def body(best, xt):
        best = jnp.maximum(best, xt)
        return best, best

    return lax.scan(body, x[0], x)[1]


if __name__ == "__main__":
    series = jnp.sin(jnp.arange(500.0))
    lines = str(jax.make_jaxpr(running_max)(series)).count("\n")
    if lines > 1000:
        print(f"SHARP BIT: the jaxpr of running_max has {lines} lines")
    print(running_max(series)[-1])
