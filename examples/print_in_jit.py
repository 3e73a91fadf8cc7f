"""print-in-jit: `print` shows a tracer once, at trace time; `jax.debug.print` shows the values on every call."""
import jax
import jax.numpy as jnp


@jax.jit
def normalise(x):
    total = jnp.sum(x)
    print("total:", total)
    return x / total


@jax.jit
def normalise_logged(x):
    total = jnp.sum(x)
    print("tracing normalise_logged for shape", x.shape)  # shapes are known while tracing
    jax.debug.print("total: {}", total)
    return x / total


if __name__ == "__main__":
    xs = jnp.arange(1.0, 4.0)
    normalise(xs)
    normalise(xs)  # prints nothing: the compiled program has no print in it
    normalise_logged(xs)
