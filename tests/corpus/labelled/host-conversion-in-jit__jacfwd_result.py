"""Sharp Bits / "Control flow" (concrete values): `float()` of an entry of `jax.jacfwd`'s Jacobian, under jit.

The Jacobian computed inside the jitted function is traced, so `float(jac[0, 0])` raises
ConcretizationTypeError while tracing.
"""
import jax
import jax.numpy as jnp


def residual(p):
    return jnp.array([p[0] ** 2 + p[1] - 3.0, p[0] - p[1] ** 3])


@jax.jit
def gauss_newton(p):
    jac = jax.jacfwd(residual)(p)
    damping = 1e-3 * float(jac[0, 0])  # expect: host-conversion-in-jit
    lhs = jac.T @ jac + damping * jnp.eye(2)
    return p - jnp.linalg.solve(lhs, jac.T @ residual(p))


if __name__ == "__main__":
    print(gauss_newton(jnp.array([1.0, 1.0])))
