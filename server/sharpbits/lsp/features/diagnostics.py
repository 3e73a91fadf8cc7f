"""Diagnostics: each fresh analysis of a document is published as its diagnostics, with what tracing measured.

Trace results of this version of the document add three things: errors JAX raised while tracing, at the user's
line (source `sharpbits (trace)`), what a trace found and went on past (a reused PRNG key, a warning), and measured facts that confirm or correct static findings (the rules decide
which: `engine.confirm_with_traces`); a confirmed diagnostic carries `data.traceConfirmed`.
"""

from __future__ import annotations

from lsprotocol import types
from pygls.uris import to_fs_path

from sharpbits.analysis.engine import confirm_with_traces
from sharpbits.analysis.measured import Measured
from sharpbits.lsp.analysis_process import MODEL
from sharpbits.lsp.finding_diagnostic import SEVERITY, to_diagnostic
from sharpbits.lsp.language_server import SharpbitsServer
from sharpbits.lsp.positions import ClientColumns
from sharpbits.lsp.settings import EditorSettings
from sharpbits.lsp.views import Analysed
from sharpbits.runtime import editor as runtime
from sharpbits.trace.protocol import TraceResult

TRACE_SOURCE = "sharpbits (trace)"


def register(server: SharpbitsServer) -> None:
    server.on_analysed(publish)


async def publish(ls: SharpbitsServer, view: Analysed, after_edit: bool) -> None:
    columns = view.columns(ls.workspace.position_codec)
    diagnostics = [to_diagnostic(f, columns, ls.settings) for f in view.result.findings]
    results = ls.traces.store.current(view.uri, view.version, view.cells) if ls.traces.refusal() is None else {}
    if results:
        confirm(view, results, diagnostics, columns, ls.settings)
        diagnostics += trace_errors(view, results)
    # the last "Run with sharpbits" (lsp/features/runtime.py), while the lines it saw are unchanged
    path = to_fs_path(view.uri) if view.cells is None and view.uri.startswith("file:") else None
    diagnostics += runtime.diagnostics(ls, path, view.uri, view.lines, columns)
    if view.result.stopped:
        diagnostics.append(stopped_notice(view.result.stopped, view.result.stopped_after_s))
    early = ls.published_early.pop(view.uri, None)
    if early is not None and early[0] == view.version and early[1] is view.result and not results and len(
            diagnostics) == len(view.result.findings):
        return  # lsp/early.py published exactly these (the same result, nothing added) before the server started
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=view.uri, version=view.version, diagnostics=diagnostics))


def stopped_notice(stopped: tuple[str, ...], after_s: float) -> types.Diagnostic:
    """Line 1 says which part of the analysis was stopped at the budget (lsp/analysis_process.py): its findings are
    missing, the other rules' are shown."""
    parts = ", ".join("building the model (no rule ran)" if s == MODEL else f"rule {s}" for s in stopped)
    return types.Diagnostic(
        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        severity=types.DiagnosticSeverity.Information,
        source="sharpbits",
        code="stopped",
        message=f"sharpbits: the analysis was stopped after {after_s * 1000:.0f} ms (sharpbits.analysisBudgetMs): "
                f"{parts} did not finish; the other rules' findings are shown",
    )


def measured(view: Analysed, results: dict[str, TraceResult]) -> list[Measured]:
    """What the traces of this version measured, per traced function with equations."""
    out = []
    for fn in view.result.functions:
        result = results.get(fn.qualname)
        equations = (result.get("jaxpr") or {}).get("equations") if result is not None and result.get("ok") else None
        if equations:
            lines = tuple(e["line"] if isinstance(e.get("line"), int) else None for e in equations)
            out.append(Measured(fn.qualname, fn.line, fn.end_line, fn.loops, lines,
                                (result.get("compile") or {}).get("total_s")))  # type: ignore[union-attr]
    return out


def confirm(view: Analysed, results: dict[str, TraceResult], diagnostics: list[types.Diagnostic],
            columns: ClientColumns, settings: EditorSettings | None = None) -> None:
    """Measured facts correct the static ones. `diagnostics`: the static findings' diagnostics, in order."""
    confirmations = confirm_with_traces(view.result, measured(view, results), view.lines)
    for index, confirmation in confirmations.confirmed.items():
        diagnostic = diagnostics[index]
        if confirmation.severity is not None:
            diagnostic.severity = SEVERITY[confirmation.severity]
        diagnostic.message = f"{diagnostic.message} ({confirmation.note})"
        diagnostic.data = {**(diagnostic.data or {}), "traceConfirmed": confirmation.data()}
    for finding, confirmation in confirmations.found:
        diagnostic = to_diagnostic(finding, columns, settings)
        diagnostic.data = {**(diagnostic.data or {}), "traceConfirmed": confirmation.data()}
        diagnostics.append(diagnostic)


def trace_errors(view: Analysed, results: dict[str, TraceResult]) -> list[types.Diagnostic]:
    """Errors JAX raised while tracing, at the user's line, next to the static findings."""
    out = []
    for name, result in results.items():
        error = result.get("error") or {}
        line = error.get("line")
        if result.get("ok") or not isinstance(line, int) or line < 1 or error.get("type") == "SpecNeeded":
            continue
        text = view.lines[line - 1].rstrip("\r\n") if line <= len(view.lines) else ""
        start = len(text) - len(text.lstrip())
        message = (error.get("message") or "").strip().splitlines()
        out.append(types.Diagnostic(
            range=types.Range(types.Position(line - 1, start), types.Position(line - 1, len(text))),
            severity=types.DiagnosticSeverity.Error,
            source=TRACE_SOURCE,
            code=error.get("type"),
            message=f"{error.get('type')}: {message[0] if message else ''} (tracing `{name}`)",
        ))
    for name, result in results.items():  # what a trace found and went on past (a reused key): warnings
        for finding in result.get("findings") or [] if result.get("ok") else []:
            line = finding.get("line")
            if not isinstance(line, int) or not 0 < line <= len(view.lines):
                continue
            text = view.lines[line - 1].rstrip("\r\n")
            message = (finding.get("message") or "").strip().splitlines()
            out.append(types.Diagnostic(
                range=types.Range(types.Position(line - 1, len(text) - len(text.lstrip())),
                                  types.Position(line - 1, len(text))),
                severity=types.DiagnosticSeverity.Warning, source=TRACE_SOURCE, code=finding.get("type"),
                message=f"{finding.get('type')}: {message[0] if message else ''} (tracing `{name}`; the trace "
                        "went on without the check)"))
    return out
