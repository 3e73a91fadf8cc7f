"""The roofline on CPU: a large matmul against this CPU's measured peak, and the README's examples.

    .venv/bin/python bench/roofline_matmul.py [--n 2048] [--repeats 2]

Traces `a @ b` (f32[n,n]) and the README's `scale` (examples/tracing_matmul.py) and `selu`
(examples/tracing_selu.py) through the real CLI, each in a fresh worker, all against one fresh cache folder: the
first worker measures the peak and keeps it there (per host and device kind), every later worker reads the same
figures. Prints each roofline record (achieved rate, the peak it is compared with: main memory or the cache for a
working set that fits in it, the percent shown) and whether the peak figures were the same in every worker.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

EXE = Path(sys.executable).with_name("sharpbits")
REPO = Path(__file__).resolve().parents[1]


def roofline(target: str, cwd: Path, cache: Path) -> dict:
    p = subprocess.run([str(EXE), "trace", target, "--show", "cost,timing", "--no-eager", "--budget", "0.5",
                        "--format", "json"], capture_output=True, text=True, cwd=cwd,
                       env={**os.environ, "SHARPBITS_JAX_CACHE": str(cache)}, check=True)
    return json.loads(p.stdout)["roofline"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--repeats", type=int, default=2, help="fresh workers per function")
    args = ap.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    peaks = set()
    with tempfile.TemporaryDirectory() as tmp:
        doc = Path(tmp, "mm.py")
        doc.write_text(f"# sharpbits: trace(a=f32[{args.n},{args.n}], b=f32[{args.n},{args.n}])\n"
                       "def matmul(a, b):\n    return a @ b\n")
        cache = Path(tmp, "cache")
        targets = [(f"{doc}::matmul", Path(tmp)), ("examples/tracing_matmul.py::scale", REPO),
                   ("examples/tracing_selu.py::selu", REPO)]
        for target, cwd in targets:
            for i in range(args.repeats):
                r = roofline(target, cwd, cache)
                peak = r["peak"]
                peaks.add(peak["flops_per_s"])
                print(f"{Path(target).name:<28} worker {i + 1}: {r['bound']}-bound, "
                      f"{100 * r['fraction_of_peak']:.0f}% of {peak.get('memory', 'main')} peak "
                      f"(achieved {r['flops_per_s'] / 1e9:.2f} GFLOP/s, {r['bytes_per_s'] / 1e9:.2f} GB/s; peak "
                      f"{peak['flops_per_s'] / 1e9:.1f} GFLOP/s, {peak['bytes_per_s'] / 1e9:.2f} GB/s; working set "
                      f"{r.get('working_set_bytes', 0) / 2**20:.1f} MiB){' ABOVE PEAK' if r.get('above_peak') else ''}")
    print(f"peak FLOP/s figures seen across {args.repeats * len(targets)} workers: {len(peaks)} "
          f"({'the same in every worker' if len(peaks) == 1 else 'they differ'})")


if __name__ == "__main__":
    main()
