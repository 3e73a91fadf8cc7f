"""Sharp Bits: "Custom derivatives": a `jax.custom_vjp` wrapper around a host (NumPy) library, used eagerly.

`custom_vjp` is not a tracing transformation: called eagerly the function gets the caller's arrays, and under
`jax.grad` alone JAX calls its forward and backward rules with concrete primals and cotangents, so `np.array(x)`
there is fine. Only a `jit`/`vmap` around the call would trace it (as s2fft's C-backend transforms do).
"""
import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_vjp
def host_energy(x):
    return jnp.asarray(np.sum(np.array(x) ** 2))


def _host_energy_fwd(x):
    return host_energy(x), x


def _host_energy_bwd(x, g):
    return (jnp.asarray(2.0 * np.array(x) * np.array(g)),)


host_energy.defvjp(_host_energy_fwd, _host_energy_bwd)


def forward(x):
    return host_energy(x), jax.grad(host_energy)(x)


if __name__ == "__main__":
    print(forward(jnp.arange(3.0)))
