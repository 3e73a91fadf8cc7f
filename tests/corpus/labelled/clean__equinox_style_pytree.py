"""Equinox-style code without Equinox: a dataclass registered as a pytree, methods called under jit.
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
@dataclass
class Linear:
    weight: jax.Array
    bias: jax.Array

    @classmethod
    def create(cls, key, n_in, n_out):
        return cls(jax.random.normal(key, (n_out, n_in)) / jnp.sqrt(n_in), jnp.zeros(n_out))

    def __call__(self, x):
        return self.weight @ x + self.bias

    def tree_flatten(self):
        return (self.weight, self.bias), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


@jax.jit
def loss(model, xs, ys):
    preds = jax.vmap(model)(xs)
    return jnp.mean((preds - ys) ** 2)


@jax.jit
def sgd(model, xs, ys, lr=0.1):
    grads = jax.grad(loss)(model, xs, ys)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, model, grads)


if __name__ == "__main__":
    model = Linear.create(jax.random.key(0), 3, 2)
    print(loss(sgd(model, jnp.ones((4, 3)), jnp.zeros((4, 2))), jnp.ones((4, 3)), jnp.zeros((4, 2))))
