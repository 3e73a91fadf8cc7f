"""Twin: the loop splits a fresh dropout key for each `model.apply`; evaluation (`train=False`) reuses the key
it never draws from. Needs flax installed."""
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
        dropout_key, step_key = jax.random.split(dropout_key)
        outs.append(model.apply(variables, x, rngs={"dropout": step_key}))
    evals = [model.apply(variables, x, train=False, rngs={"dropout": params_key}) for _ in range(2)]
    return outs, evals


if __name__ == "__main__":
    print(len(train(3)[0]))
