"""Control flow: a `lax.scan` body that loops over a small literal tuple of stencil offsets.
"""
import jax.numpy as jnp
from jax import lax

STENCIL = ((-1, 0.25), (0, 0.5), (1, 0.25))


def diffuse(u0, num_steps=20):
    def step(u, _):
        new = jnp.zeros_like(u)
        for shift, weight in STENCIL:
            new = new + weight * jnp.roll(u, shift)
        return new, jnp.sum(new)

    u, totals = lax.scan(step, u0, None, length=num_steps)
    return u, totals


if __name__ == "__main__":
    u, totals = diffuse(jnp.zeros(8).at[4].set(1.0))
    print(u, totals[-1])
