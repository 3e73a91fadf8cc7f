"""The roofline: achieved FLOP/s and bytes/s from cost analysis and the run time, against the device's peak (a
table for accelerators, measured once on this CPU and cached)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sharpbits.trace import protocol, schema
from sharpbits.trace.roofline import roofline, table_peak

EXE = Path(sys.executable).with_name("sharpbits")
DOC = ("import jax.numpy as jnp\n\n\n"
       "# sharpbits: trace(a=f32[1024,1024], b=f32[1024,1024])\n"
       "def matmul(a, b):\n    return a @ b\n\n\n"
       "# sharpbits: trace(x=f32[4096])\n"
       "def scale(x):\n    return x * 2.0 + 1.0\n")


@pytest.fixture(scope="module")
def doc(tmp_path_factory):
    folder = tmp_path_factory.mktemp("roofline")
    (folder / "kernels.py").write_text(DOC)
    return folder


def trace(doc: Path, target: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SHARPBITS_JAX_CACHE": str(doc / "cache")}
    return subprocess.run([str(EXE), "trace", f"kernels.py::{target}", "--show", "cost,timing", "--no-eager",
                           "--budget", "0.1", *args], capture_output=True, text=True, cwd=doc, env=env, timeout=300)


def test_matmul_is_compute_bound_elementwise_is_memory_bound(doc):
    results = {}
    for target in ("matmul", "scale"):
        p = trace(doc, target, "--format", "json")
        assert p.returncode == 0, p.stderr
        results[target] = json.loads(p.stdout)
        assert schema.problems(results[target], protocol.TraceResult) == []
    mm, sc = results["matmul"]["roofline"], results["scale"]["roofline"]
    assert mm["intensity"] == pytest.approx(2 * 1024**3 / (3 * 4 * 1024**2))  # 2n³ flops over 3 n² f32 arrays
    assert mm["bound"] == "compute" and sc["bound"] == "memory"
    assert sc["intensity"] < 1 < mm["ridge"] < mm["intensity"]
    assert mm["flops_per_s"] == pytest.approx(results["matmul"]["cost"]["flops"] / mm["run_s"])
    assert mm["fraction_of_peak"] == pytest.approx(mm["flops_per_s"] / mm["peak"]["flops_per_s"])
    assert sc["fraction_of_peak"] == pytest.approx(sc["bytes_per_s"] / sc["peak"]["bytes_per_s"])
    assert mm["peak"]["source"].startswith("measured on this CPU")
    # measured once: both traces (two workers) read the same cached figure
    assert mm["peak"] == sc["peak"]
    assert len(list((doc / "cache").glob("sharpbits-cpu-peak-*.json"))) == 1


def test_a_cached_peak_that_a_run_beats_is_measured_again(doc, tmp_path):
    """A peak measured while the machine was busy (cached forever) would put a matmul at 500% of peak: a run
    faster than the cached peak makes the worker measure again and replace the cache."""
    cache = tmp_path / "cache"
    cache.mkdir()
    p = trace(doc, "matmul", "--format", "json")
    assert p.returncode == 0, p.stderr
    (cached,) = (doc / "cache").glob("sharpbits-cpu-peak-*.json")
    stale = {**json.loads(cached.read_text()), "flops_per_s": 1000.0, "source": "stale"}
    (cache / cached.name).write_text(json.dumps(stale))
    env = {**os.environ, "SHARPBITS_JAX_CACHE": str(cache)}
    p = subprocess.run([str(EXE), "trace", "kernels.py::matmul", "--show", "cost,timing", "--no-eager", "--budget",
                        "0.1", "--format", "json"], capture_output=True, text=True, cwd=doc, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    peak = json.loads(p.stdout)["roofline"]["peak"]
    assert peak["flops_per_s"] > 1e6 and peak["source"].startswith("measured on this CPU")
    assert json.loads((cache / cached.name).read_text())["flops_per_s"] == peak["flops_per_s"]


def test_text_output_names_the_bound_and_the_peak(doc):
    p = trace(doc, "matmul")
    assert p.returncode == 0, p.stderr
    assert "roofline: " in p.stdout and " flop/byte" in p.stdout
    assert "compute-bound: " in p.stdout and "% of peak " in p.stdout and "measured on this CPU" in p.stdout


def test_accelerator_table():
    h100 = table_peak("NVIDIA H100 80GB HBM3", "f32")
    assert h100 is not None and h100["bytes_per_s"] == 3.35e12 and "H100 SXM" in h100["source"]
    assert table_peak("NVIDIA H100 PCIe", "bf16")["flops_per_s"] == 756e12  # type: ignore[index]
    assert table_peak("TPU v5 lite", "bf16")["bytes_per_s"] == 819e9  # type: ignore[index]
    assert table_peak("Some Future Chip", "f32") is None
    result: protocol.TraceResult = {
        "device": {"platform": "gpu", "device_kind": "NVIDIA A100-SXM4-80GB", "count": 1},
        "arguments": [{"name": "x", "static": False, "spec": "bf16[4096,4096]"}],
        "cost": {"flops": 2 * 4096.0**3, "bytes_accessed": 3 * 2 * 4096.0**2},
        "timings": {"run": {"median_s": 1e-3}},
    }
    r = roofline(result)
    assert r is not None and r["bound"] == "compute" and r["peak"]["precision"] == "bf16"
    assert r["fraction_of_peak"] == pytest.approx(2 * 4096**3 / 1e-3 / 312e12)
    unknown = roofline({**result, "device": {"platform": "gpu", "device_kind": "Mystery"}})
    assert unknown is not None and "bound" not in unknown and "no peak figures" in unknown["note"]
