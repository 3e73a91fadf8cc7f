"""Sharp Bits / "Control flow": a module-level helper that branches on its input, called from a jitted step.

The helper runs under the caller's trace, so `jnp.any(...)` is a tracer there: TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def clip_gradient(g, max_norm=1.0):
    norm = jnp.linalg.norm(g)
    if jnp.any(norm > max_norm):  # expect: traced-control-flow
        g = g * (max_norm / norm)
    return g


@jax.jit
def sgd_step(w, g):
    return w - 0.1 * clip_gradient(g)


if __name__ == "__main__":
    print(sgd_step(jnp.ones(3), jnp.full(3, 5.0)))
