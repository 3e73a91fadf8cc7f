"""The bug twin: the conversion sits after the `isinstance(n, int)` branch, which no trace takes, so it runs on
the tracer `n`: ConcretizationTypeError."""
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, n):
    if isinstance(n, int):
        return x * int(n)
    return x * float(n)  # expect: host-conversion-in-jit


if __name__ == "__main__":
    try:
        print(scale(jnp.ones(2), 3))
    except jax.errors.ConcretizationTypeError as exc:
        print("SHARP BIT:", type(exc).__name__)
