"""A trace result in words: the lens summary, the hover's Markdown, the figures of inlay hints. Pure functions of a
`TraceResult` (sharpbits.trace.protocol); the features that show them are in lsp/features/."""

from __future__ import annotations

from sharpbits.analysis.engine import TracedFunction
from sharpbits.trace.protocol import (
    CompileBreakdown,
    DeviceInfo,
    LineEquations,
    Roofline,
    RunStats,
    TraceResult,
)
from sharpbits.trace.render import _bytes, duration, grid_text
from sharpbits.trace.roofline import describe as describe_roofline
from sharpbits.trace.roofline import rate

HOVER_MAX_JAXPR_LINES = 40
HOVER_MAX_OUTPUT_LINES = 12


def plural(n: int, word: str) -> str:
    """`1 eqn`, `6 eqns`, `1,234 eqns`."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def eqns(result: TraceResult) -> int | None:
    """THE equation count of a result (protocol.JaxprInfo.eqns): what the lens, hover, hints and listing state."""
    value = (result.get("jaxpr") or {}).get("eqns")
    return value if isinstance(value, int) else None


def device_label(device: DeviceInfo) -> str:
    """`cpu`, or `NVIDIA H100 80GB HBM3 (gpu)`: the platform is said once when the kind is only its name."""
    kind, platform = device.get("device_kind"), device.get("platform")
    if not kind or not platform or kind.lower() == platform.lower():
        return str(kind or platform or "?")
    return f"{kind} ({platform})"


def compile_figure(result: TraceResult) -> str | None:
    """`compile 38 ms`: tracing + lowering + XLA compile (CompileBreakdown.total_s, the hover's total too), with
    `(cached)` when XLA's part was a persistent-cache read."""
    comp = result.get("compile") or {}
    total = comp.get("total_s")
    if total is None or "compile_s" not in comp:  # traced only (no XLA compile): no compile figure
        return None
    return f"compile {duration(total)}" + (" (cached)" if comp.get("cache") == "hit" else "")


def run_figure(run: RunStats) -> str | None:
    """`run 548 µs (min 512 µs, 200 runs)`, or `run 548 µs (noisy: 390 µs to 3.1 ms, 252 runs)` when the runs
    spread widely (p10 to p90)."""
    median = run.get("median_s")
    if not median:
        return None
    n = run.get("n", 0)
    runs = plural(n, "run")
    if run.get("noisy") and run.get("p10_s") is not None and run.get("p90_s") is not None:
        return f"run {duration(median)} (noisy: {duration(run['p10_s'])} to {duration(run['p90_s'])}, {runs})"
    if n > 1 and run.get("min_s") is not None:
        return f"run {duration(median)} (min {duration(run['min_s'])}, {runs})"
    return f"run {duration(median)} ({runs})"


def summary(result: TraceResult) -> str:
    """`jaxpr 14 eqns · compile 38 ms · run 12.1 µs (min 11.9 µs, 200 runs) · cpu` (or the error)."""
    if not result.get("ok"):
        error = result.get("error") or {}
        return f"trace failed: {error.get('type', 'error')}"
    parts = []
    count = eqns(result)
    if count is not None:
        parts.append(f"jaxpr {plural(count, 'eqn')}")
    compiled = compile_figure(result)
    if compiled:
        parts.append(compiled)
    run = run_figure((result.get("timings") or {}).get("run") or {})
    if run:
        parts.append(run)
    findings = result.get("findings") or []
    if findings:
        parts.append(plural(len(findings), "finding"))
    parts.append(device_label(result.get("device") or {}))
    return " · ".join(parts)


def jaxpr_block(result: TraceResult) -> str:
    text = (result.get("jaxpr") or {}).get("text", "")
    lines = text.splitlines()
    if len(lines) > HOVER_MAX_JAXPR_LINES:
        hidden = len(lines) - HOVER_MAX_JAXPR_LINES
        lines = [*lines[: HOVER_MAX_JAXPR_LINES - 5], f"    ... {hidden} more lines ...", *lines[-5:]]
    return "```\n" + "\n".join(lines) + "\n```"


def compile_lines(comp: CompileBreakdown) -> str:
    """`compile 4.4 s = tracing 316 ms + lowering 115 ms + XLA compile 3.95 s` and the lines with most equations."""
    parts = [f"tracing {duration(comp.get('trace_s'))}"]
    if "lower_s" in comp:
        parts.append(f"lowering {duration(comp['lower_s'])}")
    if "compile_s" in comp:
        parts.append(f"XLA compile {duration(comp['compile_s'])}"
                     + (" (read from the persistent cache)" if comp.get("cache") == "hit" else ""))
    cached = " (cached)" if comp.get("cache") == "hit" else ""
    text = f"compile {duration(comp.get('total_s'))}{cached} = " + " + ".join(parts)
    top = comp.get("top_lines") or []
    if top:
        total = comp.get("equations") or 0
        text += f"; most of the {plural(total, 'equation')}: " + ", ".join(
            f"line {t['line']} ({t['equations']:,}" + (f", {100 * t['equations'] / total:.0f}%" if total else "") + ")"
            for t in top[:3])
    return text


def sharding_markdown(result: TraceResult) -> str:
    """Each argument's and result's sharding, its device grid, and the collectives with their lines."""
    info = result["sharding"]
    parts = [f"sharding over {info['device_count']} devices:"]
    for v in [*info["arguments"], *info["results"]]:
        how = "replicated" if v.get("replicated") else f"split over {v.get('devices')} devices"
        parts.append(f"- `{v.get('name')}` {v.get('dtype')}{v.get('shape')} `{v.get('spec') or v.get('sharding')}` ({how})")
        grid = v.get("grid")
        if grid and not v.get("replicated"):
            parts.append("\n  ```\n" + "\n".join("  " + ln for ln in grid_text(dict(grid))) + "\n  ```")
    colls = result.get("collectives") or []
    # (a blank line first: without it Markdown continues the last list item with this line)
    parts.append("\ncollectives: " + (", ".join(
        f"`{c['op']}` {_bytes(c['bytes'])}" + (f" (line {c['line']})" if c["line"] else "") for c in colls) or "none"))
    return "\n".join(parts)


def roofline_line(roof: Roofline) -> str:
    """`38.7 GFLOP/s · 113 MB/s · 341 flop/byte · compute-bound: 81% of peak 47.9 GFLOP/s (measured on ...)`."""
    text = (f"{rate(roof['flops_per_s'], 'FLOP/s')} · {rate(roof['bytes_per_s'], 'B/s')} · "
            f"{roof['intensity']:.3g} flop/byte")
    if "bound" in roof:
        text += f" · **{describe_roofline(roof)}** ({roof['peak']['source']})"
    if roof.get("note"):
        text += f" — {roof['note']}"
    return text


def line_equations(result: TraceResult) -> dict[int, LineEquations]:
    """The equations each line of the traced function accounts for (JaxprInfo.by_line: a call's line counts the
    equations of what it calls); they add up to `eqns` with JaxprInfo.eqns_outside."""
    return {e["line"]: e for e in (result.get("jaxpr") or {}).get("by_line") or []}


def module_markdown(result: TraceResult) -> str | None:
    """`module body 6.02 s (runs before every trace; its if __name__ == "__main__": block does not)` and its
    output."""
    module = result.get("module")
    if not module or module.get("seconds") is None:
        return None
    text = f"module body {duration(module['seconds'])} (runs before every trace"
    text += "; its `if __name__ == \"__main__\":` block does not)" if module.get("main_block") else ")"
    output = (module.get("output") or "").rstrip()
    if output:
        lines = output.splitlines()
        shown = lines[-HOVER_MAX_OUTPUT_LINES:]
        more = f"({len(lines) - len(shown)} earlier lines not shown)\n" if len(lines) > len(shown) else ""
        text += f", printed:\n```\n{more}" + "\n".join(shown) + "\n```"
    return text


def findings_markdown(result: TraceResult) -> str | None:
    findings = result.get("findings") or []
    if not findings:
        return None
    return "\n".join(f"- **{f.get('type', 'finding')}**" + (f" at line {f['line']}" if f.get("line") else "")
                     + f": {(f.get('message') or '').strip().splitlines()[0] if f.get('message') else ''}"
                     for f in findings)


def hover_markdown(results: dict[str, TraceResult], functions: list[TracedFunction], line: int,
                   column: int) -> str | None:
    """Markdown for a traced function's name (jaxpr, device, figures) or a line inside it (its primitives).
    `results`: the current trace result of each traced function, by qualname."""
    for fn in functions:
        result = results.get(fn.qualname)
        if result is None or not (fn.line <= line <= fn.end_line):
            continue
        if line == fn.line and fn.column <= column <= fn.end_column:
            device = result.get("device") or {}
            head = f"**{fn.qualname}** traced on `{device_label(device)}`"
            if "notebook" in result:
                head += f"\n\n_{result['notebook']['note']}_"
            if not result.get("ok"):
                error = result.get("error") or {}
                return f"{head}\n\n**{error.get('type')}**: {error.get('message', '')}"
            cost = result.get("cost") or {}
            figures = summary(result)
            if cost.get("flops") is not None:
                figures += f" · {cost['flops']:.3g} flops"
            found = findings_markdown(result)
            if found:
                figures += f"\n\ntrace findings:\n{found}"
            comp = result.get("compile")
            if comp:
                figures += f"\n\n{compile_lines(comp)}"
            outside = (result.get("jaxpr") or {}).get("eqns_outside")
            if outside:
                figures += (f"\n\n{plural(outside, 'equation')} of the {eqns(result):,} come from no line of "
                            f"`{fn.qualname}` (JAX's own code)")
            roof = result.get("roofline")
            if roof:
                figures += f"\n\nroofline: {roofline_line(roof)}"
            if result.get("sharding"):
                figures += f"\n\n{sharding_markdown(result)}"
            module = module_markdown(result)
            if module:
                figures += f"\n\n{module}"
            return f"{head}\n\n{figures}\n\n{jaxpr_block(result)}"
        entry = line_equations(result).get(line)
        if entry:
            listing = ", ".join(f"`{p}`×{n}" if n > 1 else f"`{p}`"  # noqa: RUF001
                                for p, n in entry["primitives"].items())
            return (f"line {line} of **{fn.qualname}** accounts for {plural(entry['equations'], 'jaxpr equation')} "
                    f"(of {eqns(result):,}, with what it calls): {listing}")
    return None
