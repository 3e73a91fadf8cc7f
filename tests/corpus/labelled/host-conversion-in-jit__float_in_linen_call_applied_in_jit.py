"""A linen module normalises its input by `float(jnp.std(x))` in `__call__`, applied inside a jitted function (recall23).

`float()` on a traced value raises ConcretizationTypeError.
"""
import flax.linen as nn
import jax
import jax.numpy as jnp


class ScaleNorm(nn.Module):
    @nn.compact
    def __call__(self, x):
        scale = float(jnp.std(x)) + 1e-6  # expect: host-conversion-in-jit
        return nn.Dense(2)(x / scale)


model = ScaleNorm()


@jax.jit
def predict(variables, x):
    return model.apply(variables, x)


if __name__ == "__main__":
    x = jnp.arange(6.0).reshape(2, 3)
    variables = model.init(jax.random.PRNGKey(0), x)
    print(predict(variables, x))
