"""Control flow: a loop over a small literal tuple inside jit unrolls a fixed, tiny structure.
"""
import jax
import jax.numpy as jnp


@jax.jit
def multiscale_energy(x):
    total = 0.0
    for scale in (1, 2, 4):
        coarse = x[::scale]
        total = total + jnp.sum(coarse ** 2) / scale
    return total


@jax.jit
def fused_norms(params):
    return {name: jnp.linalg.norm(params[name]) for name in ("w", "b")}


if __name__ == "__main__":
    print(multiscale_energy(jnp.arange(8.0)), fused_norms({"w": jnp.ones(3), "b": jnp.ones(1)}))
