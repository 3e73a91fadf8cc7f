"""A trace result as terminal text: source lines with their primitives beside them, cost, a timing summary."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from typing import Any

from sharpbits.trace.protocol import TraceResult


def duration(s: float | None) -> str:
    """Seconds for people: `12.1 µs`, `3.40 ms`, `1.25 s`."""
    if s is None:
        return "-"
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def _si(n: float | None, unit: str) -> str:
    if n is None:
        return "-"
    for factor, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(n) >= factor:
            return f"{n / factor:.2f} {prefix}{unit}"
    return f"{n:.0f} {unit}"


def _bytes(n: float | None) -> str:
    if n is None:
        return "-"
    for factor, prefix in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if abs(n) >= factor:
            return f"{n / factor:.2f} {prefix}"
    return f"{n:.0f} B"


def _counts(c: dict[str, int] | Counter[str], limit: int = 8) -> str:
    items = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
    parts = [k if n == 1 else f"{k}\u00d7{n}" for k, n in items[:limit]]
    if len(items) > limit:
        parts.append(f"+{len(items) - limit} more")
    return " ".join(parts)


def render_text(result: TraceResult, path: str, text: str, show: list[str], spec_note: str = "") -> str:
    out: list[str] = []
    doc_lines = text.splitlines()
    rel = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
    target = result.get("target", {}).get("function") or "?"
    head = f"{rel}::{target}"
    if result.get("arguments"):
        args = ", ".join(f"{a['name']}={a['spec']}" + (" (static)" if a.get("static") else "")
                         for a in result["arguments"])
        head += f"({args})"
    out.append(head + (f"    [{spec_note}]" if spec_note else ""))
    dev = result.get("device") or {}
    worker = result.get("worker") or {}
    if dev:
        kind, platform = dev.get("device_kind"), dev.get("platform")
        label = kind if str(kind).lower() == str(platform).lower() else f"{kind} ({platform})"
        out.append(f"device: {label} x{dev.get('count')}"
                   f" · jax {worker.get('jax')} · python {worker.get('python')}")

    err = result.get("error")
    if err:
        out.append("")
        line = err.get("line")
        where = f" at {rel}:{line}" if line else ""
        out.append(f"error: {err.get('type')}{where} (during {err.get('phase', '?')})")
        if line and 0 < line <= len(doc_lines):
            out.append(f"  {line:>4} | {doc_lines[line - 1].rstrip()}")
        msg = (err.get("message") or "").strip().splitlines()
        for ln in msg[:12]:
            out.append(f"  {ln}")
        if len(msg) > 12:
            out.append(f"  ... ({len(msg) - 12} more lines; --format json has all of it)")
        if err.get("type") == "WorkerCrashed" and err.get("stderr_tail"):
            tail = err["stderr_tail"].strip().splitlines()[-6:]
            out.append("  worker stderr (last lines):")
            out += [f"    {ln}" for ln in tail]

    jaxpr = result.get("jaxpr")
    if jaxpr and "jaxpr" in show:
        out.append("")
        n = jaxpr["eqns"]
        out.append(f"jaxpr: {n:,} equation{'s' if n != 1 else ''}, nested jaxprs included "
                   f"({jaxpr['eqns_top_level']:,} at the top level)")
        out += ["  " + ln for ln in jaxpr["text"].splitlines()]
    if result.get("stablehlo") and "stablehlo" in show:
        out.append("")
        lowered_for = result["stablehlo"].get("lowered_for")
        out.append(f"StableHLO: {result['stablehlo']['op_count']} ops"
                   + (f" (lowered for {lowered_for})" if lowered_for else ""))
        out += ["  " + ln for ln in result["stablehlo"]["text"].splitlines()]
    if result.get("hlo") and "hlo" in show:
        from sharpbits.trace.sourcemap import strip_hlo_metadata

        out.append("")
        out.append(f"optimized HLO: {result['hlo']['op_count']} ops (metadata stripped; --format json keeps it)")
        out += ["  " + ln for ln in strip_hlo_metadata(result["hlo"]["text"]).splitlines()]

    if "lines" in show and jaxpr:
        out.append("")
        out += _lines_table(result, doc_lines)

    cost = result.get("cost")
    if cost and "cost" in show:
        out.append("")
        parts = [_si(cost.get("flops"), "flop")]
        if cost.get("transcendentals") is not None:
            parts.append(f"{_si(cost.get('transcendentals'), '')}transcendentals")
        parts.append(f"{_bytes(cost.get('bytes_accessed'))} accessed"
                     + (" (at least: arguments and outputs once)" if cost.get("bytes_source") else ""))
        out.append("cost: " + " · ".join(parts))
        if cost.get("flops_source") == "jaxpr":
            out.append(f"  (flops of the matrix products counted from the jaxpr: XLA handed them to cuBLAS/cuDNN, "
                       f"whose calls its cost analysis counts as 0; its own figure: "
                       f"{_si(cost.get('xla_flops'), 'flop') if cost.get('xla_flops') is not None else 'none'})")
        prims = {eq["primitive"] for eq in (jaxpr or {}).get("equations", [])}
        if prims & {"while", "scan"}:
            out.append("  (XLA counts a loop body once, whatever the trip count)")
        mem = cost.get("memory") or {}
        if mem:
            out.append(f"memory: arguments {_bytes(mem.get('argument_size_bytes'))} · output "
                       f"{_bytes(mem.get('output_size_bytes'))} · temporaries {_bytes(mem.get('temp_size_bytes'))}"
                       + (f" · peak {_bytes(mem.get('peak_memory_bytes'))}" if "peak_memory_bytes" in mem else ""))
    t = result.get("timings") or {}
    if t and "timing" in show and "trace_s" in t:
        out.append("")
        steps = [f"trace {duration(t.get('trace_s'))}"]
        if "lower_s" in t:
            steps.append(f"lower {duration(t['lower_s'])}")
        if "compile_s" in t:
            cache = {"hit": " (read from the persistent cache)", "miss": " (not in the persistent cache)"}.get(
                t.get("compile_cache", ""), "")
            steps.append(f"compile {duration(t['compile_s'])}{cache}")
        if "first_call_s" in t:
            steps.append(f"first call {duration(t['first_call_s'])}")
        out.append("timing: " + " · ".join(steps))
        run = t.get("run")
        if run:
            noisy = " · noisy: the machine was busy" if run.get("noisy") else ""
            out.append(f"  steady state: {duration(run['median_s'])} median, min {duration(run.get('min_s'))} "
                       f"(p10 {duration(run['p10_s'])}, p90 {duration(run['p90_s'])}, n={run['n']}, "
                       f"block_until_ready){noisy}")
        eager = t.get("eager")
        if eager:
            if "skipped" in eager:
                out.append(f"  eager: skipped ({eager['skipped']})")
            elif eager.get("run"):
                em = eager["run"]["median_s"]
                ratio = f" = {em / run['median_s']:.1f}x the jitted time" if run and run["median_s"] else ""
                out.append(f"  eager (un-jitted): {duration(em)} median, n={eager['run']['n']}{ratio}")
    comp = result.get("compile")
    if comp and "timing" in show and comp.get("total_s"):
        parts = [f"tracing {duration(comp['trace_s'])}"]
        if "lower_s" in comp:
            parts.append(f"lowering {duration(comp['lower_s'])}")
        if "compile_s" in comp:
            parts.append(f"XLA compile {duration(comp['compile_s'])}"
                         + (" (persistent cache hit)" if comp.get("cache") == "hit" else ""))
        out.append("")
        cached = " (cached)" if comp.get("cache") == "hit" else ""
        out.append(f"compile time: {duration(comp['total_s'])}{cached} = " + " + ".join(parts))
        total_eqns = comp.get("equations") or 0
        if comp.get("top_lines"):
            out.append(f"  lines of the function with the most equations (of {total_eqns:,}; a call counts what it "
                       "calls):")
            for entry in comp["top_lines"]:
                src = doc_lines[entry["line"] - 1].strip() if 0 < entry["line"] <= len(doc_lines) else ""
                share = f" ({100 * entry['equations'] / total_eqns:.0f}%)" if total_eqns else ""
                out.append(f"  {entry['line']:>5} | {src[:50]:<50} | {entry['equations']} eqns{share}: "
                           + _counts(entry["primitives"], 4))
    if "sharding" in show:
        out += _sharding_text(result, doc_lines)
    roof = result.get("roofline")
    if roof and "cost" in show and "timing" in show:
        from sharpbits.trace.roofline import describe, rate

        out.append("")
        out.append(f"roofline: {rate(roof['flops_per_s'], 'FLOP/s')} · {rate(roof['bytes_per_s'], 'B/s')} · "
                   f"{roof['intensity']:.3g} flop/byte")
        if "bound" in roof:
            peak = roof["peak"]
            out.append(f"  {describe(roof)} (ridge {roof['ridge']:.3g} flop/byte; peak "
                       f"{rate(peak['flops_per_s'], 'FLOP/s')}, {rate(peak['bytes_per_s'], 'B/s')}: {peak['source']})")
        if roof.get("note"):
            out.append(f"  ({roof['note']})")
    retr = [r for r in result.get("retraces") or [] if r.get("traces", 0) > 1]
    if retr:
        out.append("")
        out.append("retraces:")
        for r in retr:
            out.append(f"  {r['function']} (line {r['line']}): traced {r['traces']} times")
            for reason in r["reasons"][:3]:
                where = f" (call at line {reason['line']})" if reason.get("line") else ""
                lines = [ln.strip() for ln in reason["text"].splitlines()[1:] if ln.strip()]
                out.append(f"    why{where}: " + " / ".join(lines)[:300])
    findings = result.get("findings") or []
    if findings:
        out.append("")
        out.append("trace findings (the trace went on):")
        for f in findings:
            line = f.get("line")
            src = f"  {line:>4} | {doc_lines[line - 1].strip()}" if isinstance(line, int) and 0 < line <= len(
                doc_lines) else ""
            first = (f.get("message") or "").strip().splitlines()
            out.append(f"  {f.get('type')} at {rel}:{line}: {first[0] if first else ''}")
            if src:
                out.append("  " + src)
    module = result.get("module")
    if module and module.get("seconds") is not None and "timing" in show:
        out.append("")
        main = ' (its `if __name__ == "__main__":` block did not run)' if module.get("main_block") else ""
        out.append(f"module body: {duration(module['seconds'])}{main}")
        if (module.get("output") or "").strip():
            out.append("  module output:")
            out += ["    " + ln for ln in module["output"].rstrip().splitlines()[-30:]]
    for note in result.get("notes") or []:
        out.append("")
        out.append(f"note: {note}")
    stdout = result.get("stdout") or ""
    module_output = (module or {}).get("output") or ""
    if module_output and stdout.startswith(module_output) and "timing" in show:
        stdout = stdout[len(module_output):]  # shown above, under the module body
    if stdout.strip():
        out.append("")
        out.append("output of the traced code:")
        out += ["  " + ln for ln in stdout.rstrip().splitlines()[-30:]]
    return "\n".join(out) + "\n"


def _lines_table(result: TraceResult, doc_lines: list[str]) -> list[str]:
    prims: dict[int, Counter[str]] = {}
    for eq in result["jaxpr"]["equations"]:
        line = eq.get("line")
        if line:
            prims.setdefault(line, Counter())[eq["primitive"]] += 1
    hlo_lines = (result.get("hlo") or {}).get("lines") or {}
    shlo_lines = (result.get("stablehlo") or {}).get("lines") or {}
    all_lines = sorted(set(prims) | {int(k) for k in hlo_lines} | {int(k) for k in shlo_lines})
    if not all_lines:
        return ["source lines: no equation maps to a line of this document"]
    out = ["source line -> jaxpr primitives" + ("  [HLO ops after optimization]" if hlo_lines else "")]
    width = 52
    for ln in all_lines:
        src = doc_lines[ln - 1].strip() if 0 < ln <= len(doc_lines) else ""
        if len(src) > width:
            src = src[: width - 3] + "..."
        beside = _counts(prims.get(ln, Counter()))
        h = hlo_lines.get(str(ln))
        if h:
            beside += f"  [{sum(h.values())} HLO: {_counts(h, 4)}]"
        out.append(f"  {ln:>4} | {src:<{width}} | {beside}")
    return out


def grid_text(grid: Mapping[str, Any]) -> list[str]:
    """A device grid as text: block rows down, block columns across, the device ids in each block."""
    cells = [[",".join(map(str, ids)) or "-" for ids in row] for row in grid["cells"]]
    width = max(len(c) for row in cells for c in row) + 2
    head = " " * 9 + "".join(f"{f'{a}:{b}':^{width}}" for a, b in grid["cols"])
    out = [head]
    for (a, b), row in zip(grid["rows"], cells, strict=True):
        out.append(f"{f'{a}:{b}':>8} " + "".join(f"{c:^{width}}" for c in row))
    return out


def _sharding_text(result: TraceResult, doc_lines: list[str]) -> list[str]:
    info = result.get("sharding")
    out = [""]
    if not info:
        out.append("sharding: every argument and result sits on one device")
        return out
    out.append(f"sharding: {info['device_count']} devices (grid: axis-0 blocks down, axis-1 blocks across, "
               "device ids in each block)")
    for kind, values in (("argument", info["arguments"]), ("result", info["results"])):
        for v in values:
            how = "replicated" if v.get("replicated") else f"split over {v['devices']} devices"
            out.append(f"  {kind} {v['name']}: {v['dtype']}{v['shape']} {v.get('spec') or v['sharding']} ({how})")
            if v.get("grid") and not v.get("replicated"):
                out += ["    " + ln for ln in grid_text(v["grid"])]
    colls = result.get("collectives") or []
    out.append("")
    if not colls:
        out.append("collectives: none in the optimized HLO")
    else:
        out.append(f"collectives: {len(colls)} in the optimized HLO, {_bytes(sum(c['bytes'] for c in colls))} in all")
        for c in colls:
            line = c.get("line")
            src = doc_lines[line - 1].strip()[:50] if isinstance(line, int) and 0 < line <= len(doc_lines) else ""
            where = f"line {line:>4} | {src}" if line else "(no source line)"
            out.append(f"  {c['op']:<20} {_bytes(c['bytes']):>10}  {where}")
    return out
