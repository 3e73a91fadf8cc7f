"""The bug twin of clean__key_generator_of_unseen_package.py: the object's class is as unseen, but this function
stores the key on it (`holder.rng = ...`) before both reads, so both read that one key: the attention inputs
are identical (query equal to key).

The package is stood in for at run time only (its source is a string, as unseen as an absent package).
"""
import jax
import jax.numpy as jnp


def make_inputs(batch, dim):
    from keysource_ext import KeyHolder

    holder = KeyHolder()
    holder.rng = jax.random.PRNGKey(0)
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
    q, k = make_inputs(2, 4)
    print("SHARP BIT: query equals key:", bool(jnp.all(q == k)))
