"""Two amounts drawn from one key are kept under tests of two different values (`kind == 0` and `level == 1`):
both can hold at once, and then the two amounts are the same number (one key, one range): the clean twin's
tests of one value against different constants cannot both hold.
"""
import jax
import jax.numpy as jnp


@jax.jit
def rewards(rng, kind, level):
    bonus = jax.random.randint(rng, shape=(), minval=1, maxval=4) * (kind == 0)
    extra = jax.random.randint(rng, shape=(), minval=1, maxval=4) * (level == 1)  # expect: prng-key-reuse
    return jnp.stack([bonus, extra])


if __name__ == "__main__":
    got = rewards(jax.random.key(0), 0, 1)
    if int(got[0]) == int(got[1]):
        print("SHARP BIT: both amounts kept, and equal:", got)
