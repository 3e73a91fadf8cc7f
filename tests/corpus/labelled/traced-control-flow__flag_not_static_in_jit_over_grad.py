"""jaxlogit (round 24), the bug twin: the jit over `jax.value_and_grad` makes `x` static, not the flag, so the flag
arrives in `loglike` as a tracer and `if positive:` raises TracerBoolConversionError (run on jax 0.10.2).
"""
import jax
import jax.numpy as jnp


def loglike(betas, x, positive):
    if positive:  # expect: traced-control-flow
        betas = jax.nn.softplus(betas)
    return jnp.sum(betas * x)


loglike_and_grad = jax.jit(jax.value_and_grad(loglike, argnums=0), static_argnames=["x"])


def fit(betas, positive):
    return loglike_and_grad(betas, 2.0, positive)


if __name__ == "__main__":
    print(fit(jnp.ones(3), True))
