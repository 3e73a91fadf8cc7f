"""A loss differentiated with `jax.grad` alone (no `jit`) keeps the Lagrange multipliers in a global (MDRefine).

`jax.grad` without `jit` runs the Python body on every call and only the differentiated argument is a tracer:
`LAMBDAS = fixed` (an argument grad does not differentiate) and `LAMBDAS = jnp.zeros(2)` store concrete arrays,
written on every call, exactly as in eager code. The twin `side-effect-in-jit__grad_alone_global_holds_tracer`
stores a value computed from the differentiated argument, which leaks a tracer.
"""
import jax
import jax.numpy as jnp

LAMBDAS = None


def loss(pars, data, fixed=None):
    global LAMBDAS
    if fixed is None:
        LAMBDAS = jnp.zeros(2)
    else:
        LAMBDAS = fixed
    return jnp.sum(pars ** 2) + jnp.sum(LAMBDAS * pars * data)


def loss_and_grad(pars, data):
    value = loss(pars, data)
    gradient = jax.grad(loss)(pars, data, fixed=jnp.ones(2))
    return value, gradient


if __name__ == "__main__":
    for step in range(3):
        value, g = loss_and_grad(jnp.ones(2) * step, jnp.ones(2))
        print(step, float(value), g, LAMBDAS)  # concrete every call: no tracer ever stored
    assert not isinstance(LAMBDAS, jax.core.Tracer)
