"""Twin of host-conversion-in-jit__float_in_linen_call_applied_in_jit: a linen module's `__call__` runs traced under
`jax.jit(model.apply)` and inside a jitted step, but what it converts and branches on is Python: the module's own
attributes (`self.eps`, `self.deterministic`) and a `train` flag passed as a Python bool by keyword (static for
the jitted apply). Only its input `x` is traced, and it stays an array.
"""
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp


class ScaleNorm(nn.Module):
    eps: float = 1e-6
    deterministic: bool = True

    @nn.compact
    def __call__(self, x, train: bool = False):
        scale = jnp.std(x) + float(self.eps)
        y = nn.Dense(2)(x / scale)
        if train and not self.deterministic:
            y = y * 0.5
        return y


model = ScaleNorm()
apply_fn = jax.jit(model.apply, static_argnames="train")


@jax.jit
def predict(variables, x):
    return model.apply(variables, x, train=False)


if __name__ == "__main__":
    x = jnp.arange(6.0).reshape(2, 3)
    variables = model.init(jax.random.PRNGKey(0), x)
    print(predict(variables, x).shape, apply_fn(variables, x, train=True).shape)
