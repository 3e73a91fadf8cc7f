"""The same helper with the jitted caller passing `use_setting=True`: the global is read at trace time and baked
in; after `set_scale(3.0)` the compiled `step` still multiplies by 1.0."""
import jax

SCALE = 1.0


def set_scale(value):
    global SCALE
    SCALE = value


def scaled(x, factor, use_setting):
    if use_setting:
        return x * SCALE  # expect: global-captured-in-jit
    return x * factor


@jax.jit
def step(x, factor):
    return scaled(x, factor, use_setting=True)


if __name__ == "__main__":
    import jax.numpy as jnp

    print(step(jnp.ones(2), 2.0))
    set_scale(3.0)
    print(step(jnp.ones(2), 2.0))  # still [1. 1.]: SCALE was baked in
