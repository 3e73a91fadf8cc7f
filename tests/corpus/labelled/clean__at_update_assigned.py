"""Sharp Bits: "In-place updates": the functional form, with the updated copy kept.

The same sign flip and padding mask as a positional encoding writes them, each `.at[...]` result assigned back;
a Pallas kernel's `o_ref.at[...]` is a view of a reference and its `.set` writes in place, so a statement of it
alone loses nothing; `.at[...].get()` only reads.
"""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def encode(key, eigenvectors):
    sign_flip = jax.random.uniform(key, shape=(eigenvectors.shape[1],))
    sign_flip = sign_flip.at[sign_flip >= 0.5].set(1.0)
    sign_flip = sign_flip.at[sign_flip < 0.5].set(-1.0)
    pos_enc = eigenvectors * sign_flip[None, :]
    empty = jnp.isnan(pos_enc)
    pos_enc = pos_enc.at[empty].set(0.0)
    pos_enc.at[0].get()
    return sign_flip, pos_enc


def double_kernel(x_ref, o_ref):
    o_ref.at[:2].set(x_ref[:2] * 2)
    o_ref.at[2:].set(x_ref[2:] * 2)


if __name__ == "__main__":
    vectors = jnp.ones((4, 6)).at[0, 0].set(jnp.nan)
    signs, encoded = encode(jax.random.PRNGKey(0), vectors)
    assert bool(jnp.all(jnp.abs(signs) == 1.0)) and not bool(jnp.isnan(encoded).any())
    x = jnp.arange(4.0)
    doubled = pl.pallas_call(double_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
    assert doubled.tolist() == [0.0, 2.0, 4.0, 6.0]
    print("signs", signs.tolist(), "doubled", doubled.tolist())
