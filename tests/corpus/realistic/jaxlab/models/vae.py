"""A variational auto-encoder for the blob / image data (MLP encoder and decoder, Gaussian latent).

Every stochastic quantity gets its own key: the ELBO splits its key once per Monte-Carlo sample.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp

from jaxlab.nn import layers

LOG_2PI = 1.8378770664093453


def init(key, in_dim: int, hidden: int, latent: int):
    k_enc, k_mu, k_logvar, k_dec1, k_dec2 = jax.random.split(key, 5)
    return {
        "enc": layers.init_dense(k_enc, in_dim, hidden),
        "mu": layers.init_dense(k_mu, hidden, latent),
        "logvar": layers.init_dense(k_logvar, hidden, latent),
        "dec1": layers.init_dense(k_dec1, latent, hidden),
        "dec2": layers.init_dense(k_dec2, hidden, in_dim),
    }


def encode(params, x):
    h = jax.nn.gelu(layers.dense(params["enc"], x))
    return layers.dense(params["mu"], h), layers.dense(params["logvar"], h)


def decode(params, z):
    h = jax.nn.gelu(layers.dense(params["dec1"], z))
    return layers.dense(params["dec2"], h)


def reparameterize(key, mu, logvar):
    eps = jax.random.normal(key, mu.shape)
    return mu + jnp.exp(0.5 * logvar) * eps


def gaussian_log_likelihood(x, mean, log_sigma: float = 0.0):
    return -0.5 * jnp.sum(LOG_2PI + 2 * log_sigma + (x - mean) ** 2 / jnp.exp(2 * log_sigma), axis=-1)


def kl_to_standard_normal(mu, logvar):
    return 0.5 * jnp.sum(jnp.exp(logvar) + mu ** 2 - 1.0 - logvar, axis=-1)


def elbo(params, x, key, num_samples: int = 1):
    mu, logvar = encode(params, x)
    keys = jax.random.split(key, num_samples)

    def one_sample(k):
        z = reparameterize(k, mu, logvar)
        return gaussian_log_likelihood(x, decode(params, z))

    recon = jnp.mean(jax.vmap(one_sample)(keys), axis=0)
    return jnp.mean(recon - kl_to_standard_normal(mu, logvar))


@partial(jax.jit, static_argnames=("num_samples", "learning_rate"))
def train_step(params, x, key, num_samples: int = 1, learning_rate: float = 1e-3):
    loss, grads = jax.value_and_grad(lambda p: -elbo(p, x, key, num_samples))(params)
    params = jax.tree_util.tree_map(lambda p, g: p - learning_rate * g, params, grads)
    return params, loss


def sample(params, key, n: int, latent: int):
    z = jax.random.normal(key, (n, latent))
    return decode(params, z)


def interpolate(params, x_a, x_b, steps: int = 8):
    mu_a, _ = encode(params, x_a)
    mu_b, _ = encode(params, x_b)
    alphas = jnp.linspace(0.0, 1.0, steps)[:, None]
    return decode(params, (1 - alphas) * mu_a + alphas * mu_b)


def fit(x, hidden: int = 32, latent: int = 4, steps: int = 20, seed: int = 0):
    key = jax.random.key(seed)
    key, init_key = jax.random.split(key)
    params = init(init_key, x.shape[-1], hidden, latent)
    losses = []
    for _ in range(steps):
        key, step_key = jax.random.split(key)
        params, loss = train_step(params, x, step_key, num_samples=2)
        losses.append(float(loss))
    return params, losses
