"""A scaling helper that reads a module-level setting only on its eager path: the jitted caller passes
`use_setting=False`, a literal, so the global is never read under the trace and `set_scale` changes nothing a
compiled function baked in."""
import jax

SCALE = 1.0


def set_scale(value):
    global SCALE
    SCALE = value


def scaled(x, factor, use_setting):
    if use_setting:
        return x * SCALE
    return x * factor


@jax.jit
def step(x, factor):
    return scaled(x, factor, use_setting=False)


if __name__ == "__main__":
    import jax.numpy as jnp

    print(step(jnp.ones(2), 2.0))
    set_scale(3.0)
    print(step(jnp.ones(2), 2.0), scaled(jnp.ones(2), 0.0, use_setting=True))
