"""Equinox: a module keeps its temperature as a Python float field. `eqx.filter_jit` treats non-array leaves as
static, so `if self.temperature > 1.0:` in `__call__` is decided at trace time.
"""
import equinox as eqx
import jax
import jax.numpy as jnp


class Softmax(eqx.Module):
    temperature: float

    def __call__(self, logits):
        if self.temperature > 1.0:
            logits = logits / self.temperature
        return jax.nn.softmax(logits)


@eqx.filter_jit
def predict(model, logits):
    return model(logits)


if __name__ == "__main__":
    print(predict(Softmax(2.0), jnp.arange(3.0)))
