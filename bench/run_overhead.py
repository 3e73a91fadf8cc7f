"""Overhead of `sharpbits run` on a small training script: wall time of the plain run and of the same script under
`sharpbits run` (default checks; with the NaN check on; with every check off), interleaved in one process, median of N each.
With `--suite`, the overhead of the pytest plugin on a real library's test suite instead.

    .venv/bin/python bench/run_overhead.py [--n 3] [--steps 300]
    .venv/bin/python bench/run_overhead.py --suite optax [--modules optax/_src/update_test.py,...] [--n 1]

The script is an MLP trained with a jitted step on synthetic data, a key split per step, a loss read back every
50 steps: the shape of most training loops. Whole-process time is measured (start-up included), as a user sees
it. Target: ratio <= 1.3 with the default checks.

`--suite PACKAGE`: test modules of a real library (the pinned sources of bench/realcode.py, unpacked in
`.cache/realcode/`, with the test dependencies and paths bench/runtime_recall.py gives them) under `pytest` and under
`pytest -p sharpbits --sharpbits`, interleaved, median of N each; both must pass the same tests. The library's own
modules are user code there (as in runtime_recall.py), so every check runs on them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

TRAIN = '''
import sys
import jax
import jax.numpy as jnp
import numpy as np

STEPS = int(sys.argv[1])

def init(key):
    k1, k2 = jax.random.split(key)
    return {"w1": jax.random.normal(k1, (32, 128)) * 0.1, "b1": jnp.zeros(128),
            "w2": jax.random.normal(k2, (128, 10)) * 0.1, "b2": jnp.zeros(10)}

def loss_fn(params, x, y, key):
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    h = h * jax.random.bernoulli(key, 0.9, h.shape) / 0.9  # dropout
    logits = h @ params["w2"] + params["b2"]
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, axis=-1))

@jax.jit
def step(params, x, y, key):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y, key)
    return jax.tree_util.tree_map(lambda p, g: p - 0.05 * g, params, grads), loss

rng = np.random.default_rng(0)
xs = jnp.asarray(rng.normal(size=(STEPS, 64, 32)).astype(np.float32))
ys = jax.nn.one_hot(jnp.asarray(rng.integers(0, 10, size=(STEPS, 64))), 10)
key = jax.random.PRNGKey(0)
params = init(key)
key = jax.random.PRNGKey(1)
for i in range(STEPS):
    key, sub = jax.random.split(key)
    params, loss = step(params, xs[i], ys[i], sub)
    if i % 50 == 0:
        print(f"step {i} loss {float(loss):.4f}")
print("final", float(loss))
'''


def timed(argv: list[str], cwd: str) -> float:
    env = dict(os.environ, JAX_PLATFORMS=os.environ.get("JAX_PLATFORMS", "cpu"),
               PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "server"), os.environ.get("PYTHONPATH", "")]))
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"failed: {' '.join(argv)}\n{proc.stderr[-2000:]}")
    return elapsed


# the default modules per library for --suite: a minute or two each on 2 cores
SUITE_MODULES = {
    "optax": ("optax/_src/update_test.py", "optax/_src/utils_test.py", "optax/_src/transform_test.py"),
    "chex": ("chex/_src/variants_test.py",),
}


def suite_overhead(package: str, modules: list[str], n: int) -> None:
    import re

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import runtime_recall
    from realcode import CACHE, PACKAGES, fetch

    runtime_recall.install_deps()
    needed = {package, "chex", *runtime_recall.NEEDS.get(package, ())}
    folders = {name: fetch(name, *PACKAGES[name], CACHE) for name in sorted(needed)}
    folders = {name: path.resolve() for name, path in folders.items()}  # as runtime_recall.run_suite does
    folder = folders[package]
    modules = modules or list(SUITE_MODULES.get(package) or runtime_recall.SUITES[package])
    missing = [m for m in modules if not (folder / m).exists()]
    if missing:
        raise SystemExit(f"not in {folder}: {', '.join(missing)}")
    env = dict(os.environ, JAX_PLATFORMS=os.environ.get("JAX_PLATFORMS", "cpu"))
    env.pop("SHARPBITS_RUNTIME_OPTIONS", None)
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(
        [str(folder), str(folders["chex"]), *(str(folders[x]) for x in runtime_recall.NEEDS.get(package, ())),
         str(runtime_recall.DEPS), os.path.join(ROOT, "server")]))
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--rootdir",
                str(folder), *modules]
        variants = {
            "pytest (plain)": base,
            "pytest -p sharpbits --sharpbits": [*base, "-p", "sharpbits", "--sharpbits", "--sharpbits-format", "json",
                                                "--sharpbits-output", report],
        }
        times: dict[str, list[float]] = {name: [] for name in variants}
        outcomes: dict[str, set[str]] = {name: set() for name in variants}
        for _ in range(n):
            for name, argv in variants.items():
                start = time.perf_counter()
                proc = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True)
                times[name].append(time.perf_counter() - start)
                summary = re.findall(r"(\d+ (?:passed|failed|errors?|skipped))", proc.stdout)
                outcomes[name].add(", ".join(summary) or f"exit {proc.returncode}: {proc.stdout[-300:]}")
        with open(report, encoding="utf-8") as f:
            findings = len(json.load(f))
    plain = statistics.median(times["pytest (plain)"])
    print(f"{package} test suite ({', '.join(modules)}): median of {n} runs each, interleaved "
          f"(python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:<40} {median:7.2f} s   ratio {median / plain:4.2f}x   tests: {' | '.join(sorted(outcomes[name]))}")
    if outcomes["pytest (plain)"] != outcomes["pytest -p sharpbits --sharpbits"]:
        print("  the two runs' test outcomes differ: see above")
    ratio = statistics.median(times["pytest -p sharpbits --sharpbits"]) / plain
    print(f"overhead of the pytest plugin on {package}'s tests: {ratio:.2f}x (target <= 1.30x); {findings} runtime "
          "findings")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=3)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--suite", default=None, metavar="PACKAGE",
                        help="time the pytest plugin on this library's tests (from bench/runtime_recall.py's suites)")
    parser.add_argument("--modules", default="", metavar="LIST",
                        help="with --suite: comma-separated test modules (default: a minute or two of its tests)")
    args = parser.parse_args()
    if args.suite:
        suite_overhead(args.suite, [m for m in args.modules.split(",") if m], args.n)
        return
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "train.py"), "w") as f:
            f.write(textwrap.dedent(TRAIN))
        report = os.path.join(folder, "report.json")
        script = [sys.executable, "train.py", str(args.steps)]
        run = [sys.executable, "-m", "sharpbits", "run", "--format", "json", "-o", report]
        variants = {
            "plain": script,
            "sharpbits run (defaults)": [*run, "--", *script],
            "sharpbits run --nans": [*run, "--nans", "--", *script],
            "sharpbits run --no-keys --no-transfers --leaks off": [
                *run, "--no-keys", "--no-transfers", "--leaks", "off", "--", *script],
        }
        times: dict[str, list[float]] = {name: [] for name in variants}
        timed(script, folder)  # warm the OS file cache
        for _ in range(args.n):
            for name, argv in variants.items():
                times[name].append(timed(argv, folder))
        base = statistics.median(times["plain"])
        print(f"training script: {args.steps} steps, median of {args.n} runs each, interleaved "
              f"(python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
        for name, values in times.items():
            median = statistics.median(values)
            print(f"  {name:<62} {median:6.2f} s   ratio {median / base:4.2f}x")
        ratio = statistics.median(times["sharpbits run (defaults)"]) / base
        print(f"overhead of sharpbits run with its default checks: {ratio:.2f}x (target <= 1.30x)")


if __name__ == "__main__":
    main()
