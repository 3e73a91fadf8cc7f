"""A GRU sequence classifier. The time loop is `lax.scan`; masking handles variable-length sequences."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from jaxlab.config import ModelConfig
from jaxlab.nn import initializers, layers


def init_gru(key, in_dim: int, hidden: int):
    k_x, k_h = jax.random.split(key)
    return {
        "wx": initializers.glorot_uniform(k_x, (in_dim, 3 * hidden)),
        "wh": initializers.orthogonal()(k_h, (hidden, 3 * hidden)),
        "b": jnp.zeros((3 * hidden,)),
    }


def gru_cell(params, h, x):
    hidden = h.shape[-1]
    gx = x @ params["wx"] + params["b"]
    gh = h @ params["wh"]
    r = jax.nn.sigmoid(gx[..., :hidden] + gh[..., :hidden])
    z = jax.nn.sigmoid(gx[..., hidden:2 * hidden] + gh[..., hidden:2 * hidden])
    n = jnp.tanh(gx[..., 2 * hidden:] + r * gh[..., 2 * hidden:])
    return (1.0 - z) * n + z * h


def init(key, cfg: ModelConfig, sample_input):
    in_dim = sample_input.shape[-1]
    k_gru, k_head = jax.random.split(key)
    return {
        "gru": init_gru(k_gru, in_dim, cfg.hidden),
        "head": layers.init_dense(k_head, cfg.hidden, cfg.num_classes),
    }, {}


def run_gru(params, xs, mask=None):
    """xs: (batch, time, features); mask: (batch, time) of 0/1. Returns all hidden states and the last one."""
    batch = xs.shape[0]
    h0 = jnp.zeros((batch, params["wh"].shape[0]))
    if mask is None:
        mask = jnp.ones(xs.shape[:2])

    def step(h, inputs):
        x_t, m_t = inputs
        h_new = gru_cell(params, h, x_t)
        h = jnp.where(m_t[:, None] > 0, h_new, h)  # padded steps keep the previous state
        return h, h

    h_last, hs = lax.scan(step, h0, (jnp.swapaxes(xs, 0, 1), jnp.swapaxes(mask, 0, 1)))
    return jnp.swapaxes(hs, 0, 1), h_last


def apply(params, state, x, key, cfg: ModelConfig, training: bool, mask=None):
    _, h_last = run_gru(params["gru"], x, mask)
    h_last = layers.dropout(key, h_last, cfg.dropout_rate, training)
    return layers.dense(params["head"], h_last), state


def bidirectional(params_fwd, params_bwd, xs, mask):
    hs_f, _ = run_gru(params_fwd, xs, mask)
    hs_b, _ = run_gru(params_bwd, xs[:, ::-1], mask[:, ::-1])
    return jnp.concatenate([hs_f, hs_b[:, ::-1]], axis=-1)


def mean_pool(hs, mask):
    total = jnp.sum(hs * mask[..., None], axis=1)
    return total / jnp.maximum(jnp.sum(mask, axis=1, keepdims=True), 1.0)


def generate_states(params, x0, num_steps: int):
    """Runs the cell on its own output for `num_steps` steps (a free-running dynamical system)."""
    proj = params["wx"][:, : params["wh"].shape[0]]

    def body(i, carry):
        h, outputs = carry
        h = gru_cell(params, h, h @ proj.T)
        return h, outputs.at[i].set(h)

    outputs = jnp.zeros((num_steps,) + x0.shape)
    _, outputs = lax.fori_loop(0, num_steps, body, (x0, outputs))
    return outputs
