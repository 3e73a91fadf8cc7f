"""A training script calls an Equinox model whose `__call__` hands its key to an `eqx.nn.Dropout` layer, with one
dropout key for every epoch: each epoch drops the same units.

`net` is built once at module level from a class of this module; its `__call__` passes `key=` on to the dropout
layer, which draws its mask from it (training mode: `inference` is not set).
"""
import equinox as eqx
import jax
import jax.numpy as jnp


class Net(eqx.Module):
    lin: eqx.nn.Linear
    drop: eqx.nn.Dropout

    def __init__(self, key):
        self.lin = eqx.nn.Linear(8, 8, key=key)
        self.drop = eqx.nn.Dropout(0.5)

    def __call__(self, x, *, key):
        return self.drop(jax.nn.relu(self.lin(x)), key=key)


model_key, drop_key = jax.random.split(jax.random.PRNGKey(0))
net = Net(model_key)
x = jnp.ones(8)
outs = []
for epoch in range(3):
    outs.append(net(x, key=drop_key))  # expect: prng-key-reuse
if all(bool(jnp.array_equal(outs[0], o)) for o in outs):
    print("SHARP BIT: every epoch drops the same units")
