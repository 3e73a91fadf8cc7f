"""Autoregressive sampling from the transformer language model.

The decoding loop is `lax.fori_loop` over a fixed-size token buffer (static shapes, one compilation);
each step derives its own key with `fold_in(key, position)`.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from jaxlab.config import ModelConfig
from jaxlab.models import transformer

NEG_INF = -1e9


def top_k_filter(logits, k: int):
    """Keeps the k largest logits (k is static); the rest become -inf."""
    kth = lax.top_k(logits, k)[0][..., -1:]
    return jnp.where(logits < kth, NEG_INF, logits)


def top_p_filter(logits, p: float):
    """Nucleus filtering without boolean indexing: sort, cumulate, threshold, unsort."""
    order = jnp.argsort(-logits, axis=-1)
    sorted_logits = jnp.take_along_axis(logits, order, axis=-1)
    probs = jax.nn.softmax(sorted_logits, axis=-1)
    cumulative = jnp.cumsum(probs, axis=-1)
    remove = cumulative - probs > p
    sorted_logits = jnp.where(remove, NEG_INF, sorted_logits)
    inverse = jnp.argsort(order, axis=-1)
    return jnp.take_along_axis(sorted_logits, inverse, axis=-1)


def sample_logits(key, logits, temperature: float, top_k: int | None, top_p: float | None):
    if temperature == 0.0:
        return jnp.argmax(logits, axis=-1)
    logits = logits / temperature
    if top_k is not None:
        logits = top_k_filter(logits, top_k)
    if top_p is not None:
        logits = top_p_filter(logits, top_p)
    return jax.random.categorical(key, logits, axis=-1)


@partial(jax.jit, static_argnames=("cfg", "max_new_tokens", "temperature", "top_k", "top_p"))
def generate(params, prompt, key, cfg: ModelConfig, max_new_tokens: int, temperature: float = 1.0,
             top_k: int | None = None, top_p: float | None = None):
    """prompt: (batch, prompt_len) int32. Returns (batch, prompt_len + max_new_tokens)."""
    batch, prompt_len = prompt.shape
    total = prompt_len + max_new_tokens
    tokens = jnp.zeros((batch, total), jnp.int32).at[:, :prompt_len].set(prompt)

    def body(pos, tokens):
        logits, _ = transformer.apply(params, {}, tokens, None, cfg, training=False)
        next_logits = lax.dynamic_index_in_dim(logits, pos - 1, axis=1, keepdims=False)
        step_key = jax.random.fold_in(key, pos)
        next_token = sample_logits(step_key, next_logits, temperature, top_k, top_p)
        return tokens.at[:, pos].set(next_token.astype(jnp.int32))

    return lax.fori_loop(prompt_len, total, body, tokens)


@partial(jax.jit, static_argnames=("cfg",))
def sequence_log_prob(params, tokens, loss_mask, cfg: ModelConfig):
    """Sum of log-probabilities of tokens[:, 1:] given their prefixes, where loss_mask is 1."""
    logits, _ = transformer.apply(params, {}, tokens[:, :-1], None, cfg, training=False)
    logp = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(logp, tokens[:, 1:, None], axis=-1)[..., 0]
    return jnp.sum(picked * loss_mask[:, 1:], axis=-1)


def sample_many(params, prompt, key, cfg: ModelConfig, num_samples: int, max_new_tokens: int,
                temperature: float = 1.0):
    """Several independent continuations: one subkey per sample, generated with vmap."""
    keys = jax.random.split(key, num_samples)
    run = jax.vmap(lambda k: generate(params, prompt, k, cfg, max_new_tokens, temperature))
    return run(keys)


def beam_scores_to_probs(scores, length_penalty: float = 0.6, lengths=None):
    if lengths is None:
        return jax.nn.softmax(scores, axis=-1)
    penalty = ((5.0 + lengths) / 6.0) ** length_penalty
    return jax.nn.softmax(scores / penalty, axis=-1)


def decode_until_eos(params, prompt, key, cfg: ModelConfig, eos_id: int, max_new_tokens: int):
    """Eager driver: generate in chunks and stop early once every row has produced EOS."""
    out = prompt
    chunk = 4
    generated = 0
    chunk_index = 0
    while generated < max_new_tokens:
        chunk_key = jax.random.fold_in(key, chunk_index)
        window = out[:, -cfg.max_len:]
        step_out = generate(params, window, chunk_key, cfg, chunk, temperature=0.0)
        out = jnp.concatenate([out, step_out[:, window.shape[1]:]], axis=1)
        generated += chunk
        chunk_index += 1
        if bool(jnp.all(jnp.any(out[:, prompt.shape[1]:] == eos_id, axis=1))):
            break
    return out
