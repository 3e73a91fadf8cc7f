"""Timing truth: the worker's steady-state figure vs an independent timeit of the same jitted function.

    .venv/bin/python bench/trace_timing.py

For each example the worker reports its median over repeated calls (block_until_ready, NumPy random inputs);
this process then jits the same function itself and times it with `timeit` (block_until_ready in the timed
statement), same run, same machine, alternating with the worker in rounds. Target: within 10%.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import timeit

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "server"))

from sharpbits.trace.client import TraceClient, WorkerConfig
from sharpbits.trace.specs import parse_spec

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CASES = [
    ("examples/tracing_selu.py", "selu", "x=f32[1000000]", {}, [((1_000_000,), "float32")]),
    ("examples/tracing_loops.py", "fori_twin", "x=f32[1000], steps=1000", {"steps": 1000}, [((1000,), "float32")]),
    ("examples/tracing_loops.py", "python_loop", "x=f32[1000], steps=100", {"steps": 100}, [((1000,), "float32")]),
]


def independent(path: str, function: str, static: dict, arrays):
    """This process's own jit of the same function and a timer for it (timeit, block_until_ready)."""
    import jax
    import numpy as np

    ns = {"__name__": "bench_doc"}
    with open(path) as fh:
        exec(compile(fh.read(), path, "exec"), ns)
    f = jax.jit(ns[function], static_argnames=tuple(static))
    rng = np.random.default_rng(1)
    xs = [jax.device_put(rng.standard_normal(shape).astype(dt)) for shape, dt in arrays]
    f(*xs, **static).block_until_ready()
    timer = timeit.Timer(lambda: f(*xs, **static).block_until_ready())
    number, total = timer.autorange()  # >= 0.2 s

    def measure(budget: float) -> tuple[float, float]:
        """(median of single timed calls, median of batch means): the first is the like-for-like figure."""
        calls = max(5, int(number * budget / max(total, 1e-9) / 2))
        single = statistics.median(timer.repeat(repeat=calls, number=1))
        n = max(1, calls // 8)
        batch = statistics.median(t / n for t in timer.repeat(repeat=8, number=n))
        return single, batch

    return measure


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    client = TraceClient(WorkerConfig(cache_dir=os.path.join(tempfile.mkdtemp(), "cache")))
    client.start(background=False)
    print(f"load average at start: {os.getloadavg()[0]:.2f} (2 cores; other work on the machine adds noise, so "
          f"the two sides are measured alternately, {rounds} rounds)")
    print(f"{'function':<12} {'worker median':>14} {'timeit median':>14} {'ratio':>7} {'timeit batch':>13}"
          f"   per-round ratios")
    for rel, function, spec, static, arrays in CASES:
        path = os.path.join(REPO, rel)
        measure = independent(path, function, static, arrays)
        ws, ts, bs = [], [], []
        for _ in range(rounds):
            r = client.trace(path=path, function=function, spec=parse_spec(spec), show=["timing"],
                             time_budget_s=0.5, eager=False, timeout=300)
            assert r["ok"], r.get("error")
            ws.append(r["timings"]["run"]["median_s"])
            single, batch = measure(0.5)
            ts.append(single)
            bs.append(batch)
        w, t, b = statistics.median(ws), statistics.median(ts), statistics.median(bs)
        ratios = " ".join(f"{a / b:.2f}" for a, b in zip(ws, ts, strict=True))
        print(f"{function:<12} {w * 1e3:>11.3f} ms {t * 1e3:>11.3f} ms {w / t:>7.3f} {b * 1e3:>10.3f} ms   {ratios}")
    print("timeit median: median of single timed calls (timeit.repeat(number=1)), like the worker's figure;\n"
          "timeit batch: median of batch means (timeit.repeat(number=n) / n), which also averages in any\n"
          "preemption by other processes, so under load it reads higher than either median.")
    client.stop()


if __name__ == "__main__":
    main()
