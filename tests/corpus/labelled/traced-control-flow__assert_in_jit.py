"""Sharp Bits / "Control flow": an `assert` validating array values inside a jitted function.

The assertion needs a concrete bool; under jit the condition is a tracer: TracerBoolConversionError
(`jax.experimental.checkify` is the traced alternative).
"""
import jax
import jax.numpy as jnp


@jax.jit
def normalise(probs):
    assert jnp.all(probs >= 0), "probabilities must be non-negative"  # expect: traced-control-flow
    return probs / probs.sum()


if __name__ == "__main__":
    print(normalise(jnp.array([1.0, 3.0])))
