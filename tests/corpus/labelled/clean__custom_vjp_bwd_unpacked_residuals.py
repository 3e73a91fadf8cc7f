"""A custom_vjp whose backward rule unpacks its residuals and chooses with `jnp.where`.

The same residuals as the bug twin, traced under `jax.jit` of the gradient; the choice is made on the traced
value by `jnp.where`, which is how a rule branches on its residuals.
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
    safe = jnp.where(n > 0, n, 1.0)
    return (jnp.where(n > 0, g * x / safe, jnp.zeros_like(x)),)


safe_norm.defvjp(safe_norm_fwd, safe_norm_bwd)


@jax.jit
def grad_norm(x):
    return jax.grad(safe_norm)(x)


if __name__ == "__main__":
    print(grad_norm(jnp.array([3.0, 4.0])))
