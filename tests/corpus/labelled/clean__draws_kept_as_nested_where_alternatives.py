"""A mixture drawn as alternatives (jax-snana's asymmetric Gaussian): the left tail, the flat core and the right
tail are each drawn from `key2`, and a component uniform from `key1` picks one of them per element through nested
`jnp.where`. Every output element keeps one of the three draws, so the reuse of `key2` never meets itself."""
import jax
import jax.numpy as jnp
from jax.scipy.stats import norm


def sample_bigauss(key, peak, sigma_lo, sigma_hi, width):
    key1, key2 = jax.random.split(key)
    u_comp = jax.random.uniform(key1, (4,))
    u_left = jax.random.uniform(key2, (4,), minval=0.0, maxval=0.5)
    val_left = peak - sigma_lo * jnp.abs(norm.ppf(u_left))
    val_flat = jax.random.uniform(key2, (4,), minval=peak, maxval=peak + width)
    u_right = jax.random.uniform(key2, (4,), minval=0.5, maxval=1.0)
    val_right = peak + width + sigma_hi * norm.ppf(u_right)
    return jnp.where(u_comp < 0.3, val_left, jnp.where(u_comp < 0.6, val_flat, val_right))


if __name__ == "__main__":
    print(sample_bigauss(jax.random.PRNGKey(0), 1.0, 0.5, 0.7, 0.2))
