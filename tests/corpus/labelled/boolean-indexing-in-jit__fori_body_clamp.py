"""Sharp Bits / control flow: a boolean-mask update inside a `lax.fori_loop` body.
"""
import jax
import jax.numpy as jnp


def iterate_clamped(x, limit=1.0, steps=5):
    def body(_, x):
        x = 1.5 * x
        return x.at[x > limit].set(limit)  # expect: boolean-indexing-in-jit

    return jax.lax.fori_loop(0, steps, body, x)


if __name__ == "__main__":
    print(iterate_clamped(jnp.array([0.1, 0.5, 2.0])))
