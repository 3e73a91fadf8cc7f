"""Sharp Bits: "In-place updates": `.at[...].set(...)` returns an updated copy and leaves the array alone.

A positional encoding's random sign flip written as statements of their own: both updated copies are thrown
away, so the "signs" stay uniform numbers in [0, 1) and the padding is never zeroed.
"""
import jax
import jax.numpy as jnp


def encode(key, eigenvectors):
    sign_flip = jax.random.uniform(key, shape=(eigenvectors.shape[1],))
    sign_flip.at[sign_flip >= 0.5].set(1.0)  # expect: in-place-update
    sign_flip.at[sign_flip < 0.5].set(-1.0)  # expect: in-place-update
    pos_enc = eigenvectors * sign_flip[None, :]
    empty = jnp.isnan(pos_enc)
    pos_enc.at[empty].set(0.0)  # expect: in-place-update
    return sign_flip, pos_enc


if __name__ == "__main__":
    vectors = jnp.ones((4, 6)).at[0, 0].set(jnp.nan)
    signs, encoded = encode(jax.random.PRNGKey(0), vectors)
    if not bool(jnp.all(jnp.abs(signs) == 1.0)) or bool(jnp.isnan(encoded).any()):
        print("SHARP BIT: signs still", signs.round(3).tolist(), "and NaN left in the encoding")
