"""A helper that keeps the positive entries with a boolean mask only when it runs eagerly: every jitted caller
passes `eager=False`, a literal, so `x[x > 0]` is never traced; under jit it zeroes the rest instead."""
import jax
import jax.numpy as jnp


def positive(x, eager=True):
    if eager:
        return x[x > 0]
    return jnp.where(x > 0, x, 0.0)


@jax.jit
def relu_sum(x):
    return jnp.sum(positive(x, eager=False))


@jax.jit
def relu_mean(x):
    return jnp.mean(positive(x, eager=False))


if __name__ == "__main__":
    x = jnp.array([-1.0, 2.0, 3.0])
    print(relu_sum(x), relu_mean(x), positive(x))
