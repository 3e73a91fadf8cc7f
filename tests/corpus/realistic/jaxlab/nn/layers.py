"""Layers as pairs of pure functions: `init_*(key, ...) -> params` and `*_apply(params, x, ...) -> y`.

Everything here is traced when called from the jitted model functions: no Python control flow on values,
only on shapes and static configuration.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
from jax import lax

from jaxlab.nn import initializers

LN_EPS = 1e-5
NEG_INF = -1e9

ACTIVATIONS = {
    "relu": jax.nn.relu,
    "gelu": jax.nn.gelu,
    "silu": jax.nn.silu,
    "tanh": jnp.tanh,
    "identity": lambda x: x,
}


# --- dense ------------------------------------------------------------------------------------------------

def init_dense(key, in_dim: int, out_dim: int, use_bias: bool = True, init=initializers.lecun_normal):
    params = {"kernel": init(key, (in_dim, out_dim))}
    if use_bias:
        params["bias"] = jnp.zeros((out_dim,))
    return params


def dense(params, x):
    y = x @ params["kernel"]
    if "bias" in params:
        y = y + params["bias"]
    return y


# --- normalisation ----------------------------------------------------------------------------------------

def init_layernorm(dim: int):
    return {"scale": jnp.ones((dim,)), "bias": jnp.zeros((dim,))}


def layernorm(params, x):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    y = (x - mean) * lax.rsqrt(var + LN_EPS)
    return y * params["scale"] + params["bias"]


def rmsnorm(params, x):
    ms = jnp.mean(jnp.square(x), axis=-1, keepdims=True)
    return x * lax.rsqrt(ms + LN_EPS) * params["scale"]


def init_batchnorm(dim: int):
    params = {"scale": jnp.ones((dim,)), "bias": jnp.zeros((dim,))}
    state = {"mean": jnp.zeros((dim,)), "var": jnp.ones((dim,))}
    return params, state


def batchnorm(params, state, x, training: bool, momentum: float = 0.9):
    """Returns (y, new_state). `training` must be static (a Python bool)."""
    axes = tuple(range(x.ndim - 1))
    if training:
        mean = jnp.mean(x, axis=axes)
        var = jnp.var(x, axis=axes)
        new_state = {
            "mean": momentum * state["mean"] + (1 - momentum) * mean,
            "var": momentum * state["var"] + (1 - momentum) * var,
        }
    else:
        mean, var = state["mean"], state["var"]
        new_state = state
    y = (x - mean) * lax.rsqrt(var + LN_EPS)
    return y * params["scale"] + params["bias"], new_state


# --- dropout ----------------------------------------------------------------------------------------------

def dropout(key, x, rate: float, training: bool):
    """`rate` and `training` are static. The key is consumed once, and only when dropout is active (it may
    be None otherwise)."""
    if not training or rate == 0.0:
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), jnp.zeros_like(x))


# --- embeddings -------------------------------------------------------------------------------------------

def init_embedding(key, vocab: int, dim: int):
    return {"table": initializers.normal(1.0 / math.sqrt(dim))(key, (vocab, dim))}


def embed(params, token_ids):
    return jnp.take(params["table"], token_ids, axis=0)


def attend_to_vocab(params, x):
    """Tied output projection: logits over the vocabulary."""
    return x @ params["table"].T


def sinusoidal_positions(length: int, dim: int):
    positions = jnp.arange(length)[:, None]
    freqs = jnp.exp(-math.log(10000.0) * jnp.arange(0, dim, 2) / dim)
    angles = positions * freqs[None, :]
    table = jnp.zeros((length, dim))
    table = table.at[:, 0::2].set(jnp.sin(angles))
    table = table.at[:, 1::2].set(jnp.cos(angles))
    return table


# --- convolution and pooling ------------------------------------------------------------------------------

def init_conv(key, in_ch: int, out_ch: int, kernel: int = 3):
    return {
        "kernel": initializers.he_normal(key, (kernel, kernel, in_ch, out_ch)),
        "bias": jnp.zeros((out_ch,)),
    }


def conv2d(params, x, stride: int = 1, padding: str = "SAME"):
    y = lax.conv_general_dilated(
        x, params["kernel"], window_strides=(stride, stride), padding=padding,
        dimension_numbers=("NHWC", "HWIO", "NHWC"),
    )
    return y + params["bias"]


def max_pool(x, window: int = 2, stride: int = 2):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, window, window, 1), (1, stride, stride, 1), "VALID")


def avg_pool(x, window: int = 2, stride: int = 2):
    summed = lax.reduce_window(x, 0.0, lax.add, (1, window, window, 1), (1, stride, stride, 1), "VALID")
    return summed / (window * window)


def global_avg_pool(x):
    return jnp.mean(x, axis=(1, 2))


# --- attention --------------------------------------------------------------------------------------------

def init_attention(key, dim: int, num_heads: int):
    k_q, k_k, k_v, k_o = jax.random.split(key, 4)
    return {
        "query": init_dense(k_q, dim, dim, use_bias=False),
        "key": init_dense(k_k, dim, dim, use_bias=False),
        "value": init_dense(k_v, dim, dim, use_bias=False),
        "out": init_dense(k_o, dim, dim),
    }


def _split_heads(x, num_heads: int):
    b, t, d = x.shape
    return x.reshape(b, t, num_heads, d // num_heads).transpose(0, 2, 1, 3)


def _merge_heads(x):
    b, h, t, d = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, t, h * d)


def causal_mask(length: int):
    return jnp.tril(jnp.ones((length, length), dtype=bool))


def dot_product_attention(q, k, v, mask=None):
    scale = 1.0 / math.sqrt(q.shape[-1])
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) * scale
    if mask is not None:
        scores = jnp.where(mask, scores, NEG_INF)
    weights = jax.nn.softmax(scores, axis=-1)
    return jnp.einsum("bhqk,bhkd->bhqd", weights, v), weights


def multi_head_attention(params, x, num_heads: int, mask=None, kv=None):
    kv = x if kv is None else kv
    q = _split_heads(dense(params["query"], x), num_heads)
    k = _split_heads(dense(params["key"], kv), num_heads)
    v = _split_heads(dense(params["value"], kv), num_heads)
    out, _ = dot_product_attention(q, k, v, mask)
    return dense(params["out"], _merge_heads(out))


# --- MLP block --------------------------------------------------------------------------------------------

def init_mlp_block(key, dim: int, hidden: int):
    k1, k2 = jax.random.split(key)
    return {"fc1": init_dense(k1, dim, hidden), "fc2": init_dense(k2, hidden, dim)}


def mlp_block(params, x, activation: str = "gelu"):
    act = ACTIVATIONS[activation]
    return dense(params["fc2"], act(dense(params["fc1"], x)))


def param_count(params) -> int:
    return sum(int(p.size) for p in jax.tree_util.tree_leaves(params))
