"""The same helper with a jitted caller that passes `eager=True`: `x[x > 0]` is traced and raises
NonConcreteBooleanIndexError."""
import jax
import jax.numpy as jnp


def positive(x, eager=True):
    if eager:
        return x[x > 0]  # expect: boolean-indexing-in-jit
    return jnp.where(x > 0, x, 0.0)


@jax.jit
def positive_sum(x):
    return jnp.sum(positive(x, eager=True))


if __name__ == "__main__":
    positive_sum(jnp.array([-1.0, 2.0, 3.0]))
