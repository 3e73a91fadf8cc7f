"""A test fixture draws its bases with a helper that splits the key in three, then one extra key per basis with
`fold_in(key, 10 + i)`: `fold_in(k, i)` equals `split(k, n)[i]` only for `i < n`, so indices from 10 up are keys of
their own and no draw repeats another (checked below).
"""
import jax
import jax.numpy as jnp


def bases(key):
    k = jax.random.split(key, 3)
    return {name: jax.random.normal(k[i], (4,)) for i, name in enumerate(("dense", "segmented", "offset"))}


def templates(key):
    out = {}
    for i, (name, basis) in enumerate(bases(key).items()):
        out[name] = basis, jax.random.normal(jax.random.fold_in(key, 10 + i), (4,))
    return out


if __name__ == "__main__":
    key = jax.random.key(0)
    drawn = [a for pair in templates(key).values() for a in pair]
    assert all(not jnp.allclose(a, b) for i, a in enumerate(drawn) for b in drawn[i + 1:])
