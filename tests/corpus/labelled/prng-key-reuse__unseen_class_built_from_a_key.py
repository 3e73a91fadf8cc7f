"""The second bug twin of clean__key_generator_of_unseen_package.py: the object of an unseen class is built
from the caller's key, so a read of `holder.rng` may well be that key handed back, and here it is: the attention
inputs are identical (query equal to key).

The package is stood in for at run time only (its source is a string, as unseen as an absent package).
"""
import jax
import jax.numpy as jnp


def make_inputs(batch, dim, key):
    from keysource_ext import KeyHolder

    holder = KeyHolder(key)
    q = jax.random.normal(holder.rng, (batch, dim))
    k = jax.random.normal(holder.rng, (batch, dim))  # expect: prng-key-reuse
    return q, k


EXT = """
class KeyHolder:
    def __init__(self, key=None):
        self.rng = key
"""

if __name__ == "__main__":
    import sys
    import types

    sys.modules["keysource_ext"] = module = types.ModuleType("keysource_ext")
    exec(EXT, module.__dict__)
    q, k = make_inputs(2, 4, jax.random.PRNGKey(0))
    print("SHARP BIT: query equals key:", bool(jnp.all(q == k)))
