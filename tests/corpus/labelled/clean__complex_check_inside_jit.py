"""`jnp.iscomplexobj(x)` asks about the dtype, which is known at trace time: branching on it inside a traced
function is ordinary Python (netket's Langevin sampler keeps the real part only for real inputs)."""
import jax
import jax.numpy as jnp


@jax.jit
def drift(x):
    g = jax.grad(lambda v: jnp.sum(jnp.abs(v) ** 2))(x)
    return g if jnp.iscomplexobj(x) else g.real


if __name__ == "__main__":
    print(drift(jnp.ones(3)))
