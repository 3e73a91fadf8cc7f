"""Clean twin: the Equinox MLP splits its key for the two layers."""
import equinox as eqx
import jax
import jax.numpy as jnp


class TwoLayer(eqx.Module):
    l1: eqx.nn.Linear
    l2: eqx.nn.Linear

    def __init__(self, width, key):
        k1, k2 = jax.random.split(key)
        self.l1 = eqx.nn.Linear(width, width, key=k1)
        self.l2 = eqx.nn.Linear(width, width, key=k2)

    def __call__(self, x):
        return self.l2(jax.nn.relu(self.l1(x)))


if __name__ == "__main__":
    model = TwoLayer(4, jax.random.PRNGKey(0))
    print(model(jnp.ones(4)))
