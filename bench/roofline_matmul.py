"""The roofline on a large matmul on CPU: what fraction of this CPU's measured peak does it reach?

    .venv/bin/python bench/roofline_matmul.py [--n 2048]

Traces `a @ b` (f32[n,n]) through the real CLI with a fresh cache folder (so the worker measures the CPU's peak
itself) and prints the roofline record: achieved FLOP/s, the peak, the fraction. A matmul is compute-bound, and
XLA's dot should come close to the peak that the worker measured with a smaller matmul.
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2048)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        doc = Path(tmp, "mm.py")
        doc.write_text(f"# sharpbits: trace(a=f32[{args.n},{args.n}], b=f32[{args.n},{args.n}])\n"
                       "def matmul(a, b):\n    return a @ b\n")
        p = subprocess.run([str(EXE), "trace", f"{doc}::matmul", "--show", "cost,timing", "--no-eager",
                            "--format", "json"], capture_output=True, text=True, cwd=tmp,
                           env={**os.environ, "SHARPBITS_JAX_CACHE": str(Path(tmp, "cache"))}, check=True)
    r = json.loads(p.stdout)["roofline"]
    print(f"matmul f32[{args.n},{args.n}] on {os.cpu_count()} cores (load average {os.getloadavg()[0]:.2f})")
    print(f"  achieved {r['flops_per_s'] / 1e9:.1f} GFLOP/s (median run {r['run_s'] * 1e3:.1f} ms), "
          f"intensity {r['intensity']:.0f} flop/byte -> {r['bound']}-bound")
    print(f"  peak {r['peak']['flops_per_s'] / 1e9:.1f} GFLOP/s, {r['peak']['bytes_per_s'] / 1e9:.2f} GB/s "
          f"({r['peak']['source']})")
    print(f"  fraction of peak: {r['fraction_of_peak']:.2f}")


if __name__ == "__main__":
    main()
