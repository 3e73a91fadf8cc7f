"""JAX PRNG docs: splitting the same parent key in every iteration yields the same children every time.
"""
import jax
import jax.numpy as jnp


def noisy_batches(key, x, n_batches=3):
    out = []
    for _ in range(n_batches):
        k_noise, k_drop = jax.random.split(key)  # expect: prng-key-reuse
        noise = jax.random.normal(k_noise, x.shape)
        keep = jax.random.bernoulli(k_drop, 0.5, x.shape)
        out.append(jnp.where(keep, x + noise, 0.0))
    return out


if __name__ == "__main__":
    batches = noisy_batches(jax.random.PRNGKey(0), jnp.ones(4))
    print("SHARP BIT: every batch identical:", all(bool(jnp.all(b == batches[0])) for b in batches))
