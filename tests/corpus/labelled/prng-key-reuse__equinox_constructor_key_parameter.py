"""An Equinox MLP built by hand: both `eqx.nn.Linear` layers are initialised with the same key.

Two layers of the same shape get identical weights.
"""
import equinox as eqx
import jax
import jax.numpy as jnp


class TwoLayer(eqx.Module):
    l1: eqx.nn.Linear
    l2: eqx.nn.Linear

    def __init__(self, width, key):
        self.l1 = eqx.nn.Linear(width, width, key=key)
        self.l2 = eqx.nn.Linear(width, width, key=key)  # expect: prng-key-reuse

    def __call__(self, x):
        return self.l2(jax.nn.relu(self.l1(x)))


if __name__ == "__main__":
    model = TwoLayer(4, jax.random.PRNGKey(0))
    print(model(jnp.ones(4)))
    if bool(jnp.all(model.l1.weight == model.l2.weight)):
        print("SHARP BIT: both layers have the same weights")
