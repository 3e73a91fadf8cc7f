"""A small convolutional network with batch norm (stateful: running statistics live in `state`)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from jaxlab.config import ModelConfig
from jaxlab.nn import layers


def init(key, cfg: ModelConfig, sample_input):
    in_ch = sample_input.shape[-1]
    n_conv = len(cfg.channels)
    keys = jax.random.split(key, n_conv + 2)
    convs, norms, bn_state = [], [], []
    for k, c_in, c_out in zip(keys[:n_conv], (in_ch,) + cfg.channels[:-1], cfg.channels):
        convs.append(layers.init_conv(k, c_in, c_out))
        p, s = layers.init_batchnorm(c_out)
        norms.append(p)
        bn_state.append(s)
    params = {
        "convs": convs,
        "norms": norms,
        "fc": layers.init_dense(keys[-2], cfg.channels[-1], cfg.hidden),
        "head": layers.init_dense(keys[-1], cfg.hidden, cfg.num_classes),
    }
    return params, {"bn": bn_state}


def apply(params, state, x, key, cfg: ModelConfig, training: bool):
    new_bn = []
    for conv, norm, bn in zip(params["convs"], params["norms"], state["bn"]):
        x = layers.conv2d(conv, x)
        x, bn = layers.batchnorm(norm, bn, x, training)
        new_bn.append(bn)
        x = jax.nn.relu(x)
        if x.shape[1] >= 4:
            x = layers.max_pool(x)
    x = layers.global_avg_pool(x)
    x = jax.nn.relu(layers.dense(params["fc"], x))
    x = layers.dropout(key, x, cfg.dropout_rate, training)
    return layers.dense(params["head"], x), {"bn": new_bn}


def saliency(params, state, x, label, cfg: ModelConfig):
    """Gradient of the class score with respect to the input (per example, via vmap)."""

    def score(image):
        logits, _ = apply(params, state, image[None], jax.random.key(0), cfg, training=False)
        return logits[0, label]

    return jax.vmap(jax.grad(score))(x)


def receptive_field(cfg: ModelConfig, image_size: int) -> int:
    """Plain Python arithmetic on the static configuration."""
    size, rf, jump = image_size, 1, 1
    for _ in cfg.channels:
        rf += 2 * jump
        if size >= 4:
            rf += jump
            jump *= 2
            size //= 2
    return rf


def feature_maps(params, state, x, cfg: ModelConfig):
    """Every intermediate activation, for visualisation notebooks."""
    maps = []
    for conv, norm, bn in zip(params["convs"], params["norms"], state["bn"]):
        x = layers.conv2d(conv, x)
        x, _ = layers.batchnorm(norm, bn, x, training=False)
        x = jax.nn.relu(x)
        maps.append(x)
        if x.shape[1] >= 4:
            x = layers.max_pool(x)
    return maps, jnp.mean(x, axis=(1, 2))
