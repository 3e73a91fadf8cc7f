"""A multi-layer perceptron with optional layer norm and dropout."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from jaxlab.config import ModelConfig
from jaxlab.nn import layers


def init(key, cfg: ModelConfig, sample_input):
    in_dim = sample_input.shape[-1]
    dims = [in_dim] + [cfg.hidden] * cfg.num_layers
    keys = jax.random.split(key, cfg.num_layers + 1)
    hidden = []
    for k, d_in, d_out in zip(keys[:-1], dims[:-1], dims[1:]):
        block = {"dense": layers.init_dense(k, d_in, d_out, init=layers.initializers.he_normal)}
        if cfg.use_layernorm:
            block["norm"] = layers.init_layernorm(d_out)
        hidden.append(block)
    head = layers.init_dense(keys[-1], dims[-1], cfg.num_classes)
    return {"hidden": hidden, "head": head}, {}


def apply(params, state, x, key, cfg: ModelConfig, training: bool):
    x = x.reshape(x.shape[0], -1)
    act = layers.ACTIVATIONS[cfg.activation]
    n = len(params["hidden"])
    keys = jax.random.split(key, n) if training else [None] * n
    for block, k in zip(params["hidden"], keys):
        x = layers.dense(block["dense"], x)
        if "norm" in block:
            x = layers.layernorm(block["norm"], x)
        x = act(x)
        x = layers.dropout(k, x, cfg.dropout_rate, training)
    return layers.dense(params["head"], x), state


def features(params, x, cfg: ModelConfig):
    """Penultimate-layer features (evaluation only: no dropout, so no key)."""
    x = x.reshape(x.shape[0], -1)
    act = layers.ACTIVATIONS[cfg.activation]
    for block in params["hidden"]:
        x = layers.dense(block["dense"], x)
        if "norm" in block:
            x = layers.layernorm(block["norm"], x)
        x = act(x)
    return x


def logit_lens(params, x, cfg: ModelConfig):
    """Applies the head after every hidden layer (the widths match) to see how predictions form."""
    x = x.reshape(x.shape[0], -1)
    act = layers.ACTIVATIONS[cfg.activation]
    outputs = []
    for i, block in enumerate(params["hidden"]):
        x = act(layers.dense(block["dense"], x))
        if i > 0:
            outputs.append(layers.dense(params["head"], x))
    return jnp.stack(outputs) if outputs else jnp.zeros((0, x.shape[0], cfg.num_classes))


# --- the JAX tutorial's list-of-tuples MLP (kept for the MNIST baseline scripts) -------------------------

def init_tuples(key, sizes, scale: float = 1e-2):
    keys = jax.random.split(key, len(sizes) - 1)
    return [(scale * jax.random.normal(k, (n, m)), jnp.zeros(n)) for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def predict_one(params, x):
    activations = x
    for w, b in params[:-1]:
        activations = jax.nn.relu(w @ activations + b)
    final_w, final_b = params[-1]
    logits = final_w @ activations + final_b
    return logits - jax.scipy.special.logsumexp(logits)


batched_predict = jax.vmap(predict_one, in_axes=(None, 0))


@jax.jit
def tuple_sgd_step(params, x, labels, step_size: float = 0.01):
    def loss(p):
        return -jnp.mean(jnp.take_along_axis(batched_predict(p, x), labels[:, None], axis=1))

    grads = jax.grad(loss)(params)
    return [(w - step_size * dw, b - step_size * db) for (w, b), (dw, db) in zip(params, grads)]
