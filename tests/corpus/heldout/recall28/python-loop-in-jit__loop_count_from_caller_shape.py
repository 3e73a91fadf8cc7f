"""A jitted cumulative-maximum written as a Python loop over `range(x.shape[0])`: the count is a shape, known
only from the caller's arrays (500 time steps), and the loop is unrolled into the trace 500 times.
"""
import jax
import jax.numpy as jnp


@jax.jit
def running_max(x):
    out = jnp.zeros_like(x)
    best = x[0]
    for t in range(x.shape[0]):  # expect: python-loop-in-jit
        best = jnp.maximum(best, x[t])
        out = out.at[t].set(best)
    return out


if __name__ == "__main__":
    series = jnp.sin(jnp.arange(500.0))
    lines = str(jax.make_jaxpr(running_max)(series)).count("\n")
    if lines > 1000:
        print(f"SHARP BIT: the jaxpr of running_max has {lines} lines (loop unrolled 500 times)")
