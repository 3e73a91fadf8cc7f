"""A decoder-only transformer language model (pre-norm, learned or sinusoidal positions).

`apply` returns logits for every position. Layers are a Python list of parameter dicts; looping over
them inside jit unrolls a fixed, small structure, which is what we want. For deep stacks, `apply_scanned`
stacks the layers and runs them with `lax.scan` (one compiled layer body).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from jaxlab.config import ModelConfig
from jaxlab.nn import layers


def init_block(key, cfg: ModelConfig):
    k_attn, k_mlp = jax.random.split(key)
    return {
        "ln1": layers.init_layernorm(cfg.hidden),
        "attn": layers.init_attention(k_attn, cfg.hidden, cfg.num_heads),
        "ln2": layers.init_layernorm(cfg.hidden),
        "mlp": layers.init_mlp_block(k_mlp, cfg.hidden, 4 * cfg.hidden),
    }


def init(key, cfg: ModelConfig, sample_input):
    del sample_input
    k_emb, k_pos, k_head, k_blocks = jax.random.split(key, 4)
    block_keys = jax.random.split(k_blocks, cfg.num_layers)
    params = {
        "embed": layers.init_embedding(k_emb, cfg.vocab_size, cfg.hidden),
        "pos": layers.initializers.normal(0.02)(k_pos, (cfg.max_len * 2, cfg.hidden)),
        "blocks": [init_block(k, cfg) for k in block_keys],
        "ln_f": layers.init_layernorm(cfg.hidden),
    }
    if not cfg.tie_embeddings:
        params["head"] = layers.init_dense(k_head, cfg.hidden, cfg.vocab_size)
    return params, {}


def block_apply(params, x, mask, key, cfg: ModelConfig, training: bool):
    """`key` may be None when not training (dropout is then the identity and draws nothing)."""
    k1, k2 = jax.random.split(key) if training else (None, None)
    h = layers.layernorm(params["ln1"], x)
    h = layers.multi_head_attention(params["attn"], h, cfg.num_heads, mask)
    x = x + layers.dropout(k1, h, cfg.dropout_rate, training)
    h = layers.layernorm(params["ln2"], x)
    h = layers.mlp_block(params["mlp"], h, cfg.activation)
    return x + layers.dropout(k2, h, cfg.dropout_rate, training)


def _embed(params, tokens):
    t = tokens.shape[1]
    return layers.embed(params["embed"], tokens) + params["pos"][:t]


def _logits(params, x, cfg: ModelConfig):
    x = layers.layernorm(params["ln_f"], x)
    if cfg.tie_embeddings:
        return layers.attend_to_vocab(params["embed"], x)
    return layers.dense(params["head"], x)


def apply(params, state, tokens, key, cfg: ModelConfig, training: bool):
    x = _embed(params, tokens)
    mask = layers.causal_mask(tokens.shape[1])[None, None]
    n = len(params["blocks"])
    block_keys = jax.random.split(key, n) if training else [None] * n
    for block, k in zip(params["blocks"], block_keys):
        x = block_apply(block, x, mask, k, cfg, training)
    return _logits(params, x, cfg), state


def stack_blocks(blocks):
    """List of identical block dicts -> one dict whose leaves have a leading layer axis."""
    return jax.tree_util.tree_map(lambda *leaves: jnp.stack(leaves), *blocks)


def apply_scanned(params, tokens, key, cfg: ModelConfig, training: bool):
    """Same as `apply`, with the layer loop expressed as `lax.scan` over stacked block parameters."""
    x = _embed(params, tokens)
    mask = layers.causal_mask(tokens.shape[1])[None, None]
    stacked = stack_blocks(params["blocks"])
    keys = jax.random.split(key, cfg.num_layers)

    def body(x, layer):
        block, k = layer
        return block_apply(block, x, mask, k, cfg, training), None

    x, _ = lax.scan(body, x, (stacked, keys))
    return _logits(params, x, cfg)


def attention_maps(params, tokens, cfg: ModelConfig):
    """Attention weights of every layer and head (for inspection; no dropout)."""
    x = _embed(params, tokens)
    mask = layers.causal_mask(tokens.shape[1])[None, None]
    maps = []
    for block in params["blocks"]:
        h = layers.layernorm(block["ln1"], x)
        q = layers._split_heads(layers.dense(block["attn"]["query"], h), cfg.num_heads)
        k = layers._split_heads(layers.dense(block["attn"]["key"], h), cfg.num_heads)
        v = layers._split_heads(layers.dense(block["attn"]["value"], h), cfg.num_heads)
        _, weights = layers.dot_product_attention(q, k, v, mask)
        maps.append(weights)
        x = block_apply(block, x, mask, None, cfg, training=False)
    return jnp.stack(maps, axis=1)
