"""Sharp Bits / "Control flow": `jax.jit(f)(x)` called inline, the loop inside `f` is unrolled.
"""
import jax
import jax.numpy as jnp


def horner(coeffs, x):
    acc = jnp.zeros_like(x)
    i = 0
    while i < coeffs.shape[0]:  # expect: python-loop-in-jit
        acc = acc * x + coeffs[i]
        i += 1
    return acc


if __name__ == "__main__":
    coeffs = jnp.arange(50.0)
    print(jax.jit(horner)(coeffs, jnp.linspace(0.0, 1.0, 4)))
    print("SHARP BIT: equations:", len(jax.make_jaxpr(horner)(coeffs, jnp.ones(4)).jaxpr.eqns))
