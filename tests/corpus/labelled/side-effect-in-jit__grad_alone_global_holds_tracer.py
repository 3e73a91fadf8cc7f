"""The bug twin of `clean__grad_alone_writes_a_concrete_global`: the global keeps a value computed from the
differentiated argument.

Under `jax.grad` alone the body runs on every call, but `pars` is a tracer there, so `LAST = pars * 2` stores a
tracer in a global that outlives the trace: reading it afterwards raises UnexpectedTracerError.
"""
import jax
import jax.numpy as jnp

LAST = None


def loss(pars, data):
    global LAST
    LAST = pars * 2  # expect: side-effect-in-jit
    return jnp.sum(LAST * data)


if __name__ == "__main__":
    g = jax.grad(loss)(jnp.ones(2), jnp.ones(2))
    try:
        print(jnp.sum(LAST) + 1.0)
    except Exception as error:
        print("SHARP BIT:", type(error).__name__)
