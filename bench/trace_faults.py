"""Each fault injected into a warm worker: what the trace returns, and how long until the next trace works.

    .venv/bin/python bench/trace_faults.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "server"))

from sharpbits.trace.client import TraceClient, WorkerConfig
from sharpbits.trace.specs import parse_spec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "trace"))
from fault_document import FAULTS as DOC  # the same document the fault tests use

IMPORT_ERROR_DOC = "import not_installed_pkg\n\ndef ok(x):\n    return x\n"


def main() -> None:
    folder = tempfile.mkdtemp(prefix="sharpbits-faults-")
    path = os.path.join(folder, "faults.py")
    with open(path, "w") as fh:
        fh.write(DOC)
    cache = os.path.join(folder, "cache")
    nojax = os.path.join(folder, "nojax")
    subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", "--without-pip", nojax],
                   check=True)
    spec = parse_spec("x=f32[4]")

    def run(client, function, text=DOC, timeout=30.0):
        t = time.perf_counter()
        r = client.trace(path=path, text=text, function=function, spec=spec, show=["jaxpr"], timeout=timeout)
        return r, time.perf_counter() - t

    normal = TraceClient(WorkerConfig(cache_dir=cache))
    limited = TraceClient(WorkerConfig(cache_dir=cache, memory_limit_mb=1024))
    nojax_client = TraceClient(WorkerConfig(interpreter=os.path.join(nojax, "bin", "python"), cache_dir=None))
    for c in (normal, limited):
        c.start(background=False)
    faults = [
        ("hang (3 s limit)", normal, "hang", DOC, 3.0),
        ("os._exit(7)", normal, "hard_exit", DOC, 30.0),
        ("segfault (ctypes)", normal, "segfault", DOC, 30.0),
        ("sys.exit(3)", normal, "calls_exit", DOC, 30.0),
        ("MemoryError, RLIMIT_DATA", limited, "hog", DOC, 30.0),
        ("import error", normal, "ok", IMPORT_ERROR_DOC, 30.0),
        ("JAX error (bool)", normal, "bad_if", DOC, 30.0),
        ("no jax in interpreter", nojax_client, "ok", DOC, 30.0),
    ]
    print(f"{'fault':<24} {'error returned':<28} {'line':>4} {'took':>8} {'next trace ok after':>20}")
    for name, client, function, text, timeout in faults:
        r, took = run(client, function, text, timeout)
        err = r.get("error") or {}
        after_client = normal if client is nojax_client else client
        r2, t2 = run(after_client, "ok")
        print(f"{name:<24} {err.get('type', 'NONE')!s:<28} {err.get('line') or '-'!s:>4} {took:>7.2f}s "
              f"{(f'{t2:.2f} s') if r2.get('ok') else 'FAILED':>20}")
        print(f"    {err.get('message', '').splitlines()[0][:110]}")
    for c in (normal, limited, nojax_client):
        c.stop()


if __name__ == "__main__":
    main()
