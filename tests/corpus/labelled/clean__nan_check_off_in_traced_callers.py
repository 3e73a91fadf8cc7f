"""An update helper that checks its gradient for NaNs with a Python `if` when it runs eagerly: the jitted step
passes `check=False`, a literal, so the check is never traced (round 21 of issue 22, the literal-flag class).
Run eagerly with the default, the check sees concrete values and passes.
"""
import jax
import jax.numpy as jnp


def clipped_update(w, g, *, check=True):
    if check:
        if jnp.any(jnp.isnan(g)):
            raise ValueError("NaN in the gradient")
    return w - 0.1 * jnp.clip(g, -1.0, 1.0)


@jax.jit
def step(w, g):
    return clipped_update(w, g, check=False)


if __name__ == "__main__":
    w, g = jnp.ones(3), jnp.array([0.5, 2.0, -3.0])
    print(step(w, g))
    print(clipped_update(w, g))
