"""A model initialised only to give a checkpoint restore its tree (diffusionjax's `params = MLP().init(rng, ...)`
then `params = serialization.from_bytes(params, output)`): the restore keeps the tree's structure and replaces every
number, so nothing drawn from `rng` survives, and splitting `rng` for sampling afterwards repeats nothing. flax's
`from_bytes(target, data)` is written out below (a state dict of arrays restored into the target's structure)."""
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
    params = init(rng)
    params = from_bytes(params, saved)
    rng, sample_rng = jax.random.split(rng)
    return params["w"] + jax.random.normal(sample_rng, (3,))


if __name__ == "__main__":
    print(main())
