"""Control-flow docs: `and` between two traced comparisons inside a `lax.scan` body.

The carry and the scanned slice are tracers; the `if` needs a Python bool: TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def clipped_step(total, x):
    if total < 10.0 and x > 0.0:  # expect: traced-control-flow
        total = total + x
    return total, total


if __name__ == "__main__":
    final, history = jax.lax.scan(clipped_step, 0.0, jnp.arange(5.0))
    print(final, history)
