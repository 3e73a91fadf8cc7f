"""Command-line entry point: `python -m jaxlab.main --preset mlp-blobs --steps 20`.

`--smoke` runs every preset for a few steps plus the VAE, the module-system demo, the sampler, the
solvers and a small sweep, and checks that losses are finite (this is what CI runs).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile

import jax
import jax.numpy as jnp
import numpy as np

from jaxlab import checkpoint, config, data, modules, sampling, solvers, sweep, train
from jaxlab.models import vae
from jaxlab.utils import describe, set_log_level


def run_preset(name: str, steps: int, overrides: dict, verbose: bool) -> dict:
    cfg = config.from_preset(name, num_steps=steps, eval_every=max(steps // 2, 1), **overrides)
    state, report = train.fit(cfg, verbose=verbose)
    if verbose:
        print(describe(state.params))
    return {"preset": name, **{k: report[k] for k in ("final_train", "eval", "finite")}}


def smoke(steps: int = 4) -> dict:
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in config.PRESETS:
            overrides = {"checkpoint_dir": f"{tmp}/{name}"} if name == "mlp-blobs" else {}
            results[name] = run_preset(name, steps, overrides, verbose=False)
        manager = checkpoint.CheckpointManager(f"{tmp}/mlp-blobs")
        results["checkpoints"] = manager.steps()

    rng = np.random.default_rng(0)
    blobs = data.make_blobs(64, 8, 3, 0.1, rng)
    _, vae_losses = vae.fit(jnp.asarray(blobs.inputs), steps=steps)
    results["vae"] = vae_losses[-1]
    results["modules"] = modules.demo(steps)

    cfg = config.from_preset("transformer-copy")
    key = jax.random.key(7)
    init_key, sample_key = jax.random.split(key)
    state = train.create_state(init_key, cfg, {"inputs": np.ones((2, 16), np.int32)}, train.optim.sgd(0.1))
    prompt = jnp.ones((2, 4), jnp.int32)
    tokens = sampling.generate(state.params, prompt, sample_key, cfg.model, max_new_tokens=6, top_k=5)
    results["sampled_shape"] = list(tokens.shape)

    root, its, err = solvers.newton(lambda x: x ** 3 - jnp.array([8.0, 27.0]), jnp.array([1.0, 1.0]))
    results["newton_root"] = np.asarray(root).round(4).tolist()
    traj = solvers.odeint_rk4(solvers.harmonic_oscillator, jnp.array([1.0, 0.0]), 0.0, 0.01, 100)
    results["energy_drift"] = float(solvers.energy(traj[-1]) - solvers.energy(traj[0]))

    grid = {"learning_rate": (0.3, 0.1), "weight_decay": (0.0, 1e-3)}
    res = sweep.run_grid(jax.random.key(3), jnp.asarray(blobs.inputs), jnp.asarray(blobs.labels),
                         jnp.asarray(grid["learning_rate"]), jnp.asarray(grid["weight_decay"]),
                         num_steps=10, batch_size=16, num_classes=3)
    results["sweep_best"] = sweep.best_config(res, grid)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="mlp-blobs", choices=sorted(config.PRESETS))
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    set_log_level(args.verbose)
    if args.smoke:
        out = smoke()
        print(json.dumps(out, indent=2, default=str))
        finite = all(r["finite"] for name, r in out.items() if name in config.PRESETS)
        return 0 if finite else 1
    result = run_preset(args.preset, args.steps, config.parse_overrides(args.set), args.verbose)
    print(json.dumps(result, indent=2, default=str))
    return 0 if result["finite"] else 1


if __name__ == "__main__":
    sys.exit(main())
