"""Code actions, in Ruff's conventions: for each finding under the cursor its fix (`sharpbits (SB201): Split
`key` before its first use (unsafe)`) and a `sharpbits (SB201): Disable for this line` action that adds (or
extends) a `# noqa:` comment; "Fix all safe sharpbits problems" in the quick-fix menu (Ctrl+.) and as
`source.fixAll.sharpbits` (in a notebook also `notebook.source.fixAll.sharpbits` for every cell); a rule's rewrite
offered as a refactoring on its finding's lines when the cursor is not on the finding itself (the loop rewrite is
listed once).

Safety is each fix's own (`Fix.safe`, declared by its rule): safe = the program computes the same numbers and
every function keeps its signature. Only safe fixes are `isPreferred`, so Auto Fix (editor.action.autoFix) never
applies an unsafe one, and fix-all applies safe fixes only unless `sharpbits.codeActions.fixAllIncludesUnsafe`.
`sharpbits.codeActions.showUnsafeFixes` (on) and `...disableForThisLine` (on) choose what is offered.

Edits are computed when an action is resolved (libcst, off the event loop, in the server's fix pool: a fix built
in a child process is waited for there, not in an analysis thread); only fixes that exist are offered: for the
findings under the cursor they are built (and checked to parse) before the menu is answered.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from sharpbits.analysis.rules import lookup
from sharpbits.analysis.suppressions import NOQA, string_ends
from sharpbits.findings import Finding, Fix
from sharpbits.lsp.finding_diagnostic import to_diagnostic
from sharpbits.lsp.language_server import SharpbitsServer
from sharpbits.lsp.notebooks import NOTEBOOK_FIX_ALL_KIND
from sharpbits.lsp.views import Analysed, FixScope

FIX_ALL_KIND = "source.fixAll.sharpbits"
_CODES_END = re.compile(r"[\w\-]+(?:\s*,\s*[\w\-]+)*")


def _is_refactoring(f: Finding) -> bool:
    rule = lookup(f.code)
    return rule is not None and rule.fix_is_refactoring


def _supports_resolve(ls: SharpbitsServer) -> bool:
    caps = ls.client_capabilities.text_document
    code_action = caps.code_action if caps else None
    resolve = code_action.resolve_support if code_action else None
    return bool(resolve and "edit" in resolve.properties)


def _wants(only: Sequence[str] | None, kind: str, default: bool) -> bool:
    return default if only is None else any(kind.startswith(k) for k in only)


def fix_title(f: Finding, fix: Fix) -> str:
    """`sharpbits (SB201): Split `key` before its first use (unsafe)`."""
    title = f.fix_title or fix.description
    title = title[:1].upper() + title[1:]
    if not fix.safe:
        title = f"{title[:-1]}; unsafe)" if title.endswith(")") else f"{title} (unsafe)"
    return f"sharpbits ({f.code}): {title}"


def noqa_edit(view: Analysed, f: Finding, codec: Any) -> types.WorkspaceEdit | None:
    """The edit that silences the finding on its line: `  # noqa: SB201` at the end of its first line (where a
    string spanning lines that it ends in ends), or the code added to a `# noqa:` comment already there."""
    line = string_ends("".join(view.lines)).get(f.line, f.line)
    if not 1 <= line <= len(view.lines):
        return None
    text = view.lines[line - 1].rstrip("\r\n")
    existing = NOQA.search(text)
    if existing is not None and existing.group("codes") is not None:
        codes = _CODES_END.match(text, existing.start("codes"))
        at = codes.end() if codes else existing.end()
        start, end, new_text = at, at, f", {f.code}"
    else:
        stripped = len(text.rstrip())
        start, end, new_text = stripped, len(text), f"  # noqa: {f.code}"
    columns = view.columns(codec)
    edit = types.TextEdit(range=types.Range(columns.to_client(line, start + 1), columns.to_client(line, end + 1)),
                          new_text=new_text)
    doc = types.OptionalVersionedTextDocumentIdentifier(uri=view.uri, version=view.version)
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=doc, edits=[edit])])


def resolve_edit(ls: SharpbitsServer, action: types.CodeAction) -> types.CodeAction:
    """Fills in the action's edit (blocking). A document that changed since the action was offered gets no edit
    rather than a wrong one."""
    data: dict[str, Any] = action.data if isinstance(action.data, dict) else {}
    uri = data.get("uri")
    view = ls.latest(uri) if isinstance(uri, str) else None
    if view is None or view.version != data.get("version"):
        return action
    index = data.get("index", -1)
    index = index if isinstance(index, int) else -1
    if data.get("noqa"):
        findings = view.result.findings
        edit = noqa_edit(view, findings[index], ls.workspace.position_codec) if 0 <= index < len(findings) else None
    else:
        scope: FixScope = "notebook" if data.get("notebook") else "document"
        edit = view.fixes.edit(None if data.get("fixAll") else index, scope, ls.workspace.position_codec,
                               unsafe=bool(data.get("fixAll")) and ls.settings.code_actions.fix_all_includes_unsafe)
    if edit is not None:
        action.edit = edit
    return action


def _build(view: Analysed, findings: list[Finding]) -> None:
    """The fixes of these findings, built (blocking): their safety decides the title and the preferred flag."""
    view.fixes.prepare(findings)
    for f in findings:
        if view.fixes.offers(f):
            f.fix()


def register(server: SharpbitsServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite, FIX_ALL_KIND,
                               NOTEBOOK_FIX_ALL_KIND],
            resolve_provider=True,
        ),
    )
    async def code_action(ls: SharpbitsServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        view = await ls.analyse(uri)
        if view is None or view.result.syntax_error is not None:
            return None
        settings = ls.settings.code_actions
        only = params.context.only
        columns = view.columns(ls.workspace.position_codec)
        start = columns.from_client(params.range.start)
        end = columns.from_client(params.range.end)
        findings = view.result.findings

        def under_cursor(f: Finding) -> bool:
            return not ((f.end_line, f.end_column) < start or (f.line, f.column) > end)

        def on_its_lines(f: Finding) -> bool:
            return _is_refactoring(f) and f.line <= start[0] <= f.end_line

        near = [f for f in findings if f.fixable and (under_cursor(f) or on_its_lines(f))]
        if near:  # build the fixes under the cursor (and check each parses) off the event loop
            await asyncio.get_running_loop().run_in_executor(ls.fix_pool, _build, view, near)

        def usable(f: Finding) -> Fix | None:
            fix = f.fix() if f.fixable and view.fixes.offers(f) else None  # one that would not parse is withheld
            return fix if fix is not None and (fix.safe or settings.show_unsafe_fixes) else None

        resolve = _supports_resolve(ls)
        actions: list[types.CodeAction] = []

        def offer(action: types.CodeAction) -> None:
            actions.append(action if resolve else resolve_edit(ls, action))

        offered: set[int] = set()
        if _wants(only, types.CodeActionKind.QuickFix, True):
            for index, f in enumerate(findings):
                if not under_cursor(f):
                    continue
                diagnostic = to_diagnostic(f, columns, ls.settings)
                fix = usable(f)
                if fix is not None:
                    offered.add(index)
                    offer(types.CodeAction(
                        title=fix_title(f, fix),
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        is_preferred=fix.safe,  # Auto Fix and fix-all-on-save apply preferred fixes only
                        data={"uri": uri, "version": view.version, "index": index},
                    ))
                if settings.disable_for_this_line:
                    offer(types.CodeAction(
                        title=f"sharpbits ({f.code}): Disable for this line",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        data={"uri": uri, "version": view.version, "index": index, "noqa": True},
                    ))
            if any(f.fixable and under_cursor(f) for f in findings) and view.fixes.can_fix_all("document"):
                offer(types.CodeAction(
                    title=_fix_all_title(settings.fix_all_includes_unsafe, ""),
                    kind=types.CodeActionKind.QuickFix,
                    data={"uri": uri, "version": view.version, "fixAll": True},
                ))
        if _wants(only, types.CodeActionKind.RefactorRewrite, True):
            # a rule's rewrite (e.g. "Rewrite as lax.fori_loop") on its finding's lines, diagnostic or not; listed
            # once: not again when the same fix is in the quick fixes above
            for index, f in enumerate(findings):
                fix = usable(f) if on_its_lines(f) and index not in offered else None
                if fix is not None:
                    offer(types.CodeAction(
                        title=fix_title(f, fix),
                        kind=types.CodeActionKind.RefactorRewrite,
                        data={"uri": uri, "version": view.version, "index": index},
                    ))
        if _wants(only, NOTEBOOK_FIX_ALL_KIND, False) and view.fixes.can_fix_all("notebook"):
            offer(types.CodeAction(
                title=_fix_all_title(settings.fix_all_includes_unsafe, " in the notebook"),
                kind=NOTEBOOK_FIX_ALL_KIND,
                data={"uri": uri, "version": view.version, "fixAll": True, "notebook": True},
            ))
        if _wants(only, FIX_ALL_KIND, False) and view.fixes.can_fix_all("document"):
            offer(types.CodeAction(
                title=_fix_all_title(settings.fix_all_includes_unsafe, ""),
                kind=FIX_ALL_KIND,
                data={"uri": uri, "version": view.version, "fixAll": True},
            ))
        return actions or None

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(ls: SharpbitsServer, action: types.CodeAction) -> types.CodeAction:
        return await asyncio.get_running_loop().run_in_executor(ls.fix_pool, resolve_edit, ls, action)


def _fix_all_title(unsafe: bool, where: str) -> str:
    return f"Fix all sharpbits problems{where} (unsafe fixes too)" if unsafe else f"Fix all safe sharpbits problems{where}"
