"""Code actions: quick fixes for the findings under the cursor, a rule's rewrite offered as a refactoring, and
"fix all" (`source.fixAll.sharpbits`; in a notebook also `notebook.source.fixAll.sharpbits` for every cell).

Edits are computed when an action is resolved (libcst, off the event loop); only fixes that exist are offered:
for the findings under the cursor they are built (and checked to parse) before the menu is answered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from sharpbits.analysis.rules import lookup
from sharpbits.findings import Finding
from sharpbits.lsp.finding_diagnostic import to_diagnostic
from sharpbits.lsp.language_server import SharpbitsServer
from sharpbits.lsp.notebooks import NOTEBOOK_FIX_ALL_KIND
from sharpbits.lsp.views import FixScope

FIX_ALL_KIND = "source.fixAll.sharpbits"


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


def resolve_edit(ls: SharpbitsServer, action: types.CodeAction) -> types.CodeAction:
    """Fills in the action's edit (blocking). A document that changed since the action was offered gets no edit
    rather than a wrong one."""
    data: dict[str, Any] = action.data if isinstance(action.data, dict) else {}
    uri = data.get("uri")
    view = ls.latest(uri) if isinstance(uri, str) else None
    if view is None or view.version != data.get("version"):
        return action
    scope: FixScope = "notebook" if data.get("notebook") else "document"
    index = data.get("index", -1)
    edit = view.fixes.edit(None if data.get("fixAll") else index if isinstance(index, int) else -1, scope,
                           ls.workspace.position_codec)
    if edit is not None:
        action.edit = edit
    return action


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
            await asyncio.get_running_loop().run_in_executor(ls.analysis_pool, view.fixes.prepare, near)
        resolve = _supports_resolve(ls)
        actions: list[types.CodeAction] = []

        def offer(action: types.CodeAction) -> None:
            actions.append(action if resolve else resolve_edit(ls, action))

        if _wants(only, types.CodeActionKind.QuickFix, True):
            for index, f in enumerate(findings):
                if f.fixable and under_cursor(f) and view.fixes.offers(f):  # (one that would not parse is withheld)
                    offer(types.CodeAction(
                        title=f"Fix: {f.fix_title or 'rewrite'}",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[to_diagnostic(f, columns)],
                        is_preferred=True,
                        data={"uri": uri, "version": view.version, "index": index},
                    ))
        if _wants(only, types.CodeActionKind.RefactorRewrite, True):
            # a rule's rewrite (e.g. "Rewrite as lax.fori_loop") on its finding's lines, diagnostic or not
            for index, f in enumerate(findings):
                if f.fixable and on_its_lines(f) and view.fixes.offers(f):
                    offer(types.CodeAction(
                        title=f.fix_title[:1].upper() + f.fix_title[1:],
                        kind=types.CodeActionKind.RefactorRewrite,
                        data={"uri": uri, "version": view.version, "index": index},
                    ))
        if _wants(only, NOTEBOOK_FIX_ALL_KIND, False) and view.fixes.can_fix_all("notebook"):
            offer(types.CodeAction(
                title="sharpbits: fix all safely fixable problems in the notebook",
                kind=NOTEBOOK_FIX_ALL_KIND,
                data={"uri": uri, "version": view.version, "fixAll": True, "notebook": True},
            ))
        if _wants(only, FIX_ALL_KIND, False) and view.fixes.can_fix_all("document"):
            offer(types.CodeAction(
                title="sharpbits: fix all safely fixable problems",
                kind=FIX_ALL_KIND,
                data={"uri": uri, "version": view.version, "fixAll": True},
            ))
        return actions or None

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(ls: SharpbitsServer, action: types.CodeAction) -> types.CodeAction:
        return await asyncio.get_running_loop().run_in_executor(ls.analysis_pool, resolve_edit, ls, action)
