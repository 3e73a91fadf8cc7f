"""A KV cache kept in a module-level dict of JAX arrays: the decode loop stores each new row by rebinding the
dict entry to `CACHE["k"].at[t].set(k_t)`.
"""
import jax.numpy as jnp

CACHE = {"k": jnp.zeros((4, 8)), "v": jnp.zeros((4, 8))}


def append_kv(t, k_t, v_t):
    CACHE["k"] = CACHE["k"].at[t].set(k_t)
    CACHE["v"] = CACHE["v"].at[t].set(v_t)


def decode(n):
    for t in range(n):
        append_kv(t, jnp.full(8, float(t)), jnp.full(8, -float(t)))
    return CACHE["k"].sum()


if __name__ == "__main__":
    print(decode(3))
