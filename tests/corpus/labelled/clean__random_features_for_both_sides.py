"""Random Fourier features in the ott style: a kernel's feature map must be the same for both point clouds
(k(x, y) ~ phi(x) . phi(y)), so the same key builds the features of x and of y on purpose."""
import jax
import jax.numpy as jnp


def random_features(key, points, rank, scale):
    key_w, key_b = jax.random.split(key)
    w = jax.random.normal(key_w, (points.shape[-1], rank)) / scale
    b = jax.random.uniform(key_b, (rank,), maxval=2 * jnp.pi)
    return jnp.sqrt(2.0 / rank) * jnp.cos(points @ w + b)


def low_rank_kernel(rng, x, y, rank=64, scale=1.0):
    k1 = random_features(rng, x, rank, scale)
    k2 = random_features(rng, y, rank, scale)
    return k1 @ k2.T


if __name__ == "__main__":
    x = jnp.ones((3, 2))
    print(low_rank_kernel(jax.random.PRNGKey(0), x, x).shape)
