"""Sharp Bits / "Control flow": `bool()` of a traced value in a rematerialised block (`jax.checkpoint`).

`checkpoint` traces its function to a jaxpr with abstract values, so `bool(...)` raises
TracerBoolConversionError even without `jit`.
"""
import jax
import jax.numpy as jnp


@jax.checkpoint
def block(x):
    finite = bool(jnp.isfinite(x).all())  # expect: traced-control-flow
    y = jnp.tanh(x) if finite else jnp.zeros_like(x)
    return y * 2.0


if __name__ == "__main__":
    print(block(jnp.ones(3)))
