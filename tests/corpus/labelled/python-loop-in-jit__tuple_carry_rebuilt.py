"""Sharp Bits / "Control flow": a damped oscillator under jit with a tuple state rebuilt 200 times.

`carry = (carry[0] + ..., carry[1] - ...)` is array work on every iteration, unrolled 200 times
into the jaxpr; `lax.fori_loop` with the tuple as its carry keeps one loop.
"""
import jax
import jax.numpy as jnp


@jax.jit
def oscillate(x, v):
    carry = (x, v)
    for _ in range(200):  # expect: python-loop-in-jit
        carry = (carry[0] + 0.01 * carry[1], 0.99 * carry[1] - 0.01 * carry[0])
    return carry


if __name__ == "__main__":
    jaxpr = jax.make_jaxpr(oscillate.__wrapped__)(jnp.ones(3), jnp.zeros(3))
    print("SHARP BIT: equations in the unrolled jaxpr:", len(jaxpr.jaxpr.eqns))
