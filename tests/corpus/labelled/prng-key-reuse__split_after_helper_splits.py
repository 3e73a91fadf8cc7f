"""JAX PRNG docs: a helper that splits the key it is given has consumed it; splitting the same key
again in the caller hands out the very subkeys the helper already used.
"""
import jax
import jax.numpy as jnp


def sample_batch(key, data, batch_size):
    perm_key, noise_key = jax.random.split(key)
    idx = jax.random.choice(perm_key, data.shape[0], (batch_size,), replace=False)
    return data[idx] + 0.01 * jax.random.normal(noise_key, (batch_size,) + data.shape[1:])


def epoch(key, data, params):
    batch = sample_batch(key, data, 4)
    key, dropout_key = jax.random.split(key)  # expect: prng-key-reuse
    mask = jax.random.bernoulli(dropout_key, 0.5, params.shape)
    return key, jnp.mean(batch @ (params * mask)), dropout_key


if __name__ == "__main__":
    data, params = jnp.arange(16.0).reshape(8, 2), jnp.ones(2)
    _, loss, dropout_key = epoch(jax.random.PRNGKey(0), data, params)
    helper_noise_key = jax.random.split(jax.random.PRNGKey(0))[1]
    if bool(jnp.all(dropout_key == helper_noise_key)):
        print("SHARP BIT: the dropout key is the helper's noise key")
