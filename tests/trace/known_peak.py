"""Known CPU peak figures kept where a trace worker looks for its measured ones, so that what a test asserts about
the roofline (which side of the ridge, cache or main memory) does not depend on how fast this machine was, or how
busy, when it measured (a fresh `make test` under load once measured a ridge of 0.91 flop/byte).

100 GFLOP/s; 100 GB/s from the caches (working sets up to 64 KiB), 50 GB/s up to 16 MiB, 10 GB/s from main
memory: the ridge is 1 flop/byte in a small cache, 2 up to 16 MiB, 10 from main memory. An elementwise function
(well under 1 flop/byte) is memory-bound on them and a 1024x1024 matmul (170 flop/byte) compute-bound.
"""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

KNOWN_PEAK = {"flops_per_s": 1e11, "bytes_per_s": 1e10, "source": "known test figures", "device_kind": "cpu",
              "bandwidth": [{"working_set_bytes": 1 << 16, "bytes_per_s": 1e11},
                            {"working_set_bytes": 1 << 24, "bytes_per_s": 5e10},
                            {"working_set_bytes": 1 << 30, "bytes_per_s": 1e10}]}


def keep_known_peak(cache_dir: str | Path) -> Path:
    """Writes the known figures as the worker's kept CPU peak in `cache_dir` (worker.py `cpu_peak`'s file name)."""
    host = socket.gethostname() or "localhost"
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{host}-cpu")
    path = Path(cache_dir) / f"sharpbits-peak-{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**KNOWN_PEAK, "host": host}))
    return path


if __name__ == "__main__":  # scripts/test_e2e.sh: the real editor's worker reads the same known figures
    import sys

    print(keep_known_peak(sys.argv[1]))
