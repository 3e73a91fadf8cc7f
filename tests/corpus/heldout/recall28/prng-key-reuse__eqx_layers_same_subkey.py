"""Equinox: an MLP's hidden layers built by hand from `k1, k2 = jax.random.split(key)`, with `k1` typed twice:
both hidden layers start with the same weights, so they stay symmetric.
"""
import equinox as eqx
import jax
import jax.numpy as jnp


class Net(eqx.Module):
    layers: list

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.layers = [
            eqx.nn.Linear(8, 8, key=k1),
            eqx.nn.Linear(8, 8, key=k1),  # expect: prng-key-reuse
        ]

    def __call__(self, x):
        for layer in self.layers:
            x = jax.nn.relu(layer(x))
        return x


if __name__ == "__main__":
    net = Net(jax.random.key(0))
    if bool(jnp.all(net.layers[0].weight == net.layers[1].weight)):
        print("SHARP BIT: both hidden layers have identical weights")
