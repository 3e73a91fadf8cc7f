"""Sharp Bits / "Control flow": iterating over a JAX array inside jit unrolls once per element.

`jnp.linspace(0, 1, 200)` has a static length, so the loop traces, with 200 copies of the body.
"""
import jax
import jax.numpy as jnp


@jax.jit
def riemann_integral(coeffs):
    total = 0.0
    for t in jnp.linspace(0.0, 1.0, 200):  # expect: python-loop-in-jit
        total = total + jnp.polyval(coeffs, t) / 200
    return total


if __name__ == "__main__":
    coeffs = jnp.array([1.0, 0.0, 0.0])
    print(riemann_integral(coeffs))
    print("SHARP BIT: equations:", len(jax.make_jaxpr(riemann_integral.__wrapped__)(coeffs).jaxpr.eqns))
