"""A pytree class with an `ndim()` method (the number of free parameters, a Python int): branching on it inside
jit is ordinary Python, unlike a traced array's values."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_pytree_node_class
class Field:
    def __init__(self, leaves):
        self.leaves = leaves

    def ndim(self):
        return sum(np.size(x) for x in self.leaves)

    def tree_flatten(self):
        return self.leaves, None

    @classmethod
    def tree_unflatten(cls, aux, leaves):
        return cls(list(leaves))


@jax.jit
def direction(key, u0):
    ndim = u0.ndim()
    if ndim == 1:
        return jnp.ones(1)
    return jax.random.normal(key, (ndim,))


if __name__ == "__main__":
    print(direction(jax.random.PRNGKey(0), Field([jnp.zeros(2), jnp.zeros(3)])))
