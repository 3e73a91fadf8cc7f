"""A notebook exported as a script (`# %%` cells): the first cell makes `key`, and each later cell splits off
its own subkey before sampling, so the weights and the inputs are different draws.
"""
# %%
import jax
import jax.numpy as jnp

key = jax.random.key(42)

# %%
key, w_key = jax.random.split(key)
W = jax.random.normal(w_key, (5, 5))

# %%
key, x_key = jax.random.split(key)
X = jax.random.normal(x_key, (5, 5))

# %%
print((X @ W).mean())
