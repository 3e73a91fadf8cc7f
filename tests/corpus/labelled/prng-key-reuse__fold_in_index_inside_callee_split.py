"""A fixture draws its bases with a helper that splits the key in three, then one extra key per basis with
`fold_in(key, i)` for i = 0, 1, 2: under JAX's default threefry `fold_in(k, i)` equals `split(k, 3)[i]`, so each
extra draw repeats its basis's numbers.
"""
import jax
import jax.numpy as jnp


def bases(key):
    k = jax.random.split(key, 3)
    return {name: jax.random.normal(k[i], (4,)) for i, name in enumerate(("dense", "segmented", "offset"))}


def templates(key):
    out = {}
    for i, (name, basis) in enumerate(bases(key).items()):
        out[name] = basis, jax.random.normal(jax.random.fold_in(key, i), (4,))  # expect: prng-key-reuse
    return out


if __name__ == "__main__":
    pairs = list(templates(jax.random.key(0)).values())
    if all(jnp.allclose(a, b) for a, b in pairs):
        print("SHARP BIT: every extra draw equals its basis")
