"""The bug twin of `clean__nan_check_off_in_traced_callers`: the jitted step leaves `check` at its default `True`,
so the traced helper runs `if jnp.any(jnp.isnan(g)):` on a tracer: TracerBoolConversionError. Use
`checkify`/`jnp.where`, or pass `check=False` from traced code.
"""
import jax
import jax.numpy as jnp


def clipped_update(w, g, *, check=True):
    if check:
        if jnp.any(jnp.isnan(g)):  # expect: traced-control-flow
            raise ValueError("NaN in the gradient")
    return w - 0.1 * jnp.clip(g, -1.0, 1.0)


@jax.jit
def step(w, g):
    return clipped_update(w, g)


if __name__ == "__main__":
    w, g = jnp.ones(3), jnp.array([0.5, 2.0, -3.0])
    print(step(w, g))
