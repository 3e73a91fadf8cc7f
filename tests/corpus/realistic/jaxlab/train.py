"""Training: the jitted step functions and the (eager) Python loop that drives them.

Conventions:
- the model configuration and the optimiser are static arguments (hashable, created once);
- randomness inside a step comes from `fold_in(state.key, state.step)`, so a step never needs a key
  argument and never reuses one;
- the Python loop over steps lives outside jit.
"""

from __future__ import annotations

import logging
import time
from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from jaxlab import checkpoint, data, losses, models, optim
from jaxlab.config import ModelConfig, TrainConfig
from jaxlab.evaluate import evaluate
from jaxlab.utils import MetricLogger, Timer

log = logging.getLogger("jaxlab.train")


class TrainState(NamedTuple):
    step: jax.Array
    params: Any
    model_state: Any
    opt_state: Any
    key: jax.Array


def forward(params, model_state, batch, key, cfg: ModelConfig, training: bool):
    model = models.get(cfg.kind)
    if cfg.kind == "rnn":
        return model.apply(params, model_state, batch["inputs"], key, cfg, training, mask=batch.get("mask"))
    return model.apply(params, model_state, batch["inputs"], key, cfg, training)


def compute_loss(logits, batch, cfg: ModelConfig):
    if cfg.kind == "transformer":
        return losses.token_cross_entropy(logits, batch["labels"], batch["mask"])
    return jnp.mean(losses.sparse_cross_entropy(logits, batch["labels"]))


def compute_accuracy(logits, batch, cfg: ModelConfig):
    if cfg.kind == "transformer":
        return losses.accuracy(logits, batch["labels"], batch["mask"])
    return losses.accuracy(logits, batch["labels"])


def create_state(key, cfg: TrainConfig, sample_batch, tx: optim.GradientTransformation) -> TrainState:
    init_key, dropout_key = jax.random.split(key)
    model = models.get(cfg.model.kind)
    params, model_state = model.init(init_key, cfg.model, jnp.asarray(sample_batch["inputs"]))
    return TrainState(step=jnp.zeros([], jnp.int32), params=params, model_state=model_state,
                      opt_state=tx.init(params), key=dropout_key)


@partial(jax.jit, static_argnames=("cfg", "tx"))
def train_step(state: TrainState, batch, cfg: ModelConfig, tx: optim.GradientTransformation):
    step_key = jax.random.fold_in(state.key, state.step)

    def loss_fn(params):
        logits, new_model_state = forward(params, state.model_state, batch, step_key, cfg, training=True)
        return compute_loss(logits, batch, cfg), (logits, new_model_state)

    (loss, (logits, new_model_state)), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    updates, opt_state = tx.update(grads, state.opt_state, state.params)
    params = optim.apply_updates(state.params, updates)
    metrics = {
        "loss": loss,
        "accuracy": compute_accuracy(logits, batch, cfg),
        "grad_norm": optim.global_norm(grads),
        "update_norm": optim.global_norm(updates),
    }
    new_state = state._replace(step=state.step + 1, params=params, model_state=new_model_state,
                               opt_state=opt_state)
    return new_state, metrics


@partial(jax.jit, static_argnames=("cfg", "tx", "num_micro"))
def train_step_accumulated(state: TrainState, batch, cfg: ModelConfig, tx: optim.GradientTransformation,
                           num_micro: int):
    """Gradient accumulation: the batch is split into `num_micro` micro-batches, processed with `lax.scan`."""
    micro = jax.tree_util.tree_map(lambda x: x.reshape((num_micro, x.shape[0] // num_micro) + x.shape[1:]), batch)
    base_key = jax.random.fold_in(state.key, state.step)

    def micro_step(carry, inputs):
        grad_sum, loss_sum, model_state = carry
        mb, i = inputs
        key = jax.random.fold_in(base_key, i)

        def loss_fn(params):
            logits, new_ms = forward(params, model_state, mb, key, cfg, training=True)
            return compute_loss(logits, mb, cfg), new_ms

        (loss, new_ms), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
        grad_sum = jax.tree_util.tree_map(jnp.add, grad_sum, grads)
        return (grad_sum, loss_sum + loss, new_ms), None

    zeros = optim.tree_zeros_like(state.params)
    (grad_sum, loss_sum, model_state), _ = jax.lax.scan(
        micro_step, (zeros, jnp.zeros([]), state.model_state), (micro, jnp.arange(num_micro)))
    grads = jax.tree_util.tree_map(lambda g: g / num_micro, grad_sum)
    updates, opt_state = tx.update(grads, state.opt_state, state.params)
    params = optim.apply_updates(state.params, updates)
    new_state = state._replace(step=state.step + 1, params=params, model_state=model_state, opt_state=opt_state)
    return new_state, {"loss": loss_sum / num_micro, "grad_norm": optim.global_norm(grads)}


@partial(jax.jit, static_argnames=("cfg",))
def eval_step(params, model_state, batch, cfg: ModelConfig):
    logits, _ = forward(params, model_state, batch, jax.random.key(0), cfg, training=False)
    return {
        "loss": compute_loss(logits, batch, cfg),
        "accuracy": compute_accuracy(logits, batch, cfg),
        "predictions": jnp.argmax(logits, axis=-1),
    }


def per_example_grad_norms(params, model_state, batch, cfg: ModelConfig):
    """Per-example gradient norms with `vmap(grad)` (used to find mislabelled examples)."""

    def single_loss(p, x, y):
        logits, _ = forward(p, model_state, {"inputs": x[None], "labels": y[None]}, jax.random.key(0), cfg,
                            training=False)
        return compute_loss(logits, {"labels": y[None]}, cfg)

    grads = jax.vmap(jax.grad(single_loss), in_axes=(None, 0, 0))(params, batch["inputs"], batch["labels"])
    sq = jax.tree_util.tree_map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(sum(jax.tree_util.tree_leaves(sq)))


per_example_grad_norms_jit = jax.jit(per_example_grad_norms, static_argnames=("cfg",))


@partial(jax.jit, static_argnames=("cfg", "clip", "noise_multiplier", "learning_rate"))
def dp_sgd_step(params, batch, key, cfg: ModelConfig, clip: float = 1.0, noise_multiplier: float = 1.0,
                learning_rate: float = 0.1):
    """DP-SGD: clip per-example gradients, add Gaussian noise (one fresh key per parameter leaf)."""
    noise_root = jax.random.fold_in(key, 1)

    def single_loss(p, x, y):
        logits, _ = forward(p, {}, {"inputs": x[None], "labels": y[None]}, None, cfg, training=False)
        return jnp.mean(losses.sparse_cross_entropy(logits, y[None]))

    grads = jax.vmap(jax.grad(single_loss), in_axes=(None, 0, 0))(params, batch["inputs"], batch["labels"])
    norms = jnp.sqrt(sum(jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim)))
                         for g in jax.tree_util.tree_leaves(grads)))
    factors = jnp.minimum(1.0, clip / (norms + 1e-6))
    clipped = jax.tree_util.tree_map(lambda g: jnp.tensordot(factors, g, axes=1), grads)
    leaves, treedef = jax.tree_util.tree_flatten(clipped)
    noise_keys = jax.random.split(noise_root, len(leaves))
    noisy = [g + noise_multiplier * clip * jax.random.normal(k, g.shape) for g, k in zip(leaves, noise_keys)]
    batch_size = batch["labels"].shape[0]
    mean_grads = jax.tree_util.tree_unflatten(treedef, [g / batch_size for g in noisy])
    return jax.tree_util.tree_map(lambda p, g: p - learning_rate * g, params, mean_grads)


def make_pmap_train_step(cfg: ModelConfig, tx: optim.GradientTransformation):
    """Data-parallel step: gradients averaged across devices with `lax.pmean`."""

    def step(state: TrainState, batch):
        step_key = jax.random.fold_in(state.key, state.step)
        step_key = jax.random.fold_in(step_key, jax.lax.axis_index("devices"))

        def loss_fn(params):
            logits, new_ms = forward(params, state.model_state, batch, step_key, cfg, training=True)
            return compute_loss(logits, batch, cfg), new_ms

        (loss, new_ms), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
        grads = jax.lax.pmean(grads, axis_name="devices")
        loss = jax.lax.pmean(loss, axis_name="devices")
        updates, opt_state = tx.update(grads, state.opt_state, state.params)
        params = optim.apply_updates(state.params, updates)
        return state._replace(step=state.step + 1, params=params, model_state=new_ms, opt_state=opt_state), loss

    return jax.pmap(step, axis_name="devices")


def replicate(tree, n: int):
    return jax.tree_util.tree_map(lambda x: jnp.broadcast_to(x, (n,) + x.shape), tree)


def fit(cfg: TrainConfig, verbose: bool = False) -> tuple[TrainState, dict[str, Any]]:
    """Builds data, model and optimiser from `cfg` and trains for `cfg.num_steps` steps."""
    train_ds, eval_ds = data.build(cfg.data, cfg.model.num_classes, cfg.model.vocab_size, cfg.seed)
    if cfg.data.dataset in ("blobs", "images"):
        standardizer = data.Standardizer().fit(train_ds.inputs)
        standardizer.transform_(train_ds.inputs)
        standardizer.transform_(eval_ds.inputs)
    batches = data.infinite_batches(train_ds, cfg.data.batch_size, cfg.seed, augment=cfg.data.augment)
    first = next(batches)

    tx = optim.from_config(cfg.optim)
    state = create_state(jax.random.key(cfg.seed), cfg, first, tx)
    logger = MetricLogger(every=max(cfg.num_steps // 5, 1))
    timer = Timer()
    manager = checkpoint.CheckpointManager(cfg.checkpoint_dir, cfg.keep_checkpoints) if cfg.checkpoint_dir else None
    eval_history = []

    batch = first
    start = time.perf_counter()
    for step in range(cfg.num_steps):
        if cfg.grad_accum_steps > 1:
            state, metrics = timer.time_call("train_step", train_step_accumulated, state, batch, cfg.model, tx,
                                             cfg.grad_accum_steps)
        else:
            state, metrics = timer.time_call("train_step", train_step, state, batch, cfg.model, tx)
        logger.log(step, metrics)
        if (step + 1) % cfg.eval_every == 0 or step + 1 == cfg.num_steps:
            result = evaluate(state.params, state.model_state, eval_ds, cfg, eval_step)
            eval_history.append({"step": step + 1, **result.summary()})
            if verbose:
                log.info("eval at %d: %s", step + 1, result.summary())
            if manager is not None:
                manager.save(step + 1, {"params": state.params, "model_state": state.model_state},
                             metadata={"eval": result.summary()})
        batch = next(batches)
    elapsed = time.perf_counter() - start
    report = {
        "steps": cfg.num_steps,
        "seconds": elapsed,
        "final_train": logger.history[-1] if logger.history else {},
        "eval": eval_history,
        "timing": timer.summary(),
        "finite": bool(np.isfinite(float(metrics["loss"]))),
    }
    return state, report
