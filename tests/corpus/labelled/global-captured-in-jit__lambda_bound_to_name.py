"""A lambda bound to a name and called inside a jitted function is traced with it (no callback around it).

`g = lambda v: scaled(v)` then `g(x)` runs `scaled` under `step`'s trace: `SCALE` is read once, at trace time,
so `set_scale(3.0)` after the first call changes nothing (run: 2.0 both times).
"""
import jax
import jax.numpy as jnp

SCALE = 2.0


def scaled(v):
    return v * SCALE  # expect: global-captured-in-jit


def set_scale(s):
    global SCALE
    SCALE = s


@jax.jit
def step(x):
    g = lambda v: scaled(v)
    return g(x)


if __name__ == "__main__":
    print(step(jnp.ones(())))
    set_scale(3.0)
    print(step(jnp.ones(())))
