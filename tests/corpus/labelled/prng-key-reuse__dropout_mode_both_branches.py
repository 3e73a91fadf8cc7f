"""The bug twin of clean__dropout_mode_exclusive_branches.py: the second branch tests another setting
(`post_dropout`, a bool) than the first (`mode`), so with `mode == "dropkey"` and `post_dropout=True` both
branches run and the dropout mask repeats the dropkey mask's bits.
"""
import jax
import jax.numpy as jnp


def attention(scores, key, rate, mode, post_dropout):
    if rate > 0.0 and mode == "dropkey":
        keep = jax.random.bernoulli(key, 1.0 - rate, scores.shape)
        scores = jnp.where(keep, scores, -jnp.inf)
    weights = jax.nn.softmax(scores, axis=-1)
    if rate > 0.0 and post_dropout:
        keep = jax.random.bernoulli(key, 1.0 - rate, weights.shape)  # expect: prng-key-reuse
        weights = jnp.where(keep, weights / (1.0 - rate), 0.0)
    return weights


if __name__ == "__main__":
    # every weight the post-softmax mask keeps is one the dropkey mask kept (same bits): each row's kept
    # weights are exactly 1/(1-rate) times the softmax over the same kept set, so they sum to 1/(1-rate)
    w = attention(jnp.zeros((4, 4)), jax.random.PRNGKey(0), 0.5, "dropkey", True)
    print(w, w.sum(axis=-1))
