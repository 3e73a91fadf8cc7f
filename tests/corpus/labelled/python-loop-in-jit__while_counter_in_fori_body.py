"""Sharp Bits / "Control flow": a Python `while` with a Python counter inside a `lax.fori_loop` body.

The outer loop is rolled, but every body contains 50 unrolled inner iterations.
"""
import jax
import jax.numpy as jnp


def relax(grid):
    def sweep(_, g):
        k = 0
        while k < 50:  # expect: python-loop-in-jit
            g = 0.5 * (jnp.roll(g, 1) + jnp.roll(g, -1))
            k += 1
        return g

    return jax.lax.fori_loop(0, 10, sweep, grid)


if __name__ == "__main__":
    print(relax(jnp.arange(6.0)))
    print("SHARP BIT: jaxpr lines:", len(str(jax.make_jaxpr(relax)(jnp.arange(6.0))).splitlines()))
