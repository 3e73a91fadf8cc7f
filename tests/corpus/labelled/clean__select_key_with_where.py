"""Choosing between two keys with `jnp.where`, as neural-tangents does when x1 and x2 coincide: selecting a key
draws nothing, so the fold_in derivation and the key itself are not two draws."""
import jax
import jax.numpy as jnp


def second_key(key1, key2, same_inputs):
    new_key = jnp.where(jnp.all(key1 == key2), jax.random.fold_in(key2, 1), key2)
    return jnp.where(same_inputs, key1, new_key)


if __name__ == "__main__":
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    print(second_key(k1, k2, False))
