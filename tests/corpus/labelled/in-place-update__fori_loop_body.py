"""Sharp Bits / control flow: "In-place updates" in a `lax.fori_loop` body.

Cumulative sum written as a loop over indices; `out[i] = ...` on the traced carry raises TypeError.
"""
import jax
import jax.numpy as jnp


def cumsum(x):
    def body(i, out):
        out[i] = out[i - 1] + x[i]  # expect: in-place-update
        return out

    init = jnp.zeros_like(x).at[0].set(x[0])
    return jax.lax.fori_loop(1, x.shape[0], body, init)


if __name__ == "__main__":
    print(cumsum(jnp.arange(5.0)))
