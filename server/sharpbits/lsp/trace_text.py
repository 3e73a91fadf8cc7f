"""A trace result in words: the lens summary, the hover's Markdown, the figures of inlay hints. Pure functions of a
`TraceResult` (sharpbits.trace.protocol); the features that show them are in lsp/features/."""

from __future__ import annotations

from sharpbits.analysis.engine import TracedFunction
from sharpbits.trace.protocol import CompileBreakdown, Roofline, TraceResult
from sharpbits.trace.render import _bytes, duration, grid_text
from sharpbits.trace.roofline import describe as describe_roofline
from sharpbits.trace.roofline import rate

HOVER_MAX_JAXPR_LINES = 40


def summary(result: TraceResult) -> str:
    """`jaxpr 14 eqns · compile 38 ms · run 12.1 µs ±3% · cpu` (or the error)."""
    if not result.get("ok"):
        error = result.get("error") or {}
        return f"trace failed: {error.get('type', 'error')}"
    parts = []
    jaxpr = result.get("jaxpr") or {}
    if "eqn_count" in jaxpr:
        parts.append(f"jaxpr {jaxpr['eqn_count']} eqns")
    timings = result.get("timings") or {}
    if timings.get("compile_s") is not None:
        parts.append(f"compile {duration(timings['compile_s'])}")
    run = timings.get("run") or {}
    if run.get("median_s"):
        spread = ""
        if run.get("p10_s") is not None and run.get("p90_s") is not None and run["median_s"]:
            spread = f" ±{100 * (run['p90_s'] - run['p10_s']) / 2 / run['median_s']:.0f}%"
        parts.append(f"run {duration(run['median_s'])}{spread}")
    device = result.get("device") or {}
    parts.append(str(device.get("platform", "?")))
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
        parts.append(f"XLA compile {duration(comp['compile_s'])}" + (" (cache hit)" if comp.get("cache") == "hit" else ""))
    text = f"compile {duration(comp.get('total_s'))} = " + " + ".join(parts)
    top = comp.get("top_lines") or []
    if top:
        total = comp.get("equations") or 0
        text += "; most equations: " + ", ".join(
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


def line_primitives(result: TraceResult) -> dict[int, list[str]]:
    by_line: dict[int, list[str]] = {}
    for eqn in (result.get("jaxpr") or {}).get("equations", []):
        line = eqn.get("line")
        if isinstance(line, int):
            by_line.setdefault(line, []).append(eqn.get("primitive", "?"))
    return by_line


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
            head = f"**{fn.qualname}** traced on `{device.get('device_kind', '?')}` ({device.get('platform', '?')})"
            if "notebook" in result:
                head += f"\n\n_{result['notebook']['note']}_"
            if not result.get("ok"):
                error = result.get("error") or {}
                return f"{head}\n\n**{error.get('type')}**: {error.get('message', '')}"
            cost = result.get("cost") or {}
            figures = summary(result)
            if cost.get("flops") is not None:
                figures += f" · {cost['flops']:.3g} flops"
            comp = result.get("compile")
            if comp:
                figures += f"\n\n{compile_lines(comp)}"
            roof = result.get("roofline")
            if roof:
                figures += f"\n\nroofline: {roofline_line(roof)}"
            if result.get("sharding"):
                figures += f"\n\n{sharding_markdown(result)}"
            return f"{head}\n\n{figures}\n\n{jaxpr_block(result)}"
        prims = line_primitives(result).get(line)
        if prims:
            counts: dict[str, int] = {}
            for p in prims:
                counts[p] = counts.get(p, 0) + 1
            listing = ", ".join(f"`{p}`×{n}" if n > 1 else f"`{p}`" for p, n in counts.items())  # noqa: RUF001
            return f"line {line} of **{fn.qualname}** produced {len(prims)} jaxpr equations: {listing}"
    return None
