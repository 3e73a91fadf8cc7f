"""Sharp Bits "Random numbers" under `jax.value_and_grad`: reparameterised noise drawn twice from one key.

The "two independent samples" of the ELBO estimator are identical, so the variance estimate is zero.
"""
import jax
import jax.numpy as jnp


def elbo(params, key):
    mu, log_sigma = params
    eps1 = jax.random.normal(key, mu.shape)
    eps2 = jax.random.normal(key, mu.shape)  # expect: prng-key-reuse
    z1 = mu + jnp.exp(log_sigma) * eps1
    z2 = mu + jnp.exp(log_sigma) * eps2
    return -0.5 * (jnp.sum(z1 ** 2) + jnp.sum(z2 ** 2))


value_and_grad = jax.value_and_grad(elbo)


if __name__ == "__main__":
    params = (jnp.zeros(3), jnp.zeros(3))
    jax.config.update("jax_debug_key_reuse", True)
    print(value_and_grad(params, jax.random.key(0)))
