"""A key generator whose class lives in a package the analysis cannot read (jax-flash-attn2's tests take
easydel's GenerateRNG, which is neither in the project nor installed): `source.rng` may be a property that splits
a fresh key on every read, as it is here, so two reads are not known to be one key.

The package is stood in for at run time only (its source is a string, as unseen as an absent package).
"""
import jax
import jax.numpy as jnp


def make_inputs(batch, dim):
    from keysource_ext import KeySource

    source = KeySource(seed=0)
    q = jax.random.normal(source.rng, (batch, dim))
    k = jax.random.normal(source.rng, (batch, dim))
    return q, k


EXT = """
import jax
class KeySource:
    def __init__(self, seed=0):
        self._state = jax.random.PRNGKey(seed)
    @property
    def rng(self):
        self._state, fresh = jax.random.split(self._state)
        return fresh
"""

if __name__ == "__main__":
    import sys
    import types

    sys.modules["keysource_ext"] = module = types.ModuleType("keysource_ext")
    exec(EXT, module.__dict__)
    q, k = make_inputs(2, 4)
    print("query differs from key:", not bool(jnp.all(q == k)))
