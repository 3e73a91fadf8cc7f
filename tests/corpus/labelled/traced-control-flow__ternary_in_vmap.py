"""Sharp Bits / "Control flow": a conditional expression in a per-example function mapped with `jax.vmap`.

Each example is a batched tracer under `vmap`; `a if c else b` needs `bool(c)`: TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def hinge(score, label):
    margin = 1.0 - label * score
    return margin if margin > 0 else 0.0  # expect: traced-control-flow


batched_hinge = jax.vmap(hinge)

if __name__ == "__main__":
    print(batched_hinge(jnp.array([0.5, 2.0, -1.0]), jnp.array([1.0, 1.0, 1.0])))
