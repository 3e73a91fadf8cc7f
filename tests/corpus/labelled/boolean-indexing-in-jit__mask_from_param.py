"""Sharp Bits / "Dynamic shapes": `x[x > 0]` inside `@jax.jit`.

The result's size depends on the values: NonConcreteBooleanIndexError. Use `jnp.where(x > 0, x, 0)`.
"""
import jax
import jax.numpy as jnp


@jax.jit
def positive_mean(x):
    positives = x[x > 0]  # expect: boolean-indexing-in-jit
    return positives.mean()


if __name__ == "__main__":
    print(positive_mean(jnp.array([-1.0, 2.0, 3.0])))
