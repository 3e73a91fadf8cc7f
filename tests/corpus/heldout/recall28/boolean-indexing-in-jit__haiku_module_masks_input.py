"""Haiku: a module drops padding tokens with `x[mask]` inside `__call__`; `hk.transform`'s `apply` is jitted, so
the mask is traced and the boolean index raises NonConcreteBooleanIndexError.
"""
import haiku as hk
import jax
import jax.numpy as jnp


def pooled(tokens, mask):
    emb = hk.Embed(vocab_size=10, embed_dim=4)(tokens)
    kept = emb[mask]  # expect: boolean-indexing-in-jit
    return kept.mean(axis=0)


model = hk.without_apply_rng(hk.transform(pooled))

if __name__ == "__main__":
    tokens = jnp.array([1, 2, 0, 0])
    mask = tokens != 0
    params = model.init(jax.random.key(0), tokens, mask)
    print(jax.jit(model.apply)(params, tokens, mask))
