"""Control-flow docs: a `lax.while_loop` condition combining two traced tests with Python `and`.

`and` converts its first operand to a Python bool; in the traced `cond_fun` that raises
TracerBoolConversionError (`jnp.logical_and` or `&` stay traced).
"""
import jax
import jax.numpy as jnp


def keep_halving(x):
    return x.max() > 1.0 and x.min() > 0.01  # expect: traced-control-flow


def halve(x):
    return x / 2.0


if __name__ == "__main__":
    print(jax.lax.while_loop(keep_halving, halve, jnp.array([8.0, 4.0])))
