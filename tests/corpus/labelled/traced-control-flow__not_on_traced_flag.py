"""Sharp Bits / "Control flow": `not` on a traced boolean argument in a jitted function.

`done` arrives as an array (a tracer under jit); `not done` asks for its truth value:
TracerBoolConversionError. `jnp.logical_not(done)` or `static_argnames=("done",)` work.
"""
import jax
import jax.numpy as jnp


@jax.jit
def maybe_reset(state, done):
    keep = not done  # expect: traced-control-flow
    return state * keep


if __name__ == "__main__":
    print(maybe_reset(jnp.ones(3), jnp.array(False)))
