"""Sharp Bits / "Control flow": a Python `if` on per-example losses computed by `jax.vmap` under jit.

`jax.vmap(f)(...)` called inside the jitted function returns traced values; testing their maximum
with `if` raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def example_loss(w, x, y):
    return (x @ w - y) ** 2


@jax.jit
def robust_step(w, xs, ys):
    losses = jax.vmap(example_loss, in_axes=(None, 0, 0))(w, xs, ys)
    if losses.max() > 5.0:  # expect: traced-control-flow
        losses = jnp.minimum(losses, 5.0)
    return losses.mean()


if __name__ == "__main__":
    print(robust_step(jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4)))
