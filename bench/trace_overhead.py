"""Warm-worker round trip (jaxpr + StableHLO) vs the same JAX calls made directly in one process.

    .venv/bin/python bench/trace_overhead.py [--n 40]

Both sides do the same work per iteration: compile and exec the document text (fresh function objects, so no
jit cache hits), trace, pretty-print the jaxpr with source info, lower and print StableHLO with debug info.
The worker side adds what a real request costs: framing, the capture of fds 1/2, equation/line walks, and the
server-side StableHLO location parsing. Target: median overhead < 15 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "server"))

from sharpbits.trace.client import TraceClient, WorkerConfig
from sharpbits.trace.specs import parse_spec

DOC = '''
import jax
import jax.numpy as jnp


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


def mlp(params, x):
    h = jnp.tanh(params["W1"] @ x + params["b1"])
    return jax.nn.softmax(params["W2"] @ h + params["b2"])
'''
CASES = [("selu", "x=f32[1000]"),
         ("mlp", 'params={"W1": f32[64,32], "b1": f32[64], "W2": f32[10,64], "b2": f32[10]}, x=f32[32]')]


def direct(path: str, function: str, make_args) -> float:
    import jax

    t = time.perf_counter()
    ns = {"__name__": "bench_doc"}
    exec(compile(DOC, path, "exec"), ns)
    tr = jax.jit(ns[function]).trace(*make_args())
    tr.jaxpr.pretty_print(source_info=True)
    tr.lower().as_text(debug_info=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=40)
    args = ap.parse_args()
    import jax
    import jax.numpy as jnp

    folder = tempfile.mkdtemp(prefix="sharpbits-bench-")
    path = os.path.join(folder, "doc.py")
    with open(path, "w") as fh:
        fh.write(DOC)
    client = TraceClient(WorkerConfig(cache_dir=os.path.join(folder, "cache")))
    t = time.perf_counter()
    client.start(background=False)
    print(f"worker start (spawn + import jax + warm-up): {time.perf_counter() - t:.2f} s; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")

    makers = {
        "selu": lambda: (jax.ShapeDtypeStruct((1000,), jnp.float32),),
        "mlp": lambda: ({"W1": jax.ShapeDtypeStruct((64, 32), jnp.float32),
                         "b1": jax.ShapeDtypeStruct((64,), jnp.float32),
                         "W2": jax.ShapeDtypeStruct((10, 64), jnp.float32),
                         "b2": jax.ShapeDtypeStruct((10,), jnp.float32)},
                        jax.ShapeDtypeStruct((32,), jnp.float32)),
    }
    print(f"{'function':<8} {'direct ms':>10} {'worker ms':>10} {'overhead ms':>12} {'ratio':>6}   (medians of {args.n})")
    for function, spec_text in CASES:
        spec = parse_spec(spec_text)
        for _ in range(3):  # warm both sides
            direct(path, function, makers[function])
            client.trace(path=path, text=DOC, function=function, spec=spec, show=["jaxpr", "stablehlo"])
        d, w, inside = [], [], []
        for _ in range(args.n):  # interleaved, so drift hits both sides alike
            d.append(direct(path, function, makers[function]))
            t = time.perf_counter()
            r = client.trace(path=path, text=DOC, function=function, spec=spec, show=["jaxpr", "stablehlo"])
            w.append(time.perf_counter() - t)
            assert r["ok"], r.get("error")
            inside.append(r["round_trip_s"])
        dm, wm = statistics.median(d), statistics.median(w)
        print(f"{function:<8} {dm * 1e3:>10.2f} {wm * 1e3:>10.2f} {(wm - dm) * 1e3:>12.2f} {wm / dm:>6.2f}"
              f"   (request/reply alone {statistics.median(inside) * 1e3:.2f} ms; "
              f"source maps {(wm - statistics.median(inside)) * 1e3:.2f} ms)")
    client.stop()


if __name__ == "__main__":
    main()
