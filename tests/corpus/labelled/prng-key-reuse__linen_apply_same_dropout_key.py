"""Flax linen: a training loop hands the same `rngs={"dropout": key}` to `model.apply` on every step. Linen gives
that key to every `make_rng("dropout")` of the run, so every step drops the same units. Needs flax installed.
"""
import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
        x = nn.relu(nn.Dense(32)(x))
        return nn.Dropout(0.5, deterministic=not train)(x)


def train(steps: int):
    model = Net()
    params_key, dropout_key = jax.random.split(jax.random.PRNGKey(0))
    x = jnp.ones((2, 8))
    variables = model.init(params_key, x, train=False)
    outs = []
    for _ in range(steps):
        outs.append(model.apply(variables, x, rngs={"dropout": dropout_key}))  # expect: prng-key-reuse
    return outs


if __name__ == "__main__":
    outs = train(3)
    if all(bool(jnp.array_equal(o, outs[0])) for o in outs):
        print("SHARP BIT: 3 steps, one dropout mask")
