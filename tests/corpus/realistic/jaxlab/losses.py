"""Loss functions. Masks are applied by multiplication / `jnp.where`, never by boolean indexing, so every
loss works under jit and vmap with static shapes.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

LABEL_IGNORE = -100


def softmax_cross_entropy(logits, labels_one_hot):
    return -jnp.sum(labels_one_hot * jax.nn.log_softmax(logits, axis=-1), axis=-1)


def sparse_cross_entropy(logits, labels):
    logp = jax.nn.log_softmax(logits, axis=-1)
    safe = jnp.where(labels == LABEL_IGNORE, 0, labels)
    picked = jnp.take_along_axis(logp, safe[..., None], axis=-1)[..., 0]
    return -picked


def label_smoothed_cross_entropy(logits, labels, num_classes: int, smoothing: float = 0.1):
    targets = jax.nn.one_hot(labels, num_classes)
    targets = targets * (1.0 - smoothing) + smoothing / num_classes
    return softmax_cross_entropy(logits, targets)


def masked_mean(values, mask):
    mask = mask.astype(values.dtype)
    return jnp.sum(values * mask) / jnp.maximum(jnp.sum(mask), 1.0)


def token_cross_entropy(logits, targets, loss_mask):
    """Mean cross entropy over the positions where `loss_mask` is 1 (padding and prompts excluded)."""
    per_token = sparse_cross_entropy(logits, targets)
    return masked_mean(per_token, loss_mask)


def ignore_index_cross_entropy(logits, labels):
    per_token = sparse_cross_entropy(logits, labels)
    return masked_mean(per_token, labels != LABEL_IGNORE)


def accuracy(logits, labels, mask=None):
    correct = (jnp.argmax(logits, axis=-1) == labels).astype(jnp.float32)
    if mask is None:
        return jnp.mean(correct)
    return masked_mean(correct, mask)


def mse(pred, target):
    return jnp.mean(jnp.square(pred - target))


def huber(pred, target, delta: float = 1.0):
    err = jnp.abs(pred - target)
    quadratic = jnp.minimum(err, delta)
    linear = err - quadratic
    return jnp.mean(0.5 * quadratic ** 2 + delta * linear)


def focal_loss(logits, labels, gamma: float = 2.0):
    logp = jax.nn.log_softmax(logits, axis=-1)
    logp_t = jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    p_t = jnp.exp(logp_t)
    return -jnp.mean((1.0 - p_t) ** gamma * logp_t)


def weighted_cross_entropy(logits, labels, class_weights):
    per_example = sparse_cross_entropy(logits, labels)
    weights = class_weights[labels]
    return jnp.sum(per_example * weights) / jnp.sum(weights)


def per_example_loss(loss_fn):
    """Turns a batch loss `f(params, x, y)` into per-example losses with vmap (for influence/outliers)."""

    def single(params, x, y):
        return loss_fn(params, x[None], y[None])

    return jax.vmap(single, in_axes=(None, 0, 0))


def contrastive_loss(emb_a, emb_b, temperature: float = 0.1):
    """InfoNCE between two views; positives on the diagonal."""
    a = emb_a / jnp.linalg.norm(emb_a, axis=-1, keepdims=True)
    b = emb_b / jnp.linalg.norm(emb_b, axis=-1, keepdims=True)
    logits = a @ b.T / temperature
    labels = jnp.arange(a.shape[0])
    return 0.5 * (jnp.mean(sparse_cross_entropy(logits, labels)) + jnp.mean(sparse_cross_entropy(logits.T, labels)))


def kl_divergence(logits_p, logits_q):
    logp = jax.nn.log_softmax(logits_p, axis=-1)
    logq = jax.nn.log_softmax(logits_q, axis=-1)
    return jnp.sum(jnp.exp(logp) * (logp - logq), axis=-1)


def l2_penalty(params, exclude_bias: bool = True):
    total = 0.0
    for path, leaf in jax.tree_util.tree_leaves_with_path(params):
        if exclude_bias and leaf.ndim <= 1:
            continue
        total = total + jnp.sum(jnp.square(leaf))
    return total
