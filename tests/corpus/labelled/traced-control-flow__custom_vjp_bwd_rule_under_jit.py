"""JAX custom derivatives docs: a `custom_vjp` whose backward rule branches in Python on its residual.

`jax.grad(f)` alone calls the rule with values; under `jax.jit` the rule is traced: TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def soft_abs(x):
    return jnp.abs(x)


def soft_abs_fwd(x):
    return jnp.abs(x), x


def soft_abs_bwd(x, g):
    if x > 0:  # expect: traced-control-flow
        return (g,)
    return (-g,)


soft_abs.defvjp(soft_abs_fwd, soft_abs_bwd)


@jax.jit
def slope(x):
    return jax.grad(soft_abs)(x)


if __name__ == "__main__":
    print(slope(jnp.float32(3.0)))
