"""Hover: on a finding, a short card (the rule, why in one line, the fix, a link to the rule page); with a trace
result of this version, a traced function's jaxpr and figures, or the primitives a line produced (a finding under
the cursor wins).

The finding's message is not repeated: the editor shows the diagnostic (message, `sharpbits(SB201)`) right above
a hover on it. The whole rule page stays behind the link (finding_diagnostic.docs_link: `sharpbits.docsUrl`, or
the page of the installed version).
"""

from __future__ import annotations

import asyncio
import re

from lsprotocol import types

from sharpbits.analysis.rules import lookup
from sharpbits.findings import Finding, Fix
from sharpbits.lsp.finding_diagnostic import docs_link
from sharpbits.lsp.language_server import SharpbitsServer
from sharpbits.lsp.settings import EditorSettings
from sharpbits.lsp.trace_text import hover_markdown
from sharpbits.lsp.views import Analysed

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(*])")
WHY_MAX = 240  # characters of the one-line "why"


def one_line_why(why: str) -> str:
    """The first sentence of a rule's "why" (two when the first is short), on one line."""
    text = " ".join(why.split())
    sentences = _SENTENCE_END.split(text)
    out = sentences[0]
    if len(out) < 60 and len(sentences) > 1:
        out = f"{out} {sentences[1]}"
    return out if len(out) <= WHY_MAX else out[:WHY_MAX - 1].rstrip() + "…"


def finding_markdown(f: Finding, fix: Fix | None, settings: EditorSettings | None) -> str:
    """The card: `**sharpbits SB201** · prng-key-reuse`, why in one line, the fix (and whether it is safe), a link."""
    rule = lookup(f.rule)
    lines = [f"**sharpbits {f.code}** · `{f.rule}`"]
    if rule is not None and rule.name == f.rule:
        lines.append(one_line_why(rule.why))
    if fix is not None:
        title = f.fix_title or fix.description
        title = title[:1].upper() + title[1:]
        safety = "safe" if fix.safe else "unsafe: it may change the numbers or a signature, review it"
        hidden = not fix.safe and settings is not None and not settings.code_actions.show_unsafe_fixes
        where = "not offered: `sharpbits.codeActions.showUnsafeFixes` is off" if hidden else "in the quick fixes (Ctrl+.)"
        lines.append(f"**Fix** ({safety}): {title} — {where}")
    elif rule is not None:
        lines.append("**Fix:** by hand (no automatic fix here); the rule page shows what to use instead")
    link = docs_link(f, settings)
    if link:
        lines.append(f"[{f.code} {f.rule}: rule page]({link})")
    return "\n\n".join(lines)


def _fix_of(view: Analysed, f: Finding) -> Fix | None:
    """The finding's fix, built (blocking), or None where none is offered."""
    if not f.fixable:
        return None
    view.fixes.prepare([f])
    return f.fix() if view.fixes.offers(f) else None


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
        if not under:
            return None
        f = under[0]
        fix = await asyncio.get_running_loop().run_in_executor(ls.fix_pool, _fix_of, view, f)
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                         value=finding_markdown(f, fix, ls.settings)),
            range=columns.range(f),
        )
