"""Evaluation with `train=False` passes one dropout key on every batch: dropout is off, nothing is drawn.
Needs flax."""
import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
        return nn.Dropout(0.5, deterministic=not train)(nn.Dense(16)(x))


def evaluate(batches):
    model = Net()
    key = jax.random.PRNGKey(0)
    variables = model.init(key, batches[0], train=False)
    return [model.apply(variables, b, train=False, rngs={"dropout": key}) for b in batches]


if __name__ == "__main__":
    print(len(evaluate([jnp.ones((2, 4))] * 3)))
