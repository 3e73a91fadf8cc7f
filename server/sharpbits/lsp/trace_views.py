"""Live tracing where people work: CodeLens, hover, inlay hints and diagnostics confirmed by tracing.

Tracing runs only on an explicit action (the `sharpbits.trace` command behind the CodeLens) or, with
`trace.autoRetrace`, for functions that already have results; opening a file never executes it. Every view and
action here asks the gate in trace_features (`tracing_refusal`): when the workspace is untrusted or tracing is
off there are no lenses, no trace hovers, hints or diagnostics, and the command refuses with the reason.
Results belong to one document version: after an edit they are not shown (the lens offers to re-run), and a
result that comes back for an old version is dropped.
"""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types

from sharpbits.analysis.engine import TracedFunction
from sharpbits.lsp.trace_features import TRACE_COMMAND, TraceEntry, TraceService
from sharpbits.trace.protocol import CompileBreakdown, Roofline, TraceCommandResult, TraceResult
from sharpbits.trace.render import duration
from sharpbits.trace.roofline import describe as describe_roofline
from sharpbits.trace.roofline import rate

TRACE_SOURCE = "sharpbits (trace)"
HOVER_MAX_JAXPR_LINES = 40


def _state(ls: Any) -> dict[str, dict[str, TraceEntry]]:
    return _service(ls).results


def _service(ls: Any) -> TraceService:
    service: TraceService = ls.traces
    return service


def tracing_refusal(ls: Any) -> dict[str, str] | None:
    """Why tracing may not run (untrusted workspace, tracing off), or None: the one gate, in trace_features."""
    return _service(ls).refusal()


def is_current(ls: Any, uri: str, entry: TraceEntry, version: int | None) -> bool:
    """Whether a result is of this version of the document (for a notebook cell: and of the cells above it)."""
    if entry.version != version:
        return False
    if entry.cells is None:
        return True
    from sharpbits.lsp.notebooks import cells_up_to

    return cells_up_to(ls, uri) == entry.cells


def current_results(ls: Any, uri: str, version: int | None) -> dict[str, TraceEntry]:
    """Trace results for this version of the document (none while tracing is not allowed)."""
    if tracing_refusal(ls) is not None:
        return {}
    return {name: entry for name, entry in _state(ls).get(uri, {}).items() if is_current(ls, uri, entry, version)}


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


def code_lenses(ls: Any, uri: str, version: int | None, functions: list[TracedFunction]) -> list[types.CodeLens]:
    results = _state(ls).get(uri, {})
    lenses = []
    for fn in functions:
        entry = results.get(fn.qualname)
        if entry is not None and is_current(ls, uri, entry, version):
            title = summary(entry.result)
        elif entry is not None:
            title = "↻ Trace (code changed)"
        else:
            title = "▶ Trace"
        line = fn.line - 1
        lenses.append(types.CodeLens(
            range=types.Range(types.Position(line, 0), types.Position(line, 0)),
            command=types.Command(title=title, command=_service(ls).lens_command,
                                  arguments=[{"uri": uri, "function": fn.qualname}]),
        ))
    return lenses


def trace_diagnostics(ls: Any, uri: str, version: int | None, lines: list[str]) -> list[types.Diagnostic]:
    """Errors JAX raised while tracing, at the user's line, next to the static findings."""
    out = []
    for name, entry in current_results(ls, uri, version).items():
        error = entry.result.get("error") or {}
        line = error.get("line")
        if entry.result.get("ok") or not isinstance(line, int) or line < 1 or error.get("type") == "SpecNeeded":
            continue
        text = lines[line - 1].rstrip("\r\n") if line <= len(lines) else ""
        start = len(text) - len(text.lstrip())
        message = (error.get("message") or "").strip().splitlines()
        out.append(types.Diagnostic(
            range=types.Range(types.Position(line - 1, start), types.Position(line - 1, len(text))),
            severity=types.DiagnosticSeverity.Error,
            source=TRACE_SOURCE,
            code=error.get("type"),
            message=f"{error.get('type')}: {message[0] if message else ''} (tracing `{name}`)",
        ))
    return out


def _jaxpr_block(result: TraceResult) -> str:
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
    from sharpbits.trace.render import _bytes, grid_text

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


def hover(ls: Any, uri: str, version: int | None, functions: list[TracedFunction], line: int, column: int) -> str | None:
    """Markdown for a traced function's name (jaxpr, device, figures) or a line inside it (its primitives)."""
    results = current_results(ls, uri, version)
    for fn in functions:
        entry = results.get(fn.qualname)
        if entry is None or not (fn.line <= line <= fn.end_line):
            continue
        result = entry.result
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
            return f"{head}\n\n{figures}\n\n{_jaxpr_block(result)}"
        prims = line_primitives(result).get(line)
        if prims:
            counts: dict[str, int] = {}
            for p in prims:
                counts[p] = counts.get(p, 0) + 1
            listing = ", ".join(f"`{p}`×{n}" if n > 1 else f"`{p}`" for p, n in counts.items())  # noqa: RUF001
            return f"line {line} of **{fn.qualname}** produced {len(prims)} jaxpr equations: {listing}"
    return None


def inlay_hints(ls: Any, uri: str, version: int | None, functions: list[TracedFunction], lines: list[str],
                first: int, last: int, settings: dict[str, Any]) -> list[types.InlayHint]:
    hints: list[types.InlayHint] = []
    results = current_results(ls, uri, version)
    for fn in functions:
        entry = results.get(fn.qualname)
        if entry is None or not entry.result.get("ok") or fn.end_line < first or fn.line > last:
            continue
        def_text = lines[fn.line - 1].rstrip("\r\n") if fn.line <= len(lines) else ""
        run = ((entry.result.get("timings") or {}).get("run") or {}).get("median_s")
        if run and settings.get("runTime", True):
            roof = entry.result.get("roofline")
            shown = roof is not None and "bound" in roof and settings.get("roofline", True)
            # the label stays within VS Code's 43 characters (editor.inlayHints.maximumLength, past which it is cut
            # with an ellipsis): the peak figure and where it came from are in the tooltip and the hover
            label = f"run {duration(run)}" + (f" · {roof['bound']}-bound: {100 * roof['fraction_of_peak']:.0f}% of peak"
                                              if shown and roof else "")
            tooltip = types.MarkupContent(types.MarkupKind.Markdown, f"roofline: {roofline_line(roof)}") \
                if shown and roof else None
            hints.append(types.InlayHint(position=types.Position(fn.line - 1, len(def_text)), label=label,
                                         tooltip=tooltip, padding_left=True))
        if settings.get("collectives", True):
            from sharpbits.trace.render import _bytes

            per_line: dict[int, list[str]] = {}
            for c in entry.result.get("collectives") or []:
                if isinstance(c["line"], int):
                    per_line.setdefault(c["line"], []).append(f"{c['op']} {_bytes(c['bytes'])}")
            for line, labels in sorted(per_line.items()):
                if fn.line < line <= fn.end_line and first <= line <= last and line <= len(lines):
                    text = lines[line - 1].rstrip("\r\n")
                    hints.append(types.InlayHint(position=types.Position(line - 1, len(text)),
                                                 label="  " + ", ".join(labels), padding_left=True))
        if settings.get("equations", True):
            for line, prims in sorted(line_primitives(entry.result).items()):
                if fn.line < line <= fn.end_line and first <= line <= last and line <= len(lines):
                    text = lines[line - 1].rstrip("\r\n")
                    hints.append(types.InlayHint(position=types.Position(line - 1, len(text)),
                                                 label=f"  {len(prims)} eqn{'s' if len(prims) != 1 else ''}",
                                                 padding_left=True))
    return hints


async def run_trace(ls: Any, uri: str, function: str, spec: str | None) -> TraceCommandResult:
    """Runs one trace (through the trace service), stores it for the version it traced, refreshes the views."""
    from sharpbits.lsp.trace_features import refused_result

    service = _service(ls)
    refused = service.refusal()
    if refused is not None:
        return {"ok": False, "refused": True, "error": refused_result(refused).get("error")}
    from sharpbits.lsp.notebooks import cell_trace_source, cells_up_to

    doc = ls.workspace.get_text_document(uri)
    version, text = doc.version, doc.source
    cell_source = cell_trace_source(ls, uri)  # a notebook cell: the cells up to it run first
    cells = cells_up_to(ls, uri)
    params: dict[str, Any] = {"uri": uri, "function": function, "show": ["jaxpr", "lines", "cost", "timing", "sharding"]}
    if cell_source is None:
        params["text"] = text
    if spec:
        params["args"] = spec
    result = await service.run(params, text, getattr(ls.workspace, "root_path", None), cell_source)
    if result.get("refused"):
        return {"ok": False, "refused": True, "error": result.get("error")}
    if ls.workspace.get_text_document(uri).version != version or cells_up_to(ls, uri) != cells:
        return {"ok": False, "stale": True}  # edited meanwhile: never show results of an old version
    if not result.get("needsSpec"):
        _state(ls).setdefault(uri, {})[function] = TraceEntry(version, result, cells)
    await refresh(ls, uri)
    out: TraceCommandResult = {"ok": bool(result.get("ok")), "needsSpec": bool(result.get("needsSpec")),
                               "summary": summary(result), "error": result.get("error"),
                               "device": result.get("device")}
    if "notebook" in result:  # which cells ran: the editor shows it
        out["note"] = result["notebook"]["note"]
    return out


async def refresh(ls: Any, uri: str) -> None:
    """Re-publish diagnostics (static + trace) and ask the client to re-query lenses and hints."""
    analysed = await ls.analyse(uri)
    if analysed is not None:
        ls.publish(uri, analysed)
    caps = ls.client_capabilities.workspace
    if caps is not None and caps.code_lens is not None and caps.code_lens.refresh_support:
        ls.workspace_code_lens_refresh(None)
    if caps is not None and caps.inlay_hint is not None and caps.inlay_hint.refresh_support:
        ls.workspace_inlay_hint_refresh(None)


async def auto_retrace(ls: Any, uri: str) -> None:
    """With `trace.autoRetrace`: re-trace the functions of this document that already have results, after an
    edit. A newer edit cancels the run in flight (its result would be for an old version anyway)."""
    service = _service(ls)
    if service.refusal() is not None or not service.settings.get("autoRetrace") or not service.results.get(uri):
        return
    tasks = service.retrace_tasks
    previous = tasks.pop(uri, None)
    if previous is not None:
        previous.cancel()

    async def retrace() -> None:
        for function, entry in list(_state(ls).get(uri, {}).items()):
            used = entry.result.get("spec")
            spec = used["text"] if used is not None and used["source"] == "explicit" else None
            await run_trace(ls, uri, function, spec)

    tasks[uri] = asyncio.get_running_loop().create_task(retrace())


def register_views(server: Any) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    async def code_lens(ls: Any, params: types.CodeLensParams) -> list[types.CodeLens] | None:
        if tracing_refusal(ls) is not None:
            return None
        analysed = await ls.analyse(params.text_document.uri)
        if analysed is None:
            return None
        return code_lenses(ls, params.text_document.uri, analysed.version, analysed.result.functions)

    @server.feature("sharpbits/tracedFunctions")
    async def traced_functions(ls: Any, params: Any) -> list[dict[str, Any]]:
        """The document's traceable functions (module-level or methods under a JAX transformation)."""
        uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
        analysed = await ls.analyse(uri) if uri else None
        if analysed is None:
            return []
        return [{"function": f.qualname, "line": f.line, "endLine": f.end_line, "reason": f.reason}
                for f in analysed.result.functions]

    @server.command(TRACE_COMMAND)
    async def trace_command(ls: Any, args: Any) -> TraceCommandResult:
        arg = args[0] if isinstance(args, list | tuple) and args else args
        arg = arg if isinstance(arg, dict) else getattr(arg, "__dict__", {})
        uri, function = arg.get("uri"), arg.get("function")
        if not uri or not function:
            return {"ok": False, "error": {"type": "InvalidParams", "message": "sharpbits.trace needs uri and function"}}
        return await run_trace(ls, uri, function, arg.get("args"))  # refuses when tracing is not allowed

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    async def inlay_hint(ls: Any, params: types.InlayHintParams) -> list[types.InlayHint] | None:
        uri = params.text_document.uri
        if not _state(ls).get(uri) or tracing_refusal(ls) is not None:
            return None
        analysed = await ls.analyse(uri)
        if analysed is None:
            return None
        settings = (_service(ls).settings.get("inlayHints") or {})
        return inlay_hints(ls, uri, analysed.version, analysed.result.functions, analysed.lines,
                           params.range.start.line + 1, params.range.end.line + 1, settings)


# ---- trace-confirmed findings ----------------------------------------------------------------------------------

LOOP_RULE = "python-loop-in-jit"
LARGE_LOOP_EQUATIONS = 500  # an unrolled loop this big is what makes compiles slow: raised to warning
SMALL_LOOP_EQUATIONS = 50  # below this the unrolling costs little: lowered to hint


def _loops(text: str) -> list[tuple[int, int]]:
    """(first line, last line) of every for/while loop in the document (stdlib ast: cheap, no libcst)."""
    import ast

    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    return [(n.lineno, n.end_lineno or n.lineno) for n in ast.walk(tree) if isinstance(n, ast.For | ast.While)]


def _loop_measure(result: TraceResult, first: int, last: int) -> tuple[int, int, float | None, float | None]:
    """Equations the loop's lines produced, the function's equations, its compile time (trace + lower + XLA)
    and the loop's share of it (proportional to its equations: each of the three stages grows with them)."""
    equations = (result.get("jaxpr") or {}).get("equations") or []
    lines = [e["line"] for e in equations]
    mine = sum(1 for line in lines if line is not None and first <= line <= last)
    total_s = (result.get("compile") or {}).get("total_s")
    share = total_s * mine / len(equations) if total_s is not None and equations else None
    return mine, len(equations), total_s, share


def _confirmation(mine: int, total: int, total_s: float | None, share: float | None) -> str:
    text = f"trace: unrolled into {mine:,} of {total:,} equations"
    if share is not None and total_s is not None:
        text += f", ≈{duration(share)} of the {duration(total_s)} compile"
    return text


def confirm_with_traces(ls: Any, uri: str, analysed: Any, diagnostics: list[types.Diagnostic]) -> None:
    """Measured facts correct the static ones. `diagnostics` are the static findings' diagnostics, in the order of
    `analysed.result.findings`: a python-loop-in-jit finding in a traced function gets its loop's measured
    equations and compile time, and is raised to warning when the loop is large or lowered to hint when small;
    a loop static analysis did not flag (e.g. over a list of layers) gets a warning when the trace shows it
    unrolled large. Each confirmed diagnostic carries `data.traceConfirmed`."""
    results = current_results(ls, uri, analysed.version)
    if not results:
        return
    functions = {fn.qualname: fn for fn in analysed.result.functions}
    traced = [(functions[name], entry.result) for name, entry in results.items()
              if name in functions and entry.result.get("ok") and (entry.result.get("jaxpr") or {}).get("equations")]
    if not traced:
        return
    text = "".join(analysed.lines)
    loops = {first: last for first, last in _loops(text)}
    flagged: set[int] = set()
    for finding, diagnostic in zip(analysed.result.findings, diagnostics, strict=True):
        if finding.rule != LOOP_RULE or finding.line not in loops:
            continue
        for fn, result in traced:
            if not fn.line <= finding.line <= fn.end_line:
                continue
            flagged.add(finding.line)
            mine, total, total_s, share = _loop_measure(result, finding.line, loops[finding.line])
            if diagnostic.severity != types.DiagnosticSeverity.Error:  # an error stays one (it raises)
                if mine >= LARGE_LOOP_EQUATIONS:
                    diagnostic.severity = types.DiagnosticSeverity.Warning
                elif mine < SMALL_LOOP_EQUATIONS:
                    diagnostic.severity = types.DiagnosticSeverity.Hint
            note = _confirmation(mine, total, total_s, share)
            diagnostic.message = f"{diagnostic.message} ({note})"
            diagnostic.data = {**(diagnostic.data or {}), "traceConfirmed": {
                "function": fn.qualname, "equations": mine, "compileShareSeconds": share}}
            break
    from sharpbits.analysis.rules import lookup

    rule = lookup(LOOP_RULE)
    for first, last in sorted(loops.items()):
        if any(first <= line <= last for line in flagged):
            continue  # it is (or holds) a loop the static finding already covers
        for fn, result in traced:
            if not fn.line < first <= fn.end_line:
                continue
            mine, total, total_s, share = _loop_measure(result, first, last)
            if mine < LARGE_LOOP_EQUATIONS:
                break
            line_text = analysed.lines[first - 1].rstrip("\r\n") if first <= len(analysed.lines) else ""
            start = len(line_text) - len(line_text.lstrip())
            diagnostics.append(types.Diagnostic(
                range=types.Range(types.Position(first - 1, start), types.Position(first - 1, len(line_text))),
                severity=types.DiagnosticSeverity.Warning,
                code=rule.code if rule else None,
                code_description=types.CodeDescription(href=rule.url()) if rule else None,
                source="sharpbits",
                message=f"Python loop inside `{fn.qualname}` is unrolled at trace time; use `lax.fori_loop` or "
                        f"`lax.scan` ({_confirmation(mine, total, total_s, share)}) [{LOOP_RULE}]",
                data={"rule": LOOP_RULE, "fixable": False, "traceConfirmed": {
                    "function": fn.qualname, "equations": mine, "compileShareSeconds": share}},
            ))
            break
