"""Sharp Bits: "Pure functions": the same derivative bound once under `jax.jit` keeps its first trace.

`jax.jit(jax.jacrev(energy))` traces `energy` once; the field set afterwards is ignored.
"""
import jax
import jax.numpy as jnp

field = {"strength": 0.0}


def energy(x):
    return jnp.sum(x ** 2) + field["strength"] * jnp.sum(x ** 3)  # expect: global-captured-in-jit


gradient = jax.jit(jax.jacrev(energy))


def response(strength, x):
    field["strength"] = strength
    return gradient(x)


if __name__ == "__main__":
    x = jnp.ones(2)
    weak, strong = response(0.0, x), response(1.0, x)
    print("SHARP BIT: gradient ignores the new field:", weak, strong)
    assert bool(jnp.all(weak == strong))
