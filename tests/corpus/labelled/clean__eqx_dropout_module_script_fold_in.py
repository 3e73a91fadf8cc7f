"""A training script calls an Equinox model with dropout, folding the epoch into the dropout key; evaluation
calls a second model whose dropout layer is built in inference mode (it draws nothing from the key)."""
import equinox as eqx
import jax
import jax.numpy as jnp


class Net(eqx.Module):
    lin: eqx.nn.Linear
    drop: eqx.nn.Dropout

    def __init__(self, key, inference=False):
        self.lin = eqx.nn.Linear(8, 8, key=key)
        self.drop = eqx.nn.Dropout(0.5, inference=inference)

    def __call__(self, x, *, key):
        return self.drop(jax.nn.relu(self.lin(x)), key=key)


model_key, drop_key = jax.random.split(jax.random.PRNGKey(0))
net = Net(model_key)
x = jnp.ones(8)
outs = []
for epoch in range(3):
    outs.append(net(x, key=jax.random.fold_in(drop_key, epoch)))
print(len({tuple(o.tolist()) for o in outs}), "different masks")
