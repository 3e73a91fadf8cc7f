"""Sharp Bits / "Control flow": a `custom_jvp` rule that unpacks its primals as `(x,), (t,) = primals,
tangents` and chooses the tangent with `jnp.where`; the function is differentiated inside `jax.jit`.
Nothing here is a sharp bit.
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def safe_log(x):
    return jnp.log(jnp.maximum(x, 1e-12))


@safe_log.defjvp
def safe_log_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return safe_log(x), jnp.where(x < 1e-12, 0.0, t / jnp.maximum(x, 1e-12))


@jax.jit
def dlog(x):
    return jax.grad(safe_log)(x)


if __name__ == "__main__":
    print(dlog(2.0), dlog(0.0))
