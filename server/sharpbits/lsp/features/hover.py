"""Hover: a finding's rule documentation; with a trace result of this version, a traced function's jaxpr and
figures, or the primitives a line produced (a finding under the cursor wins)."""

from __future__ import annotations

from lsprotocol import types

from sharpbits.analysis.rules import lookup
from sharpbits.lsp.language_server import SharpbitsServer
from sharpbits.lsp.trace_text import hover_markdown


def register(server: SharpbitsServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: SharpbitsServer, params: types.HoverParams) -> types.Hover | None:
        view = await ls.analyse(params.text_document.uri)
        if view is None:
            return None
        columns = view.columns(ls.workspace.position_codec)
        pos = columns.from_client(params.position)
        under = [f for f in view.result.findings if (f.line, f.column) <= pos <= (f.end_line, f.end_column)]
        if not under and ls.traces.refusal() is None:
            results = ls.traces.store.current(view.uri, view.version, view.cells)
            text = hover_markdown(results, view.result.functions, pos[0], pos[1]) if results else None
            if text is not None:
                return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))
        for f in under:
            rule = lookup(f.code)
            doc = rule.documentation() if rule is not None else ""
            text = f"**sharpbits {f.code} `{f.rule}`** — {f.message}\n\n---\n\n{doc}\n\n[Rule documentation]({f.url})"
            return types.Hover(
                contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
                range=columns.range(f),
            )
        return None
