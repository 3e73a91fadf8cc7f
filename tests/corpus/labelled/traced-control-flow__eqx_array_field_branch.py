"""Equinox: a module keeps its temperature as a `jnp.array` field. `eqx.filter_jit` traces every array leaf of
the module, so `if self.temperature > 1.0:` in `__call__` branches on a tracer.
"""
import equinox as eqx
import jax
import jax.numpy as jnp


class Softmax(eqx.Module):
    temperature: jax.Array

    def __call__(self, logits):
        if self.temperature > 1.0:  # expect: traced-control-flow
            logits = logits / self.temperature
        return jax.nn.softmax(logits)


@eqx.filter_jit
def predict(model, logits):
    return model(logits)


if __name__ == "__main__":
    print(predict(Softmax(jnp.array(2.0)), jnp.arange(3.0)))
