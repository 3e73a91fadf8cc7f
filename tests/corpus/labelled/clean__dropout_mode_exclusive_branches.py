"""Exclusive alternatives chosen by a Python string setting (megalodon's attention): the mask drawn when
`mode == "dropkey"` and the dropout drawn when `mode == "post_softmax"` never both run for one call, since
`mode` is a parameter nothing rebinds in between, so the two draws from `key` never meet.
"""
import jax
import jax.numpy as jnp


def attention(scores, key, rate, mode):
    if rate > 0.0 and mode == "dropkey":
        keep = jax.random.bernoulli(key, 1.0 - rate, scores.shape)
        scores = jnp.where(keep, scores, -jnp.inf)
    weights = jax.nn.softmax(scores, axis=-1)
    if rate > 0.0 and mode == "post_softmax":
        keep = jax.random.bernoulli(key, 1.0 - rate, weights.shape)
        weights = jnp.where(keep, weights / (1.0 - rate), 0.0)
    return weights


if __name__ == "__main__":
    s = jnp.zeros((4, 4))
    k = jax.random.PRNGKey(0)
    print(attention(s, k, 0.5, "dropkey"))
    print(attention(s, k, 0.5, "post_softmax"))
