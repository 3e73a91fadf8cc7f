"""Sharp Bits: "Custom derivatives": a `jax.custom_vjp` wrapper around a host (NumPy) library, called under jit.

The custom_vjp function itself runs on concrete arrays when called eagerly, but here a jitted function calls
it: its primal is traced, and `np.array(x)` on the tracer raises TracerArrayConversionError.
"""
import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_vjp
def host_energy(x):
    return jnp.asarray(np.sum(np.array(x) ** 2))  # expect: host-conversion-in-jit


def _host_energy_fwd(x):
    return host_energy(x), x


def _host_energy_bwd(x, g):
    return (2.0 * x * g,)


host_energy.defvjp(_host_energy_fwd, _host_energy_bwd)


@jax.jit
def step(x):
    return x - 0.1 * host_energy(x)


if __name__ == "__main__":
    print(step(jnp.arange(3.0)))
