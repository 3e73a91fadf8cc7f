"""Inlay hints from the trace of this version: the run time (and where it sits on the roofline) after a traced
function's `def` line, the collectives and the number of jaxpr equations after each line inside it (a line that
calls a helper or a transformation counts the equations it produced; the hints add up to the lens's count)."""

from __future__ import annotations

from lsprotocol import types

from sharpbits.lsp.language_server import SharpbitsServer
from sharpbits.lsp.settings import InlayHintSettings
from sharpbits.lsp.trace_text import line_equations, plural, roofline_line
from sharpbits.lsp.views import Analysed
from sharpbits.trace.protocol import TraceResult
from sharpbits.trace.render import _bytes, duration
from sharpbits.trace.roofline import percent


def hints(view: Analysed, results: dict[str, TraceResult], first: int, last: int,
          settings: InlayHintSettings) -> list[types.InlayHint]:
    out: list[types.InlayHint] = []
    lines = view.lines
    for fn in view.result.functions:
        result = results.get(fn.qualname)
        if result is None or not result.get("ok") or fn.end_line < first or fn.line > last:
            continue
        def_text = lines[fn.line - 1].rstrip("\r\n") if fn.line <= len(lines) else ""
        run = ((result.get("timings") or {}).get("run") or {}).get("median_s")
        if run and settings.run_time:
            roof = result.get("roofline")
            shown = roof is not None and "bound" in roof and settings.roofline
            # the label stays within VS Code's 43 characters (editor.inlayHints.maximumLength, past which it is cut
            # with an ellipsis): the peak figure and where it came from are in the tooltip and the hover
            label = f"run {duration(run)}" + (f" · {roof['bound']}-bound: {percent(roof['fraction_of_peak'])} of peak"
                                              if shown and roof else "")
            tooltip = types.MarkupContent(types.MarkupKind.Markdown, f"roofline: {roofline_line(roof)}") \
                if shown and roof else None
            out.append(types.InlayHint(position=types.Position(fn.line - 1, len(def_text)), label=label,
                                       tooltip=tooltip, padding_left=True))
        if settings.collectives:
            per_line: dict[int, list[str]] = {}
            for c in result.get("collectives") or []:
                if isinstance(c["line"], int):
                    per_line.setdefault(c["line"], []).append(f"{c['op']} {_bytes(c['bytes'])}")
            for line, labels in sorted(per_line.items()):
                if fn.line < line <= fn.end_line and first <= line <= last and line <= len(lines):
                    text = lines[line - 1].rstrip("\r\n")
                    out.append(types.InlayHint(position=types.Position(line - 1, len(text)),
                                               label="  " + ", ".join(labels), padding_left=True))
        if settings.equations:
            # each line's share of the one count (JaxprInfo.by_line: a call's line counts what it calls), so the
            # hints of a function add up to the lens's figure
            for line, entry in sorted(line_equations(result).items()):
                if fn.line < line <= fn.end_line and first <= line <= last and line <= len(lines):
                    text = lines[line - 1].rstrip("\r\n")
                    out.append(types.InlayHint(position=types.Position(line - 1, len(text)),
                                               label=f"  {plural(entry['equations'], 'eqn')}", padding_left=True))
    return out


def register(server: SharpbitsServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    async def inlay_hint(ls: SharpbitsServer, params: types.InlayHintParams) -> list[types.InlayHint] | None:
        uri = params.text_document.uri
        if not ls.traces.store.of_document(uri) or ls.traces.refusal() is not None:
            return None
        view = await ls.analyse(uri)
        if view is None:
            return None
        results = ls.traces.store.current(uri, view.version, view.cells)
        return hints(view, results, params.range.start.line + 1, params.range.end.line + 1,
                     ls.traces.settings.inlay_hints)
