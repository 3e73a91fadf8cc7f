"""How fast is the analysis, measured against `ast.parse` of the same text in the same run.

Generates (deterministically) a realistic JAX module of ~1,000 lines (and a ~10,000-line one) and prints:

(a) in-process: median `analyze()` time vs median `ast.parse` time on the same text (target <= 4x);
(b) whole process: median wall time of `sharpbits check FILE` vs a process that only runs
    `ast.parse(open(FILE).read())` (target <= 5x);
(c) whether the start-up of `sharpbits check` imports jax or libcst.matchers (it should import neither).

These machines are noisy: each repetition times the two sides back to back (so both see the same load),
and the printed ratio is the median of the per-repetition ratios, next to the two medians. The script
never fails on time.

    .venv/bin/python bench/speed.py [--quick] [--runs N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import ast
import gc
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HEADER = '''"""Generated benchmark module: a model, a training loop, data handling and utilities."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax, random

EPS = 1e-6
CONFIG = {"lr": 1e-3, "hidden": 128, "layers": 4}
'''

# Each template is a realistic block; {i} makes names unique. A few contain sharp bits on purpose, so the
# rules have something to find, as they would in a real code base under development.
TEMPLATES = [
    '''
@jax.jit
def dense_{i}(params, x):
    w, b = params["w"], params["b"]
    h = x @ w + b
    return jax.nn.relu(h)
''',
    '''
def init_mlp_{i}(key, sizes):
    keys = random.split(key, len(sizes) - 1)
    params = []
    for k, m, n in zip(keys, sizes[:-1], sizes[1:]):
        w = random.normal(k, (m, n)) * jnp.sqrt(2.0 / m)
        params.append({{"w": w, "b": jnp.zeros(n)}})
    return params
''',
    '''
@partial(jax.jit, static_argnames=("training",))
def forward_{i}(params, x, key, training=False):
    for layer in params[:-1]:
        x = jax.nn.gelu(x @ layer["w"] + layer["b"])
        if training:
            key, sub = random.split(key)
            keep = random.bernoulli(sub, 0.9, x.shape)
            x = jnp.where(keep, x / 0.9, 0.0)
    last = params[-1]
    return x @ last["w"] + last["b"]
''',
    '''
def loss_{i}(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.sum(jax.nn.one_hot(y, logits.shape[-1]) * logp, axis=-1))


grad_{i} = jax.jit(jax.value_and_grad(loss_{i}))
''',
    '''
def rnn_{i}(params, xs):
    def cell(h, x):
        h = jnp.tanh(h @ params["wh"] + x @ params["wx"])
        return h, h

    _, hs = lax.scan(cell, jnp.zeros(params["wh"].shape[0]), xs)
    return hs
''',
    '''
def normalize_batch_{i}(batch):
    batch = batch.astype(np.float32)
    mean = batch.mean(axis=0)
    std = batch.std(axis=0)
    std[std < EPS] = 1.0
    batch -= mean
    batch /= std
    return batch
''',
    '''
def train_{i}(params, data, steps, seed=0):
    key = random.PRNGKey(seed)
    history = []
    for step in range(steps):
        key, subkey = random.split(key)
        idx = random.randint(subkey, (32,), 0, data.shape[0])
        value, grads = grad_{j}(params, data[idx], idx % 10)
        params = jax.tree_util.tree_map(lambda p, g: p - CONFIG["lr"] * g, params, grads)
        history.append(float(value))
    return params, history
''',
    '''
@jax.jit
def smooth_{i}(x):
    for _ in range(16):
        x = 0.5 * (x + jnp.roll(x, 1))
    return x
''',
    '''
def bump_{i}(x):
    y = jnp.asarray(x) * 2.0
    y[0] = 0.0
    return y
''',
    '''
@jax.jit
def clip_grads_{i}(grads, max_norm=1.0):
    leaves = jax.tree_util.tree_leaves(grads)
    norm = jnp.sqrt(sum(jnp.sum(g ** 2) for g in leaves))
    scale = jnp.minimum(1.0, max_norm / (norm + EPS))
    return jax.tree_util.tree_map(lambda g: g * scale, grads)
''',
    '''
def batches_{i}(x, y, batch_size, rng):
    order = rng.permutation(len(x))
    for start in range(0, len(order), batch_size):
        sel = order[start:start + batch_size]
        yield x[sel], y[sel]
''',
    '''
def evaluate_{i}(params, x, y):
    logits = jax.vmap(lambda row: row @ params["w"] + params["b"])(x)
    preds = jnp.argmax(logits, axis=-1)
    correct = np.asarray(preds == y)
    return {{"accuracy": float(correct.mean()), "n": int(correct.size)}}
''',
    '''
def power_{i}(a, v):
    def body(_, v):
        v = a @ v
        return v / (jnp.linalg.norm(v) + EPS)

    return lax.fori_loop(0, 100, body, v)
''',
    '''
class Adam{i}:
    def __init__(self, lr=1e-3, b1=0.9, b2=0.999):
        self.lr, self.b1, self.b2 = lr, b1, b2

    def init(self, params):
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return {{"m": zeros, "v": zeros, "t": 0}}

    def update(self, grads, state):
        t = state["t"] + 1
        m = jax.tree_util.tree_map(lambda m, g: self.b1 * m + (1 - self.b1) * g, state["m"], grads)
        v = jax.tree_util.tree_map(lambda v, g: self.b2 * v + (1 - self.b2) * g * g, state["v"], grads)
        step = jax.tree_util.tree_map(lambda m, v: -self.lr * m / (jnp.sqrt(v) + EPS), m, v)
        return step, {{"m": m, "v": v, "t": t}}
''',
]


def generate(target_lines: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    parts = [HEADER]
    lines = HEADER.count("\n")
    i = 0
    loss_ids: list[int] = []
    while lines < target_lines:
        template = TEMPLATES[i % len(TEMPLATES)] if i < len(TEMPLATES) else rng.choice(TEMPLATES)
        if "grad_{j}" in template and not loss_ids:
            template = TEMPLATES[3]
        block = template.format(i=i, j=rng.choice(loss_ids) if loss_ids else 0)
        if template is TEMPLATES[3]:
            loss_ids.append(i)
        parts.append(block)
        lines += block.count("\n")
        i += 1
    return "".join(parts)


def _seconds(fn) -> float:
    gc.collect()  # start each timing from the same heap state
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def paired(fn, baseline, runs: int) -> tuple[float, float, float]:
    """Median of fn's times, median of baseline's times, median of the per-repetition ratios."""
    ours, base, ratios = [], [], []
    for i in range(runs):
        if i % 2:  # alternate the order so neither side always runs second
            b, a = _seconds(baseline), _seconds(fn)
        else:
            a, b = _seconds(fn), _seconds(baseline)
        ours.append(a)
        base.append(b)
        ratios.append(a / b)
    return statistics.median(ours), statistics.median(base), statistics.median(ratios)


def sharpbits_command() -> list[str]:
    script = Path(sys.executable).with_name("sharpbits")
    return [str(script)] if script.exists() else [sys.executable, "-m", "sharpbits"]


def in_process(text: str, runs: int) -> tuple[float, float, float, int]:
    from sharpbits.analysis.engine import Selection, analyze

    result = analyze(text, "bench.py", Selection())  # warm-up (imports, caches)
    ast.parse(text)
    t_analyze, t_parse, ratio = paired(lambda: analyze(text, "bench.py", Selection()), lambda: ast.parse(text), runs)
    return t_analyze, t_parse, ratio, len(result.findings)


def whole_process(path: Path, runs: int) -> tuple[float, float, float]:
    check = [*sharpbits_command(), "check", "--no-cache", str(path)]  # the result cache would answer repeats
    parse = [sys.executable, "-c", "import ast,sys; ast.parse(open(sys.argv[1]).read())", str(path)]
    for cmd in (check, parse):  # warm the OS file cache and .pyc files
        subprocess.run(cmd, capture_output=True, timeout=300)
    return paired(lambda: subprocess.run(check, capture_output=True, timeout=300),
                  lambda: subprocess.run(parse, capture_output=True, timeout=300), runs)


def startup_imports(path: Path) -> dict[str, bool]:
    """Which heavy modules the `check` command imports, from `python -X importtime`."""
    code = "import sys; from sharpbits.cli import main; sys.exit(main(['check', sys.argv[1]]))"
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", code, str(path)],
                          capture_output=True, text=True, timeout=300)
    imported = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            imported.add(line.rsplit("|", 1)[1].strip())
    return {name: name in imported for name in ("jax", "jaxlib", "libcst", "libcst.matchers", "pygls", "numpy")}


def verdict(ratio: float, target: float) -> str:
    return "within target" if ratio <= target else "OVER target"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repetitions (for the test suite)")
    parser.add_argument("--runs", type=int, default=None, help="repetitions per measurement (default 9, quick 3)")
    parser.add_argument("--keep", type=Path, default=None, help="write the generated modules to this folder")
    args = parser.parse_args(argv)
    runs = args.runs or (3 if args.quick else 9)
    big_runs = 1 if args.quick else max(3, runs // 2 + 1)

    folder = args.keep or Path(tempfile.mkdtemp(prefix="sharpbits-speed-"))
    folder.mkdir(parents=True, exist_ok=True)
    import sharpbits

    print(f"engine: {Path(sharpbits.__file__).parent}")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    print(f"cpus: {os.cpu_count()}, load average: {load} (other work on the machine skews absolute times)")
    print(f"python {sys.version.split()[0]}; runs: {runs} (10k-line module: {big_runs}); medians reported")
    for size, n in ((1_000, runs), (10_000, big_runs)):
        text = generate(size)
        path = folder / f"generated_{size}.py"
        path.write_text(text, encoding="utf-8")
        n_lines = text.count("\n")
        t_an, t_ast, ratio_a, n_findings = in_process(text, n)
        print(f"[{n_lines} lines] (a) in-process: analyze {t_an * 1000:.1f} ms, ast.parse {t_ast * 1000:.1f} ms, "
              f"ratio {ratio_a:.2f}x (target <= 4x: {verdict(ratio_a, 4)}); {n_findings} findings")
        t_check, t_parse, ratio_b = whole_process(path, n)
        print(f"[{n_lines} lines] (b) whole process: sharpbits check {t_check * 1000:.0f} ms, "
              f"python+ast.parse {t_parse * 1000:.0f} ms, ratio {ratio_b:.2f}x (target <= 5x: {verdict(ratio_b, 5)})")
        if size == 1_000:
            imports = startup_imports(path)
            shown = ", ".join(f"{name}={'yes' if hit else 'no'}" for name, hit in imports.items())
            clean = not (imports["jax"] or imports["libcst.matchers"])
            print(f"(c) start-up imports of `sharpbits check`: {shown} -> "
                  f"{'OK: neither jax nor libcst.matchers' if clean else 'PROBLEM: heavy import at start-up'}")
    if args.keep is None:
        for p in folder.glob("generated_*.py"):
            p.unlink()
        folder.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
