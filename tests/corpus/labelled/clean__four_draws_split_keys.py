"""JAX PRNG docs: four draws, each from its own key of one `split(key, 4)`.

The keys bound by unpacking the split are distinct, so every draw is independent.
"""
import jax


def init_layer(key, n):
    k_w, k_b, k_scale, k_mask = jax.random.split(key, 4)
    w = jax.random.normal(k_w, (n, n))
    b = jax.random.uniform(k_b, (n,))
    scale = jax.random.normal(k_scale, (n, n))
    mask = jax.random.bernoulli(k_mask, 0.5, (n,))
    return w, b, scale, mask


if __name__ == "__main__":
    print(init_layer(jax.random.PRNGKey(0), 4))
