"""Sharp Bits / "Control flow": a `while` counted by local literals (`it, max_iter = 0, 300`) under jit.

The counter and its bound are Python ints, so the loop runs 300 times while tracing and every
iteration is unrolled into the jaxpr; `lax.fori_loop(0, max_iter, ...)` keeps one loop.
"""
import jax
import jax.numpy as jnp


@jax.jit
def gradient_descent(x):
    it, max_iter = 0, 300
    while it < max_iter:  # expect: python-loop-in-jit
        x = x - 0.01 * (4.0 * x**3 - 4.0 * x)
        it += 1
    return x


if __name__ == "__main__":
    jaxpr = jax.make_jaxpr(gradient_descent.__wrapped__)(jnp.ones(3))
    print("SHARP BIT: equations in the unrolled jaxpr:", len(jaxpr.jaxpr.eqns))
