"""Sharp Bits / "Dynamic shapes": the traced alternatives to boolean masks: `jnp.where`, mask arithmetic.
"""
import jax
import jax.numpy as jnp


@jax.jit
def masked_mean(x, mask):
    return jnp.sum(jnp.where(mask, x, 0.0)) / jnp.maximum(jnp.sum(mask), 1)


@jax.jit
def relu_like(x):
    return jnp.where(x > 0, x, 0.01 * x)


@jax.jit
def token_loss(losses, labels):
    valid = (labels != -100).astype(losses.dtype)
    return jnp.sum(losses * valid) / jnp.maximum(valid.sum(), 1.0)


if __name__ == "__main__":
    x = jnp.array([-1.0, 2.0, 3.0])
    print(masked_mean(x, x > 0), relu_like(x), token_loss(x, jnp.array([1, -100, 2])))
