"""Sharp Bits / "Control flow": a `custom_jvp` rule that unpacks its primals the usual way,
`(x,), (t,) = primals, tangents`, and branches on `x` with a Python `if`; the function is differentiated
inside `jax.jit`.

Under `jit` the rule is traced: `x` is a tracer, as `primals[0]` is, and `if x < ...:` raises
TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def safe_log(x):
    return jnp.log(jnp.maximum(x, 1e-12))


@safe_log.defjvp
def safe_log_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    if x < 1e-12:  # expect: traced-control-flow
        return safe_log(x), jnp.zeros_like(t)
    return safe_log(x), t / x


@jax.jit
def dlog(x):
    return jax.grad(safe_log)(x)


if __name__ == "__main__":
    print(dlog(2.0))
