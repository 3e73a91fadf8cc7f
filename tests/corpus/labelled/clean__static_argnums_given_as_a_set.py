"""`static_argnums` given as a set (round 36's rkhs: `@partial(jax.jit, static_argnums={0, 3})` under
`@classmethod`): any collection of positions works, and position 3 of the function jit wraps (`cls` first) is `n`,
a Python int, so `jax.random.normal(key, (n, 2))` has a static shape.
"""
from functools import partial

import jax


class Radius:
    @classmethod
    @partial(jax.jit, static_argnums={0, 3})
    def sample(cls, scale, key, n):
        return scale * jax.random.normal(key, (n, 2))


if __name__ == "__main__":
    print(Radius.sample(1.0, jax.random.key(0), 4).shape)
