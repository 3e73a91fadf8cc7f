"""A notebook exported as a script (`# %%` cells): the first cell makes `key`, a later cell samples the weights
from it, and a cell after that samples the inputs from the same `key`, so inputs and weights are the same draws.
"""
# %%
import jax
import jax.numpy as jnp

key = jax.random.key(42)

# %%
W = jax.random.normal(key, (5, 5))

# %%
X = jax.random.normal(key, (5, 5))  # expect: prng-key-reuse

# %%
if bool(jnp.all(W == X)):
    print("SHARP BIT: the inputs are the weights")
print((X @ W).mean())
