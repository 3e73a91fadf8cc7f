"""A jitted method branches in Python on the result of `jax.vmap(self.per_example)`: the result is traced,
so the `if` raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


class Robust:
    def per_example(self, w, x, y):
        return (x @ w - y) ** 2

    def loss(self, w, xs, ys):
        losses = jax.vmap(self.per_example, in_axes=(None, 0, 0))(w, xs, ys)
        if losses.max() > 10.0:  # expect: traced-control-flow
            return jnp.median(losses)
        return losses.mean()

    def evaluate(self, w, xs, ys):
        return jax.jit(self.loss)(w, xs, ys)


if __name__ == "__main__":
    Robust().evaluate(jnp.ones(3), jnp.ones((4, 3)), jnp.zeros(4))
