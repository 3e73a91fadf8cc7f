"""Environment keys in the navix/PureJAX-RL style, made twice from one key: a `lax.scan` that splits the key
per step, and then `split(key, num_envs)`; both sets are used. Under JAX's default (partitionable) threefry the
scan's first key, `split(key)[1]`, is also `split(key, n)[1]`, so two environments start from the same key.
"""
import jax
import jax.numpy as jnp


def env_keys(rng, num_envs):
    _, scanned = jax.lax.scan(lambda k, _: tuple(jax.random.split(k)), rng, None, num_envs)
    direct = jax.random.split(rng, num_envs)  # expect: prng-key-reuse
    return jnp.concatenate([scanned, direct])


if __name__ == "__main__":
    keys = env_keys(jax.random.PRNGKey(0), 4)
    data = jax.random.key_data(keys) if jnp.issubdtype(keys.dtype, jax.dtypes.prng_key) else keys
    distinct = int(jnp.unique(data, axis=0).shape[0])
    print(f"SHARP BIT: {keys.shape[0]} environment keys, only {distinct} distinct")
