"""Where the time goes: a traced function's achieved FLOP/s and bytes/s against its device's peak (the roofline).

From XLA's cost analysis (flops, bytes accessed) and the measured steady-state run time (median):
achieved FLOP/s and bytes/s, arithmetic intensity (flop per byte), and whether the function is compute- or
memory-bound: its intensity against the device's ridge point (peak FLOP/s / peak bytes/s). `fraction_of_peak`
is the achieved rate over the peak of the bound resource, capped at 1 (`above_peak` says a rate was above the
figure). On a CPU a working set that fits in the caches is compared with the cache's measured bandwidth. Peaks: for accelerators the table below (vendor
figures, dense, no sparsity); for a CPU what the worker measured once on that CPU (worker.py `cpu_peak`).
XLA counts a loop body once whatever its trip count, so a function with `while`/`scan` shows too little work.
"""

from __future__ import annotations

import re
from typing import Literal

from sharpbits.trace.protocol import MeasuredPeak, PeakInfo, Roofline, TraceResult

# (device_kind pattern, name, {precision: peak FLOP/s}, peak bytes/s, source). First match wins. "f32" is what a
# float32 matmul gets by default in JAX (TF32 tensor cores on NVIDIA Ampere and later; bf16 passes on TPU).
_T = 1e12
ACCELERATOR_PEAKS: list[tuple[str, str, dict[str, float], float, str]] = [
    # NVIDIA H200 datasheet (nvidia.com/en-us/data-center/h200): TF32 494.7/BF16 989.4 TFLOPS dense, 4.8 TB/s
    (r"H200", "NVIDIA H200", {"f32": 494.7 * _T, "bf16": 989.4 * _T}, 4.8e12, "NVIDIA H200 datasheet"),
    # NVIDIA H100 datasheet (nvidia.com/en-us/data-center/h100): PCIe TF32 378/BF16 756 TFLOPS dense, 2.0 TB/s
    (r"H100.*PCIe", "NVIDIA H100 PCIe", {"f32": 378 * _T, "bf16": 756 * _T}, 2.0e12, "NVIDIA H100 datasheet"),
    # same datasheet, SXM: TF32 494.7/BF16 989.4 TFLOPS dense (half the sparsity figures), HBM3 3.35 TB/s
    (r"H100", "NVIDIA H100 SXM", {"f32": 494.7 * _T, "bf16": 989.4 * _T}, 3.35e12, "NVIDIA H100 datasheet"),
    # NVIDIA A100 datasheet: TF32 156/BF16 312 TFLOPS dense; 80GB SXM 2.039 TB/s, 40GB 1.555 TB/s
    (r"A100.*80", "NVIDIA A100 80GB", {"f32": 156 * _T, "bf16": 312 * _T}, 2.039e12, "NVIDIA A100 datasheet"),
    (r"A100", "NVIDIA A100 40GB", {"f32": 156 * _T, "bf16": 312 * _T}, 1.555e12, "NVIDIA A100 datasheet"),
    # NVIDIA L4 datasheet: TF32 60/BF16 121 TFLOPS dense, 300 GB/s
    (r"\bL4\b", "NVIDIA L4", {"f32": 60 * _T, "bf16": 121 * _T}, 300e9, "NVIDIA L4 datasheet"),
    # NVIDIA V100 datasheet (SXM2): FP32 15.7, FP16 tensor 125 TFLOPS, 900 GB/s
    (r"V100", "NVIDIA V100", {"f32": 15.7 * _T, "bf16": 125 * _T}, 900e9, "NVIDIA V100 datasheet"),
    # NVIDIA T4 datasheet: FP32 8.1, FP16 tensor 65 TFLOPS, 320 GB/s
    (r"\bT4\b", "NVIDIA T4", {"f32": 8.1 * _T, "bf16": 65 * _T}, 320e9, "NVIDIA T4 datasheet"),
    # Google Cloud TPU docs (cloud.google.com/tpu/docs/system-architecture-tpu-vm), per chip, bf16:
    # v6e 918 TFLOPS, 1640 GB/s; v5p 459 TFLOPS, 2765 GB/s; v5e 197 TFLOPS, 819 GB/s; v4 275 TFLOPS, 1200 GB/s
    (r"TPU v6", "TPU v6e", {"f32": 918 * _T, "bf16": 918 * _T}, 1640e9, "Google Cloud TPU v6e docs"),
    (r"TPU v5 ?lite|TPU v5e", "TPU v5e", {"f32": 197 * _T, "bf16": 197 * _T}, 819e9, "Google Cloud TPU v5e docs"),
    (r"TPU v5", "TPU v5p", {"f32": 459 * _T, "bf16": 459 * _T}, 2765e9, "Google Cloud TPU v5p docs"),
    (r"TPU v4", "TPU v4", {"f32": 275 * _T, "bf16": 275 * _T}, 1200e9, "Google Cloud TPU v4 docs"),
]


def _precision(result: TraceResult) -> str:
    """bf16 when an argument is 16-bit float (the tensor-core peak), f32 otherwise."""
    specs = " ".join(a["spec"] for a in result.get("arguments") or [])
    return "bf16" if re.search(r"\b(bf16|f16)\[", specs) else "f32"


def table_peak(device_kind: str, precision: str) -> PeakInfo | None:
    for pattern, name, flops, bandwidth, source in ACCELERATOR_PEAKS:
        if re.search(pattern, device_kind):
            return {"flops_per_s": flops[precision], "bytes_per_s": bandwidth, "precision": precision,
                    "source": f"table: {name}, {precision} dense ({source})"}
    return None


def working_set(result: TraceResult) -> float | None:
    """Bytes the function touches at once: arguments + outputs + temporaries (XLA's memory analysis), else the
    bytes accessed of cost analysis."""
    cost = result.get("cost") or {}
    mem = cost.get("memory") or {}
    parts = [mem.get("argument_size_bytes"), mem.get("output_size_bytes"), mem.get("temp_size_bytes")]
    total = sum(p for p in parts if p)
    if total:
        return float(total)
    nbytes = cost.get("bytes_accessed")
    return float(nbytes) if nbytes else None


def peak_for(result: TraceResult, measured: MeasuredPeak | None) -> PeakInfo | None:
    """The peak to compare with. On a CPU the measured one, with the bandwidth for the function's working set:
    the best bytes/s measured on working sets at least as large (a working set that fits in the caches is
    compared with the cache's bandwidth, `memory: "cache"`; one past the measured cache sizes with main
    memory's)."""
    device = result.get("device") or {}
    if device.get("platform") == "cpu":
        if not measured or not measured.get("flops_per_s") or not measured.get("bytes_per_s"):
            return None
        peak: PeakInfo = {"flops_per_s": float(measured["flops_per_s"]),
                          "bytes_per_s": float(measured["bytes_per_s"]), "precision": "f32",
                          "source": f"measured on this CPU once per machine ({measured.get('source', 'this CPU')})",
                          "memory": "main"}
        points = sorted(measured.get("bandwidth") or [], key=lambda p: p["working_set_bytes"])
        ws = working_set(result)
        if ws is not None and len(points) > 1:
            fits = [p for p in points if p["working_set_bytes"] >= ws]
            if fits and fits[0] is not points[-1]:  # smaller than the main-memory working set: in the caches
                best = max(fits, key=lambda p: p["bytes_per_s"])
                peak["bytes_per_s"] = max(float(best["bytes_per_s"]), peak["bytes_per_s"])
                peak["memory"] = "cache"
                peak["source"] += (f"; cache bandwidth: streaming {_size(best['working_set_bytes'])} "
                                   f"(the working set, {_size(ws)}, fits in the caches)")
            elif not fits:
                peak["bytes_per_s"] = float(points[-1]["bytes_per_s"])
        return peak
    table = table_peak(str(device.get("device_kind") or ""), _precision(result))
    if table is not None:
        table["memory"] = "main"
    return table


def roofline(result: TraceResult, measured: MeasuredPeak | None = None) -> Roofline | None:
    """The roofline record, or None without cost analysis and a steady-state run time. Every fraction is at most
    1: a rate above the peak figure (a peak measured while the machine was busy, a working set the caches
    serve faster than measured) is shown at the peak, with `above_peak` and a note that says so."""
    cost = result.get("cost") or {}
    run = (result.get("timings") or {}).get("run") or {}
    seconds = run.get("median_s")
    flops, nbytes = cost.get("flops"), cost.get("bytes_accessed")
    if not seconds or seconds <= 0 or flops is None or flops < 0 or not nbytes or nbytes <= 0:
        return None
    out: Roofline = {"flops_per_s": flops / seconds, "bytes_per_s": nbytes / seconds,
                     "intensity": flops / nbytes, "run_s": seconds}
    ws = working_set(result)
    if ws is not None:
        out["working_set_bytes"] = ws
    peak = peak_for(result, measured)
    if peak is None:
        device = result.get("device") or {}
        out["note"] = f"no peak figures for {device.get('device_kind', 'this device')}"
        return out
    ridge = peak["flops_per_s"] / peak["bytes_per_s"]
    bound: Literal["compute", "memory"] = "compute" if out["intensity"] >= ridge else "memory"
    out["peak"], out["ridge"], out["bound"] = peak, ridge, bound
    out["cache_resident"] = peak.get("memory") == "cache"
    flops_fraction = out["flops_per_s"] / peak["flops_per_s"]
    bytes_fraction = out["bytes_per_s"] / peak["bytes_per_s"]
    fraction = flops_fraction if bound == "compute" else bytes_fraction
    out["flops_fraction"] = min(flops_fraction, 1.0)
    out["bytes_fraction"] = min(bytes_fraction, 1.0)
    out["fraction_of_peak"] = min(fraction, 1.0)
    out["above_peak"] = max(flops_fraction, bytes_fraction) > 1.0
    notes = []
    if out["cache_resident"]:
        notes.append("cache-resident: compared with the cache bandwidth")
    if out["above_peak"]:
        over = "FLOP/s" if flops_fraction > 1.0 else "bytes/s"
        notes.append(f"the achieved {over} is above the peak figure, shown as 100%: " + ("the peak was measured while the machine was busy (delete "
                     "its file to measure again)" if (result.get("device") or {}).get("platform") == "cpu"
                     else "the table's figure is too low for this device"))
    if any(eq.get("primitive") in ("while", "scan") for eq in (result.get("jaxpr") or {}).get("equations", [])):
        notes.append("XLA counts a loop body once, whatever the trip count: the figures undercount the work")
    if notes:
        out["note"] = "; ".join(notes)
    return out


def describe(r: Roofline) -> str:
    """`memory-bound: 12% of peak 25.6 GB/s` (`... GB/s (cache)` for a cache-resident working set), or the
    achieved rates when there is no peak. Never above 100%."""
    if "bound" not in r:
        return f"{rate(r['flops_per_s'], 'FLOP/s')}, {rate(r['bytes_per_s'], 'B/s')}"
    peak = r["peak"]
    figure = (rate(peak["flops_per_s"], "FLOP/s") if r["bound"] == "compute"
              else rate(peak["bytes_per_s"], "B/s"))
    cache = " (cache)" if r["bound"] == "memory" and r.get("cache_resident") else ""
    return f"{r['bound']}-bound: {percent(r['fraction_of_peak'])} of peak {figure}{cache}"


def percent(fraction: float) -> str:
    """A fraction of peak in words: `40%`, `<1%`, never above `100%`."""
    value = max(0.0, min(fraction, 1.0)) * 100
    if 0 < value < 0.5:
        return "<1%"
    return f"{value:.0f}%"


def _size(n: float) -> str:
    for factor, unit in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= factor:
            return f"{n / factor:.3g} {unit}"
    return f"{n:.0f} B"


def rate(value: float, unit: str) -> str:
    for scale, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"
