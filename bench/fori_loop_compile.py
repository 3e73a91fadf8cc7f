"""Compile time of a 1,000-iteration Python loop under jit vs the same function after sharpbits' fori_loop
rewrite, measured in one run (the ratio is the figure; these machines are noisy).

    .venv/bin/python bench/fori_loop_compile.py [--iterations N] [--repeats R]
"""

from __future__ import annotations

import argparse
import statistics
import time
import types

SOURCE = '''
import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    acc = jnp.zeros_like(x[0])
    for i in range({n}):
        acc = acc * 0.99 + jnp.sin(x[i % x.shape[0]])
    return acc
'''


def compile_seconds(fn, x) -> float:
    start = time.perf_counter()
    fn.lower(x).compile()  # trace + lower + compile, no execution
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import jax
    import numpy as np
    from sharpbits.analysis.engine import Selection, analyze
    from sharpbits.findings import apply_edits

    source = SOURCE.format(n=args.iterations)
    (finding,) = analyze(source, "bench.py", Selection(select=frozenset({"python-loop-in-jit"}))).findings
    rewritten = apply_edits(source, finding.fix().edits)
    x = np.random.default_rng(0).standard_normal((64, 128)).astype(np.float32)
    times: dict[str, list[float]] = {"original": [], "rewritten": []}
    results = {}
    for _ in range(args.repeats):
        for name, text in (("original", source), ("rewritten", rewritten)):
            jax.clear_caches()
            module = types.ModuleType(name)
            exec(compile(text, f"<{name}>", "exec"), module.__dict__)
            times[name].append(compile_seconds(module.f, x))
            results[name] = np.asarray(module.f(x))
    np.testing.assert_allclose(results["rewritten"], results["original"], rtol=1e-4, atol=1e-4)
    orig, new = statistics.median(times["original"]), statistics.median(times["rewritten"])
    print(f"loop iterations:            {args.iterations}")
    print(f"compile, Python loop:       {orig * 1000:9.1f} ms (median of {args.repeats})")
    print(f"compile, after the rewrite: {new * 1000:9.1f} ms")
    print(f"ratio original/rewritten:   {orig / new:9.1f}x  (outputs match within 1e-4)")


if __name__ == "__main__":
    main()
