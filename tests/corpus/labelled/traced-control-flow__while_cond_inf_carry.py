"""Sharp Bits / "Control flow": a Newton solver's `lax.while_loop` whose carry starts at `(x0, jnp.inf, 0)`,
with a condition that joins two tests by Python `and`.

`jnp.inf` is a Python float, a leaf of the carry like a literal number: inside the condition every leaf is a
tracer, so `(jnp.abs(delta) > tol) and ...` raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def solve_kepler(M, e, tol=1e-6, max_iter=50):
    def cond(c):
        E, delta, it = c
        return (jnp.abs(delta) > tol) and (it < max_iter)  # expect: traced-control-flow

    def body(c):
        E, _, it = c
        delta = (E - e * jnp.sin(E) - M) / (1 - e * jnp.cos(E))
        return E - delta, delta, it + 1

    return jax.lax.while_loop(cond, body, (M, jnp.inf, 0))[0]


if __name__ == "__main__":
    print(solve_kepler(jnp.float32(1.0), 0.3))
