"""SELU on a million-element vector: `sharpbits trace examples/tracing_selu.py::selu` (args from the directive)."""

import jax
import jax.numpy as jnp


# sharpbits: trace(x=f32[1000000])
def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


selu_jit = jax.jit(selu)

if __name__ == "__main__":
    x = jnp.arange(5.0)
    print(selu_jit(x))
