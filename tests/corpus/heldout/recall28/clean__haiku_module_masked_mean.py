"""Haiku: a module averages only the non-padding tokens with a masked sum `jnp.sum(emb * mask[:, None])`; the
jitted `apply` traces it without a value-dependent shape.
"""
import haiku as hk
import jax
import jax.numpy as jnp


def pooled(tokens, mask):
    emb = hk.Embed(vocab_size=10, embed_dim=4)(tokens)
    w = mask[:, None].astype(emb.dtype)
    return jnp.sum(emb * w, axis=0) / jnp.maximum(jnp.sum(w), 1.0)


model = hk.without_apply_rng(hk.transform(pooled))

if __name__ == "__main__":
    tokens = jnp.array([1, 2, 0, 0])
    mask = tokens != 0
    params = model.init(jax.random.key(0), tokens, mask)
    print(jax.jit(model.apply)(params, tokens, mask))
