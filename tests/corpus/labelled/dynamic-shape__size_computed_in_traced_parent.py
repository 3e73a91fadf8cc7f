"""A scan length computed inside the jitted function and read by a nested step: it is a tracer there.

(Computed in an eager function that defines the traced one, the same value would be concrete.)
"""
import jax
import jax.numpy as jnp


@jax.jit
def rollout(x, n):
    steps = jnp.round(n / 2)

    def epoch(carry):
        return jax.lax.scan(lambda c, i: (c + i, None), carry, jnp.arange(steps))[0]  # expect: dynamic-shape

    return epoch(x)


if __name__ == "__main__":
    print(rollout(0.0, 10))
