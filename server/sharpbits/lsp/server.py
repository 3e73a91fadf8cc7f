"""The language server: a thin layer that turns engine findings into LSP diagnostics, code actions and hovers.

Per-keystroke path: didChange -> debounce -> `analyze()` in a worker thread (never on the event loop) -> publish,
but only if the document is still at the version that was analysed. Fixes (libcst) are built only when a code
action is resolved. Nothing here imports jax.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from sharpbits import __version__
from sharpbits.analysis.engine import AnalysisResult, analyze
from sharpbits.analysis.rules import lookup
from sharpbits.config import Config, ConfigError, load_config
from sharpbits.findings import Finding, Fix, non_overlapping, parses_after
from sharpbits.lsp import notebooks
from sharpbits.lsp.positions import from_client, range_to_client
from sharpbits.lsp.trace_features import TraceService
from sharpbits.source import split_lines

log = logging.getLogger("sharpbits.lsp")

FIX_ALL_KIND = "source.fixAll.sharpbits"
DEFAULT_DEBOUNCE_S = 0.15
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


@dataclass
class Analysed:
    """The latest analysis of one document, kept for code actions and hover (one per open document)."""

    version: int | None
    lines: list[str]
    result: AnalysisResult


class SharpbitsServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("sharpbits", __version__, max_workers=4, notebook_document_sync=notebooks.NOTEBOOK_SYNC)
        self.analysis_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sharpbits-analysis")
        self.analysed: dict[str, Analysed] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.config = Config()  # [tool.sharpbits] of the workspace, with the editor's settings on top
        self.debounce_s = DEFAULT_DEBOUNCE_S
        self.traces = TraceService()  # tracing's settings, gate, workers and results (lsp/trace_features.py)

    # ---- analysis ------------------------------------------------------------------------------------------

    def schedule(self, uri: str, delay: float) -> None:
        """(Re)starts the analysis of a document after `delay`; a newer call cancels an older pending one."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        task = asyncio.get_running_loop().create_task(self._analyse_and_publish(uri, delay))
        self.pending[uri] = task
        task.add_done_callback(lambda t: self.pending.pop(uri, None) if self.pending.get(uri) is t else None)

    async def _analyse_and_publish(self, uri: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        analysed = await self.analyse(uri)
        if analysed is None:
            return
        if analysed.result.syntax_error is not None:
            # Mid-typing: keep what the editor shows (it moves markers with the text); Python's own
            # tooling reports the syntax error itself.
            return
        self.publish(uri, analysed)
        if delay and self.traces.results:
            from sharpbits.lsp.trace_views import auto_retrace

            await auto_retrace(self, uri)

    async def analyse(self, uri: str) -> Analysed | None:
        """The analysis of the document's current version (cached), or None if it changed meanwhile."""
        if notebooks.notebook_of(self, uri) is not None:  # a notebook cell: its view of the notebook's analysis
            return await notebooks.analyse_cell(self, uri)
        doc = self.workspace.get_text_document(uri)
        version, text = doc.version, doc.source
        cached = self.analysed.get(uri)
        if cached is not None and cached.version == version and version is not None:
            return cached
        path = to_fs_path(uri) or uri
        loop = asyncio.get_running_loop()
        try:
            selection = self.config.selection_for(path)
            result = await loop.run_in_executor(self.analysis_pool, analyze, text, path, selection)
        except Exception as exc:  # a bug of ours must not take the server down: log it, keep serving
            log.exception("analysis failed for %s", uri)
            self.window_log_message(
                types.LogMessageParams(types.MessageType.Error, f"sharpbits: analysis of {uri} failed: {exc!r}")
            )
            return None
        if self.workspace.get_text_document(uri).version != version:
            return None  # a newer edit arrived; its own analysis will publish
        analysed = Analysed(version, split_lines(text), result)
        self.analysed[uri] = analysed
        return analysed

    def publish(self, uri: str, analysed: Analysed) -> None:
        diagnostics = [self.diagnostic(f, analysed.lines) for f in analysed.result.findings]
        if self.traces.results:
            from sharpbits.lsp.trace_views import confirm_with_traces, trace_diagnostics

            confirm_with_traces(self, uri, analysed, diagnostics)  # measured loop sizes correct the static ones
            diagnostics += trace_diagnostics(self, uri, analysed.version, analysed.lines)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=analysed.version, diagnostics=diagnostics)
        )

    def diagnostic(self, f: Finding, lines: list[str]) -> types.Diagnostic:
        return types.Diagnostic(
            range=range_to_client(lines, f, self.workspace.position_codec),
            severity=_SEVERITY[f.severity],
            code=f.code,
            code_description=types.CodeDescription(href=f.url) if f.url else None,
            source="sharpbits",
            message=f"{f.message} [{f.rule}]",
            data={"rule": f.rule, "fixable": f.fixable},
        )

    # ---- code actions --------------------------------------------------------------------------------------

    def supports_resolve(self) -> bool:
        caps = self.client_capabilities.text_document
        code_action = caps.code_action if caps else None
        resolve = code_action.resolve_support if code_action else None
        return bool(resolve and "edit" in resolve.properties)

    def workspace_edit(self, uri: str, analysed: Analysed, fixes: list[Fix]) -> types.WorkspaceEdit:
        edits = []
        codec = self.workspace.position_codec
        for fix in fixes:
            for e in fix.edits:
                start = codec.position_to_client_units(analysed.lines, types.Position(e.line - 1, e.column - 1))
                end = codec.position_to_client_units(analysed.lines, types.Position(e.end_line - 1, e.end_column - 1))
                edits.append(types.TextEdit(range=types.Range(start, end), new_text=e.new_text))
        doc = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=analysed.version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=doc, edits=edits)])

    def resolve_edit(self, action: types.CodeAction) -> types.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        uri = data.get("uri")
        if isinstance(uri, str) and notebooks.notebook_of(self, uri) is not None:  # edits may span cells
            return notebooks.resolve_edit(self, action)
        analysed = self.analysed.get(uri) if isinstance(uri, str) else None
        if analysed is None or not isinstance(uri, str) or analysed.version != data.get("version"):
            return action  # the document changed: no edit rather than a wrong one
        findings = analysed.result.findings
        if data.get("fixAll"):
            fixes = non_overlapping([f.fix() for f in findings if f.fixable], safe_only=True)
        else:
            index = data.get("index", -1)
            fix = findings[index].fix() if 0 <= index < len(findings) else None
            fixes = [fix] if fix is not None else []
        if fixes and parses_after("".join(analysed.lines), fixes):
            action.edit = self.workspace_edit(uri, analysed, fixes)
        return action


server = SharpbitsServer()


@server.feature(types.INITIALIZE)
def on_initialize(ls: SharpbitsServer, params: types.InitializeParams) -> None:
    options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
    root = params.root_uri or (params.workspace_folders[0].uri if params.workspace_folders else None)
    apply_settings(ls, options, to_fs_path(root) if root else None)


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def on_configuration(ls: SharpbitsServer, params: types.DidChangeConfigurationParams) -> None:
    settings = params.settings.get("sharpbits", params.settings) if isinstance(params.settings, dict) else {}
    if isinstance(settings, dict):
        apply_settings(ls, settings, str(ls.config.root) if ls.config.root else None)
        ls.analysed.clear()
        for uri in list(ls.workspace.text_documents):
            if notebooks.notebook_of(ls, uri) is None:
                ls.schedule(uri, 0)
        notebooks.reanalyse_all(ls)
        caps = ls.client_capabilities.workspace
        if caps is not None and caps.code_lens is not None and caps.code_lens.refresh_support:
            ls.workspace_code_lens_refresh(None)  # Trace lenses come or go with trust and trace.enabled


RULE_SETTINGS = ("select", "ignore", "severity", "per-file-ignores")


def apply_settings(ls: SharpbitsServer, settings: dict[str, Any], root: str | None) -> None:
    """Editor settings (`sharpbits.*`, sent as initializationOptions or didChangeConfiguration) on top of the
    workspace's [tool.sharpbits]: debounce, rule selection, severities."""
    debounce = settings.get("debounceMs")
    if isinstance(debounce, int | float) and 0 <= debounce <= 5000:
        ls.debounce_s = debounce / 1000
    try:
        file_config = load_config(Path(root)) if root else Config()
    except ConfigError as exc:
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Warning, f"sharpbits: {exc}"))
        file_config = Config()
    editor = {k: v for k, v in settings.items() if k in RULE_SETTINGS and v not in (None, [], {})}
    try:
        ls.config = file_config.merged(Config.from_mapping(editor, where="editor settings (sharpbits.*)"))
    except ConfigError as exc:
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Warning, f"sharpbits: {exc}"))
        ls.config = file_config
    ls.traces.configure(settings)  # trust, trace.* and the editor's own lens command


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: SharpbitsServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: SharpbitsServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, ls.debounce_s)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
async def did_close(ls: SharpbitsServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    task = ls.pending.pop(uri, None)
    if task is not None:
        task.cancel()
    ls.analysed.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite, FIX_ALL_KIND,
                           notebooks.NOTEBOOK_FIX_ALL_KIND],
        resolve_provider=True,
    ),
)
async def code_action(ls: SharpbitsServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    uri = params.text_document.uri
    analysed = await ls.analyse(uri)
    if analysed is None or analysed.result.syntax_error is not None:
        return None
    only = params.context.only
    want_quickfix = only is None or any(types.CodeActionKind.QuickFix.startswith(k) for k in only)
    want_fix_all = only is not None and any(FIX_ALL_KIND.startswith(k) for k in only)
    want_refactor = only is None or any(types.CodeActionKind.RefactorRewrite.startswith(k) for k in only)
    start = from_client(analysed.lines, params.range.start, ls.workspace.position_codec)
    end = from_client(analysed.lines, params.range.end, ls.workspace.position_codec)
    actions: list[types.CodeAction] = []
    findings = analysed.result.findings
    resolve = ls.supports_resolve()
    # Offer only fixes that exist: building them (and checking that the document still parses with each) runs
    # off the event loop, for the findings under the cursor only.
    # (A notebook cell's findings are views of the notebook's; their fixes are built when resolved.)
    in_notebook = notebooks.notebook_of(ls, uri) is not None
    near = [] if in_notebook else [f for f in findings if (f.fixable and not (
        (f.end_line, f.end_column) < start or (f.line, f.column) > end)) or (
        f.rule == "python-loop-in-jit" and f.fixable and f.line <= start[0] <= f.end_line)]
    if near:
        await asyncio.get_running_loop().run_in_executor(ls.analysis_pool, lambda: [f.fix() for f in near])

    def withheld(f: Finding) -> bool:
        return not in_notebook and f.fix() is None
    if want_quickfix:
        for index, f in enumerate(findings):
            if not f.fixable or (f.end_line, f.end_column) < start or (f.line, f.column) > end:
                continue
            if withheld(f):
                continue  # it would not parse
            action = types.CodeAction(
                title=f"Fix: {f.fix_title or 'rewrite'}",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[ls.diagnostic(f, analysed.lines)],
                is_preferred=True,
                data={"uri": uri, "version": analysed.version, "index": index},
            )
            actions.append(action if resolve else ls.resolve_edit(action))
    if want_refactor:
        # "Rewrite as lax.fori_loop" on any traced loop under the cursor, diagnostic or not (e.g. info level)
        for index, f in enumerate(findings):
            if f.rule == "python-loop-in-jit" and f.fixable and f.line <= start[0] <= f.end_line and not withheld(f):
                action = types.CodeAction(
                    title=f.fix_title[:1].upper() + f.fix_title[1:],
                    kind=types.CodeActionKind.RefactorRewrite,
                    data={"uri": uri, "version": analysed.version, "index": index},
                )
                actions.append(action if resolve else ls.resolve_edit(action))
    if only is not None and any(notebooks.NOTEBOOK_FIX_ALL_KIND.startswith(k) for k in only):
        notebook_fix_all = notebooks.fix_all_action(ls, uri, analysed)
        if notebook_fix_all is not None:
            actions.append(notebook_fix_all if resolve else ls.resolve_edit(notebook_fix_all))
    if want_fix_all and any(f.fixable for f in findings):
        action = types.CodeAction(
            title="sharpbits: fix all safely fixable problems",
            kind=FIX_ALL_KIND,
            data={"uri": uri, "version": analysed.version, "fixAll": True},
        )
        actions.append(action if resolve else ls.resolve_edit(action))
    return actions or None


@server.feature(types.CODE_ACTION_RESOLVE)
async def code_action_resolve(ls: SharpbitsServer, action: types.CodeAction) -> types.CodeAction:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(ls.analysis_pool, ls.resolve_edit, action)


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: SharpbitsServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    analysed = await ls.analyse(uri)
    if analysed is None:
        return None
    pos = from_client(analysed.lines, params.position, ls.workspace.position_codec)
    if ls.traces.results:
        from sharpbits.lsp.trace_views import hover as trace_hover

        text = trace_hover(ls, uri, analysed.version, analysed.result.functions, pos[0], pos[1])
        if text is not None and not any((f.line, f.column) <= pos <= (f.end_line, f.end_column)
                                         for f in analysed.result.findings):
            return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))
    for f in analysed.result.findings:
        if (f.line, f.column) <= pos <= (f.end_line, f.end_column):
            rule = lookup(f.code)
            doc = rule.documentation() if rule is not None else ""
            text = f"**sharpbits {f.code} `{f.rule}`** — {f.message}\n\n---\n\n{doc}\n\n[Rule documentation]({f.url})"
            return types.Hover(
                contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
                range=range_to_client(analysed.lines, f, ls.workspace.position_codec),
            )
    return None


def _register_tracing() -> None:
    """Live tracing adds its own requests (sharpbits/trace...) and views; it never imports jax into this process."""
    from sharpbits.lsp import trace_features
    from sharpbits.lsp.trace_views import register_views

    trace_features.register(server)
    register_views(server)


_register_tracing()
notebooks.register(server)


@server.feature(types.SHUTDOWN)
def on_shutdown(ls: SharpbitsServer, params: None) -> None:
    ls.traces.shutdown()  # the trace workers exit with us


def serve_stdio() -> None:
    """Runs the server on stdin/stdout. Anything else that writes to stdout (a stray print, a C library) goes
    to stderr instead, so it can never corrupt the protocol stream."""
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    logging.basicConfig(level=os.environ.get("SHARPBITS_LOG_LEVEL", "WARNING"), stream=sys.stderr)
    server.start_io(sys.stdin.buffer, protocol_out)
