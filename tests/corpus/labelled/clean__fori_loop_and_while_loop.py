"""Sharp Bits / "Control flow": loops already written with `lax.fori_loop` and `lax.while_loop`.
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def power_iteration(a, v):
    def body(_, v):
        v = a @ v
        return v / jnp.linalg.norm(v)

    return lax.fori_loop(0, 500, body, v)


@jax.jit
def newton_sqrt(a, tol=1e-6):
    def cond(x):
        return jnp.abs(x * x - a) > tol

    def body(x):
        return 0.5 * (x + a / x)

    return lax.while_loop(cond, body, a)


if __name__ == "__main__":
    print(power_iteration(jnp.diag(jnp.array([2.0, 1.0])), jnp.ones(2)))
    print(newton_sqrt(2.0))
