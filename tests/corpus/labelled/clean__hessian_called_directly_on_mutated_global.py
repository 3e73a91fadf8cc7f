"""Sharp Bits: "Pure functions": `jax.hessian` and `jax.jacrev` called directly keep no trace.

A field strength is set on a global before each derivative (the way response-property scripts perturb a
model object); every call of `jax.hessian(energy)(x)` runs `energy` again and reads the field as it is then.
"""
import jax
import jax.numpy as jnp

field = {"strength": 0.0}


def energy(x):
    return jnp.sum(x ** 2) + field["strength"] * jnp.sum(x ** 3)


def response(strength, x):
    field["strength"] = strength
    return jax.hessian(energy)(x), jax.jacrev(energy)(x)


if __name__ == "__main__":
    x = jnp.ones(2)
    weak, strong = response(0.0, x), response(1.0, x)
    print("hessians follow the field:", weak[0][0, 0], strong[0][0, 0])
    assert float(weak[0][0, 0]) == 2.0 and float(strong[0][0, 0]) == 8.0
