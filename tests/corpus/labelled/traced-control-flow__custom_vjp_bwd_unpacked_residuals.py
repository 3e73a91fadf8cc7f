"""A custom_vjp whose backward rule unpacks its residuals and branches on one of them in Python.

Under `jax.jit` of the gradient the backward rule is traced: the residuals fwd returned (`(x, n)`) arrive as
tracers without values, and `if n > 0` raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def safe_norm(x):
    return jnp.sqrt(jnp.sum(x ** 2))


def safe_norm_fwd(x):
    n = safe_norm(x)
    return n, (x, n)


def safe_norm_bwd(res, g):
    x, n = res
    if n > 0:  # expect: traced-control-flow
        return (g * x / n,)
    return (jnp.zeros_like(x),)


safe_norm.defvjp(safe_norm_fwd, safe_norm_bwd)


@jax.jit
def grad_norm(x):
    return jax.grad(safe_norm)(x)


if __name__ == "__main__":
    print(grad_norm(jnp.array([3.0, 4.0])))
