"""Sharp Bits: "In-place updates" inside a loss given to `jax.grad` (call form).

Adding an L2 penalty to the bias slot with `+=` on a traced array raises TypeError.
"""
import jax
import jax.numpy as jnp


def loss(theta, x, y):
    pred = x @ theta
    residual = pred - y
    residual[0] += 0.1 * jnp.sum(theta ** 2)  # expect: in-place-update
    return jnp.mean(residual ** 2)


grad_fn = jax.grad(loss)


if __name__ == "__main__":
    x = jnp.ones((8, 3))
    y = jnp.zeros(8)
    print(grad_fn(jnp.ones(3), x, y))
