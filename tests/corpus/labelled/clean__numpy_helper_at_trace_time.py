"""Transformer positional encodings built by a NumPy helper (`import numpy as onp`) from traced code.

`sinusoid_table` loops and writes in place on NumPy arrays at trace time, on static shapes; the jitted
function sees one constant. None of it is JAX code.
"""
import jax
import jax.numpy as jnp
import numpy as onp


def sinusoid_table(length, dim, base=10_000.0):
    table = onp.zeros((length, dim), dtype=onp.float32)
    position = onp.arange(length)[:, None]
    for i in range(dim // 2):
        freq = 1.0 / base ** (2 * i / dim)
        table[:, 2 * i] = onp.sin(position[:, 0] * freq)
        table[:, 2 * i + 1] = onp.cos(position[:, 0] * freq)
    return table


@jax.jit
def embed(tokens, embedding):
    x = embedding[tokens]
    pe = sinusoid_table(tokens.shape[-1], embedding.shape[-1])
    return x + jnp.asarray(pe)


if __name__ == "__main__":
    tokens = jnp.arange(6).reshape(1, 6) % 5
    out = embed(tokens, jnp.ones((5, 64)))
    print(out.shape, "equations:", len(jax.make_jaxpr(embed.__wrapped__)(tokens, jnp.ones((5, 64))).jaxpr.eqns))
