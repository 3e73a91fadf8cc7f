"""Self-checks for the less travelled code paths (run by CI after `main --smoke`):
`python -m jaxlab.selftest`. Each check returns a short description of what it verified.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

from jaxlab import checkpoint, config, data, evaluate, losses, optim, prng, registry, sampling, solvers, sweep, text, train
from jaxlab.models import cnn, mlp, rnn, transformer, vae
from jaxlab.nn import layers

CHECKS: list[Callable[[], str]] = []


def check(fn: Callable[[], str]) -> Callable[[], str]:
    CHECKS.append(fn)
    return fn


def _blobs(n=64, dim=8, classes=3):
    ds = data.make_blobs(n, dim, classes, 0.1, np.random.default_rng(0))
    return {"inputs": ds.inputs, "labels": ds.labels}


@check
def grad_accumulation_matches_big_batch() -> str:
    cfg = config.from_preset("mlp-blobs", model={"dropout_rate": 0.0, "num_classes": 3}, data={"input_dim": 8})
    batch = _blobs(32)
    tx = optim.sgd(0.1)
    state = train.create_state(jax.random.key(0), cfg, batch, tx)
    full, _ = train.train_step(state, batch, cfg.model, tx)
    accumulated, _ = train.train_step_accumulated(state, batch, cfg.model, tx, 4)
    diff = optim.global_norm(jax.tree_util.tree_map(jnp.subtract, full.params, accumulated.params))
    assert float(diff) < 1e-4, float(diff)
    return f"4 micro-batches == 1 batch (|diff| = {float(diff):.1e})"


@check
def dp_sgd_and_per_example_norms() -> str:
    cfg = config.from_preset("mlp-blobs", model={"num_classes": 3}, data={"input_dim": 8})
    batch = _blobs(16)
    params, _ = mlp.init(jax.random.key(1), cfg.model, jnp.asarray(batch["inputs"]))
    norms = train.per_example_grad_norms_jit(params, {}, batch, cfg.model)
    assert norms.shape == (16,) and bool(jnp.all(norms >= 0))
    new_params = train.dp_sgd_step(params, batch, jax.random.key(2), cfg.model, clip=1.0)
    moved = optim.global_norm(jax.tree_util.tree_map(jnp.subtract, new_params, params))
    return f"16 per-example norms, DP-SGD step moved params by {float(moved):.3f}"


@check
def pmap_step_runs_on_local_devices() -> str:
    cfg = config.from_preset("mlp-blobs", model={"num_classes": 3}, data={"input_dim": 8})
    n = jax.local_device_count()
    batch = _blobs(8 * n)
    tx = optim.adam(1e-3)
    state = train.create_state(jax.random.key(3), cfg, batch, tx)
    step = train.make_pmap_train_step(cfg.model, tx)
    replicated = train.replicate(state, n)
    replicated, loss = step(replicated, data.shard_batch(batch, n))
    return f"pmap over {n} device(s), loss {float(loss[0]):.3f}"


@check
def scanned_transformer_matches_unrolled() -> str:
    cfg = config.from_preset("transformer-copy").model
    params, _ = transformer.init(jax.random.key(4), cfg, None)
    tokens = jnp.ones((2, 8), jnp.int32)
    a, _ = transformer.apply(params, {}, tokens, None, cfg, training=False)
    b = transformer.apply_scanned(params, tokens, jax.random.key(5), cfg, training=False)
    assert bool(jnp.allclose(a, b, atol=1e-4))
    maps = transformer.attention_maps(params, tokens, cfg)
    return f"scan == loop over {cfg.num_layers} layers; attention maps {tuple(maps.shape)}"


@check
def sampling_variants() -> str:
    cfg = config.from_preset("transformer-copy").model
    params, _ = transformer.init(jax.random.key(6), cfg, None)
    prompt = jnp.ones((1, 3), jnp.int32)
    k_many, k_eos = jax.random.split(jax.random.key(7))
    many = sampling.sample_many(params, prompt, k_many, cfg, num_samples=3, max_new_tokens=4)
    greedy = sampling.decode_until_eos(params, prompt, k_eos, cfg, eos_id=0, max_new_tokens=8)
    nucleus = sampling.top_p_filter(jnp.array([[2.0, 1.0, 0.0, -1.0]]), 0.7)
    lp = sampling.sequence_log_prob(params, greedy, jnp.ones(greedy.shape), cfg)
    assert bool(jnp.all(lp <= 0))
    return f"3 samples {tuple(many.shape)}, greedy {tuple(greedy.shape)}, nucleus kept {int((nucleus > -1e8).sum())}"


@check
def cnn_and_rnn_extras() -> str:
    cfg = config.from_preset("cnn-images").model
    images = jnp.ones((2, 8, 8, 1))
    params, state = cnn.init(jax.random.key(8), cfg, images)
    sal = cnn.saliency(params, state, images, 1, cfg)
    maps, pooled = cnn.feature_maps(params, state, images, cfg)
    rcfg = config.from_preset("rnn-sequences").model
    rparams, _ = rnn.init(jax.random.key(9), rcfg, jnp.ones((1, 5, 4)))
    hs = rnn.bidirectional(rparams["gru"], rparams["gru"], jnp.ones((2, 5, 4)), jnp.ones((2, 5)))
    free = rnn.generate_states(rparams["gru"], jnp.zeros(rcfg.hidden), 6)
    rf = cnn.receptive_field(cfg, 8)
    return f"saliency {tuple(sal.shape)}, {len(maps)} maps, bi-GRU {tuple(hs.shape)}, free-run {tuple(free.shape)}, rf {rf}"


@check
def vae_and_losses() -> str:
    x = jnp.asarray(_blobs(32)["inputs"])
    k_fit, k_sample = jax.random.split(jax.random.key(10))
    params, history = vae.fit(x, steps=3, seed=int(jax.random.randint(k_fit, (), 0, 1000)))
    samples = vae.sample(params, k_sample, 4, 4)
    path = vae.interpolate(params, x[:1], x[1:2])
    logits = jnp.array([[2.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    labels = jnp.array([0, 1])
    values = {
        "focal": losses.focal_loss(logits, labels),
        "huber": losses.huber(logits, jnp.zeros_like(logits)),
        "smooth": jnp.mean(losses.label_smoothed_cross_entropy(logits, labels, 3)),
        "ignore": losses.ignore_index_cross_entropy(logits, jnp.array([0, losses.LABEL_IGNORE])),
        "kl": jnp.mean(losses.kl_divergence(logits, logits)),
    }
    assert all(bool(jnp.isfinite(v)) for v in values.values())
    return f"VAE samples {tuple(samples.shape)}, interpolation {tuple(path.shape)}, {len(values)} losses finite"


@check
def solvers_agree() -> str:
    a = jnp.array([[4.0, 1.0], [1.0, 3.0]])
    b = jnp.array([1.0, 2.0])
    x, iters = jax.jit(solvers.conjugate_gradient, static_argnums=0)(lambda v: a @ v, b)
    assert bool(jnp.allclose(a @ x, b, atol=1e-4))
    target = jnp.array([1.0, 2.0, 3.0])
    fit = solvers.gauss_newton_step(lambda p: p * jnp.array([1.0, 2.0, 3.0]) - target, jnp.zeros(3))
    hvp = solvers.hessian_vector_product(lambda v: jnp.sum(v ** 3), jnp.ones(2), jnp.ones(2))
    curv = solvers.curvature_at_minimum(lambda v: jnp.sum((v - 1.0) ** 2), jnp.ones(2))
    s = jnp.eye(3)
    direction = solvers.lbfgs_two_loop(jnp.ones(3), s, 2.0 * s)
    return (f"CG in {int(iters)} iterations, Gauss-Newton {np.asarray(fit).round(2).tolist()}, "
            f"hvp {np.asarray(hvp).tolist()}, curvature {np.asarray(curv).tolist()}, "
            f"L-BFGS {np.asarray(direction).round(2).tolist()}")


@check
def evaluation_metrics() -> str:
    rng = np.random.default_rng(11)
    probs = rng.dirichlet(np.ones(4), size=200)
    labels = rng.integers(0, 4, size=200)
    ece = evaluate.expected_calibration_error(probs, labels)
    matrix = evaluate.confusion_matrix(probs.argmax(-1), labels, 4)
    per_class = evaluate.per_class_metrics(matrix)
    lo, hi = evaluate.bootstrap_interval((probs.argmax(-1) == labels).astype(float))
    top2 = evaluate.top_k_accuracy(np.log(probs), labels, k=2)
    assert matrix.sum() == 200 and lo <= hi
    return f"ECE {ece:.3f}, macro F1 {per_class['f1'].mean():.3f}, top-2 {top2:.2f}, CI [{lo:.2f}, {hi:.2f}]"


@check
def checkpoint_roundtrip_with_typed_key() -> str:
    tree = {"w": jnp.arange(6.0).reshape(2, 3), "key": jax.random.key(12), "step": jnp.array(5)}
    with tempfile.TemporaryDirectory() as tmp:
        manager = checkpoint.CheckpointManager(tmp, keep=2)
        for step in (1, 2, 3):
            manager.save(step, tree, metadata={"note": np.float32(0.5)})
        step, restored = manager.restore(tree)
        avg = checkpoint.average_checkpoints(manager, {"w": tree["w"], "step": tree["step"]}, last=2)
        kept = manager.steps()
    same_key = bool(jnp.all(jax.random.key_data(restored["key"]) == jax.random.key_data(tree["key"])))
    assert kept == [2, 3] and step == 3 and same_key
    return f"kept {kept}, restored step {step}, key intact, averaged w sum {float(avg['w'].sum()):.1f}"


@check
def key_utilities() -> str:
    seq = prng.KeySequence(13)
    a, b = seq.next(), seq.next()
    assert not bool(jnp.all(jax.random.key_data(a) == jax.random.key_data(b)))
    tree = {"w": jnp.zeros((2, 2)), "b": jnp.zeros(2)}
    noise = prng.sample_gaussian_like(seq.next(), tree)
    named = prng.named_keys(seq.next(), ["params", "dropout"])
    rows, cols = prng.random_crop_offsets(named["dropout"], 4, 2)
    g = prng.gumbel_noise(named["params"], (3,))
    return f"{seq.drawn} keys drawn, noise leaves {len(jax.tree_util.tree_leaves(noise))}, crops {rows.shape}, gumbel {g.shape}"


@check
def sweep_seeds() -> str:
    batch = _blobs(64)
    study = sweep.seeds_study(jnp.asarray(batch["inputs"]), jnp.asarray(batch["labels"]), num_seeds=3,
                              num_steps=10, num_classes=3)
    return f"3 seeds: final loss {study['mean']:.3f} +- {study['std']:.3f}"


@check
def layer_shapes() -> str:
    key = jax.random.key(14)
    k_attn, k_emb = jax.random.split(key)
    x = jnp.ones((2, 5, 16))
    attn = layers.init_attention(k_attn, 16, 4)
    y = layers.multi_head_attention(attn, x, 4, layers.causal_mask(5)[None, None])
    table = layers.sinusoidal_positions(5, 16)
    emb = layers.init_embedding(k_emb, 10, 16)
    logits = layers.attend_to_vocab(emb, y)
    pooled = layers.avg_pool(jnp.ones((1, 4, 4, 2)))
    normed = layers.rmsnorm({"scale": jnp.ones(16)}, y)
    return f"attention {y.shape}, positions {table.shape}, logits {logits.shape}, pool {pooled.shape}, rms {normed.shape}"


@check
def tutorial_style_mlp() -> str:
    params = mlp.init_tuples(jax.random.key(16), [8, 16, 3])
    batch = _blobs(16)
    new = mlp.tuple_sgd_step(params, jnp.asarray(batch["inputs"]), jnp.asarray(batch["labels"]))
    return f"list-of-tuples MLP step: {[tuple(w.shape) for w, _ in new]}"


@check
def registry_and_text() -> str:
    k_in, k_out, k_x = jax.random.split(jax.random.key(15), 3)
    params = {"w_in": jax.random.normal(k_in, (8, 16)) * 0.1, "w_out": jax.random.normal(k_out, (16, 8)) * 0.1}
    norms = registry.compare_activations(params, jax.random.normal(k_x, (4, 8)))
    info = text.demo()
    assert info["roundtrip"] == "hello world", info
    return f"{len(norms)} activations compared, vocab {info['vocab']}, head entropies {info['entropy']}"


def main() -> int:
    failed = 0
    for fn in CHECKS:
        start = time.perf_counter()
        try:
            what = fn()
            status = "ok  "
        except Exception as exc:  # report every failure, not just the first
            what = f"{type(exc).__name__}: {exc}"
            status = "FAIL"
            failed += 1
        print(f"{status} {fn.__name__:<40} {time.perf_counter() - start:6.2f}s  {what}")
    print(f"{len(CHECKS) - failed} of {len(CHECKS)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
