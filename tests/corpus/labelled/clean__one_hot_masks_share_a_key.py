"""A game step draws the loot of whichever ore was mined from one key: each amount is kept only where
`ore == k` for its own k, so at most one of them is non-zero and the shared bits never show in two results
(alem-env's loot, commented "the same rng as events are mutually exclusive"). Checked below for every ore.
"""
import jax
import jax.numpy as jnp


@jax.jit
def loot(rng, ore, looting):
    coal = jax.random.randint(rng, shape=(), minval=1, maxval=4) * (ore == 0) * looting
    iron = jax.random.randint(rng, shape=(), minval=1, maxval=3) * (ore == 1) * looting
    ruby = jax.random.randint(rng, shape=(), minval=1, maxval=2) * (ore == 2) * looting
    return jnp.stack([coal, iron, ruby])


if __name__ == "__main__":
    for ore in range(3):
        got = loot(jax.random.key(0), ore, True)
        assert int((got > 0).sum()) == 1, got
