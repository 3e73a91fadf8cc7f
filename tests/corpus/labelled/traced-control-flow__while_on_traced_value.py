"""Sharp Bits / "Control flow": a Python `while` whose condition is a traced value, under bare `@jit`.

Raises TracerBoolConversionError; `lax.while_loop` is the traced equivalent.
"""
import jax.numpy as jnp
from jax import jit


@jit
def newton_sqrt(a, tol=1e-6):
    x = a
    while jnp.abs(x * x - a) > tol:  # expect: traced-control-flow
        x = 0.5 * (x + a / x)
    return x


if __name__ == "__main__":
    print(newton_sqrt(2.0))
