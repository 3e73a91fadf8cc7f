"""Sharp Bits: "In-place updates" under `jax.jacfwd` and in a `lax.map` body.

Both functions assign into traced arrays and raise TypeError.
"""
import jax
import jax.numpy as jnp


def clamp_first(v):
    v = v * 2.0
    v[0] = 0.0  # expect: in-place-update
    return v


jac = jax.jacfwd(clamp_first)


def scale_row(row):
    row = jnp.asarray(row)
    row[-1] *= 0.5  # expect: in-place-update
    return row


def halve_last(rows):
    return jax.lax.map(scale_row, rows)


if __name__ == "__main__":
    try:
        print(jac(jnp.ones(3)))
    except TypeError as e:
        print("TypeError:", e)
    print(halve_last(jnp.ones((2, 3))))
