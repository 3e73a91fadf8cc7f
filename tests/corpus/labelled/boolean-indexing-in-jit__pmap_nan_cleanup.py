"""Sharp Bits: `.at[jnp.isnan(x)].set(0.0)` inside a `jax.pmap`ped function (call form).
"""
import jax
import jax.numpy as jnp


def clean_shard(x):
    x = x.at[jnp.isnan(x)].set(0.0)  # expect: boolean-indexing-in-jit
    return x / jnp.maximum(jnp.abs(x).max(), 1.0)


clean_all = jax.pmap(clean_shard)


if __name__ == "__main__":
    xs = jnp.ones((jax.local_device_count(), 4)).at[:, 1].set(jnp.nan)
    print(clean_all(xs))
