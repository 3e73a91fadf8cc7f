"""JAX jit docs ("caching"): a helper defined with `def` inside the loop body and jitted there.

The `def` statement runs on every iteration and makes a new function object, so every call retraces.
"""
import jax
import jax.numpy as jnp

trace_count = 0


def smooth_all(signals, width):
    out = []
    for s in signals:
        def smooth(x):
            global trace_count
            trace_count += 1
            kernel = jnp.ones(width) / width
            return jnp.convolve(x, kernel, mode="same")

        out.append(jax.jit(smooth)(s))  # expect: jit-in-loop
    return out


if __name__ == "__main__":
    smooth_all([jnp.arange(8.0)] * 3, 3)
    if trace_count > 1:
        print("SHARP BIT: 3 signals of one shape, traced", trace_count, "times")
