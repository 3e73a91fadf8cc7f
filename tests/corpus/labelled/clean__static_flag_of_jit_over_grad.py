"""jaxlogit (round 24): `jax.jit(jax.value_and_grad(f, argnums=0), static_argnames=[...])` makes the named arguments
static for `f` too. The grad wrapper keeps `f`'s signature (functools.wraps), so jit maps the names to positions,
and it passes every argument but `argnums` on to `f` as it came: `if positive:` tests the Python bool, passed by
position here (run on jax 0.10.2: it runs; without the static it raises TracerBoolConversionError).
"""
import functools

import jax
import jax.numpy as jnp


def _transform(betas, positive):
    if positive:
        return jax.nn.softplus(betas)
    return betas


def loglike(betas, x, positive):
    return jnp.sum(x @ _transform(betas, positive))


loglike_and_grad = jax.jit(jax.value_and_grad(loglike, argnums=0), static_argnames=["positive"])
hessian_row = functools.partial(jax.jit, static_argnums=2)(jax.grad(loglike))


def fit(betas, x, positive):
    value, grad = loglike_and_grad(betas, x, positive)
    return value, grad, hessian_row(betas, x, positive)


if __name__ == "__main__":
    print(fit(jnp.ones(3), jnp.ones((2, 3)), True))
