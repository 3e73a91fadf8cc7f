"""The bug twin: the restored checkpoint is bound to a new name and the freshly drawn parameters are used too (as
an ensemble member), so splitting `rng` afterwards derives the sampling key from the bits that drew them."""
import jax
import jax.numpy as jnp
import numpy as np


def from_bytes(target, data):
    restored = {name: np.frombuffer(raw, dtype=np.float32) for name, raw in data.items()}
    return jax.tree.map(lambda t, v: jnp.asarray(v).reshape(t.shape), target, restored)


def init(rng):
    return {"w": jax.random.normal(rng, (3,))}


def main():
    rng = jax.random.PRNGKey(0)
    saved = {"w": np.arange(3, dtype=np.float32).tobytes()}
    fresh = init(rng)
    restored = from_bytes(fresh, saved)
    rng, sample_rng = jax.random.split(rng)  # expect: prng-key-reuse
    return fresh["w"] + restored["w"] + jax.random.normal(sample_rng, (3,))


if __name__ == "__main__":
    print(main())
