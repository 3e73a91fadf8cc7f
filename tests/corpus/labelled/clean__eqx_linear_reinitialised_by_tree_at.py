"""Equinox's re-initialisation idiom: a helper replaces both arrays of an `eqx.nn.Linear` with `eqx.tree_at`,
drawing the new weight from the key the layer was built with. The numbers the constructor drew are never read,
so the one key gives one set of numbers that is used.
"""
import equinox as eqx
import jax
import jax.numpy as jnp


def init_linear(linear, key, std=0.02):
    weight = std * jax.random.truncated_normal(key, -2.0, 2.0, linear.weight.shape, linear.weight.dtype)
    linear = eqx.tree_at(lambda m: m.weight, linear, weight)
    if linear.bias is not None:
        linear = eqx.tree_at(lambda m: m.bias, linear, jnp.zeros_like(linear.bias))
    return linear


class Head(eqx.Module):
    proj: eqx.nn.Linear

    def __init__(self, dim, out, key):
        self.proj = eqx.nn.Linear(dim, out, key=key)
        self.proj = init_linear(self.proj, key)

    def __call__(self, x):
        return self.proj(x)


if __name__ == "__main__":
    head = Head(8, 4, jax.random.key(0))
    print(head(jnp.ones(8)).shape, float(jnp.abs(head.proj.bias).max()))
