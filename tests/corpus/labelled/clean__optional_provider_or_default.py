"""A jitted step that takes an optional override object: `overrides or self_default` (torax's step function).

The parameter is annotated `Provider | None`: it is None or a provider object (here a dataclass pytree whose
leaves are traced arrays). `or` only asks whether it is None; an object has no array truth value, so tracing
it raises nothing.
"""
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Provider:
    scale: jax.Array


DEFAULT = Provider(scale=jnp.asarray(1.0))


@jax.jit
def step(x, overrides: Provider | None = None):
    provider = overrides or DEFAULT
    return x * provider.scale


if __name__ == "__main__":
    print(step(jnp.ones(3)))
    print(step(jnp.ones(3), Provider(scale=jnp.asarray(2.0))))
