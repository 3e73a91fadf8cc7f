"""The language server: a thin layer that turns engine findings into LSP diagnostics, code actions and hovers.

Per-keystroke path: didChange -> debounce -> `analyze()` in a worker thread (never on the event loop) -> publish,
but only if the document is still at the version that was analysed. Fixes (libcst) are built only when a code
action is resolved. Nothing here imports jax.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from sharpbits import __version__
from sharpbits.analysis.engine import AnalysisResult
from sharpbits.analysis.incremental import DocumentAnalyses, tune_garbage_collector
from sharpbits.analysis.rules import lookup
from sharpbits.config import Config, ConfigError, load_config
from sharpbits.findings import Finding, Fix, non_overlapping, parses_after
from sharpbits.lsp import framing, notebooks
from sharpbits.lsp.positions import ClientColumns
from sharpbits.lsp.trace_features import TraceService
from sharpbits.source import split_lines

log = logging.getLogger("sharpbits.lsp")

FIX_ALL_KIND = "source.fixAll.sharpbits"
DEFAULT_DEBOUNCE_S = 0.15
DEFAULT_MAX_FILE_SIZE_KB = 4096  # a generated data module of 54 MB is skipped with a message, not analysed
DEFAULT_ANALYSIS_TIMEOUT_MS = 10_000
BOM = "\ufeff"
SLOW_ANALYSIS_S = 0.3  # a document whose analysis takes longer gets a debounce as long as its analysis
MIN_DEBOUNCE_S = 0.05  # shorter than a typist's pause between keys, longer than a burst of changes
MAX_WAIT_FACTOR = 2.0  # a change is analysed at the latest this many debounces after it, however fast the typing
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
    bom: bool = False  # the document starts with U+FEFF, which the analysis did not see (shifts line 1 by one)

    def columns(self, codec: Any) -> ClientColumns:
        return ClientColumns(self.lines, codec, 1 if self.bom else 0)


class SharpbitsServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("sharpbits", __version__, max_workers=4, notebook_document_sync=notebooks.NOTEBOOK_SYNC,
                         protocol_cls=framing.NotificationFuturesReleased)
        self.analysis_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sharpbits-analysis")
        self.analysed: dict[str, Analysed] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.waiting_since: dict[str, float] = {}  # the first change of a document not analysed yet
        # at most one analysis per document at a time: a slow document occupies one analysis thread, never both
        self.running: dict[str, asyncio.Future[Any]] = {}
        self.published_once: set[str] = set()  # documents whose findings were published since they were opened
        self.analysis_seconds: dict[str, float] = {}  # how long the document's last analysis took (for debounce)
        self.config = Config()  # [tool.sharpbits] of the workspace, with the editor's settings on top
        self.debounce_s = DEFAULT_DEBOUNCE_S
        self.traces = TraceService()  # tracing's settings, gate, workers and results (lsp/trace_features.py)
        # one incremental analysis per open document: a version seen again, or an edit inside one statement, reuses work
        self.incremental = DocumentAnalyses()
        self.max_file_size_kb: float = DEFAULT_MAX_FILE_SIZE_KB
        self.analysis_timeout_s = DEFAULT_ANALYSIS_TIMEOUT_MS / 1000

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A failing handler is our bug: it goes to the log (and a request gets its JSON-RPC error), never as a
        pop-up "Error in server: ..." in the user's window."""
        log.error("%s: %s", getattr(source, "__name__", source), error)
        with contextlib.suppress(Exception):
            self.window_log_message(types.LogMessageParams(types.MessageType.Error, f"sharpbits: {error}"))

    def delay_for(self, uri: str) -> float:
        """The debounce after an edit, adapted to the document's last analysis time. A slow document waits as
        long as its analysis takes (at most 2 s), so it is analysed about every other keystroke pause instead of
        queueing. A fast one waits only as long as its analysis takes, at least `MIN_DEBOUNCE_S` (a burst of
        changes from a paste, multi-cursor edit or formatter still arrives as one) and at most the configured
        debounce: typing at 100 ms a key in a 1,000-line module (35 ms an analysis) gets diagnostics for every
        version instead of only after the typing stops."""
        took = self.analysis_seconds.get(uri)
        if took is None:
            return self.debounce_s
        if took > SLOW_ANALYSIS_S:
            return max(self.debounce_s, min(took, 2.0))
        return min(self.debounce_s, max(took, MIN_DEBOUNCE_S))

    # ---- analysis ------------------------------------------------------------------------------------------

    def schedule(self, uri: str, delay: float) -> None:
        """(Re)starts the analysis of a document after `delay`; a newer call cancels an older pending one. A
        change never waits longer than `MAX_WAIT_FACTOR` debounces in all: someone typing faster than the
        debounce still gets diagnostics every so often, not only when they stop."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        if delay:
            now = time.monotonic()
            since = self.waiting_since.setdefault(uri, now)
            delay = min(delay, max(0.0, since + MAX_WAIT_FACTOR * delay - now))
        task = asyncio.get_running_loop().create_task(self._analyse_and_publish(uri, delay))
        self.pending[uri] = task
        task.add_done_callback(lambda t: self.pending.pop(uri, None) if self.pending.get(uri) is t else None)

    async def _analyse_and_publish(self, uri: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        self.waiting_since.pop(uri, None)
        analysed = await self.analyse(uri, publish_stale=True)
        if analysed is None:
            return
        if analysed.result.syntax_error is not None:
            # Mid-typing: keep what the editor shows (it moves markers with the text); Python's own
            # tooling reports the syntax error itself. A document that never parsed since it was opened (NUL
            # bytes, 1,000 nested brackets) says once why it has no findings.
            if uri not in self.published_once:
                error = analysed.result.syntax_error
                self.skipped(uri, analysed.version, f"it does not parse (line {error.line}: {error.message})")
            return
        self.published_once.add(uri)
        self.publish(uri, analysed)
        if delay and self.traces.results:
            from sharpbits.lsp.trace_views import auto_retrace

            await auto_retrace(self, uri)

    async def analyse(self, uri: str, publish_stale: bool = False) -> Analysed | None:
        """The analysis of the document's current version (cached), or None if the document is not open or it
        changed meanwhile. With `publish_stale`, a finished analysis of an older version is returned too (it is
        published with its version: a newer edit does not throw away a ready result)."""
        if notebooks.notebook_of(self, uri) is not None:  # a notebook cell: its view of the notebook's analysis
            return await notebooks.analyse_cell(self, uri)
        if uri not in self.workspace.text_documents:
            return None  # never read a file the editor did not open (nor fail on a URI that is not a file)
        doc = self.workspace.get_text_document(uri)
        version, text = doc.version, doc.source
        cached = self.analysed.get(uri)
        if cached is not None and cached.version == version and version is not None:
            return cached
        previous = self.running.get(uri)
        if previous is not None:  # this document's earlier analysis is still running: wait for it, not beside it
            await asyncio.wait([previous])
            return await self.analyse(uri, publish_stale)
        bom = text.startswith(BOM)
        if bom:
            text = text[1:]
        path = to_fs_path(uri) or uri
        size_kb = len(text) / 1024
        if size_kb > self.max_file_size_kb:
            self.skipped(uri, version, f"{size_kb / 1024:.1f} MB is above sharpbits.maxFileSizeKB "
                         f"({self.max_file_size_kb} KB)")
            return None
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        try:
            selection = self.config.selection_for(path)
            # From here on a newer edit no longer cancels this analysis: a ready result is published with its
            # version rather than thrown away, and the newer version's analysis follows it.
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]
            future = loop.run_in_executor(self.analysis_pool, self.incremental.update, uri, path, text, selection)
            self.running[uri] = future
            try:
                done, _ = await asyncio.wait([future], timeout=self.analysis_timeout_s)
                if not done:
                    self.skipped(uri, version, f"its analysis is taking longer than sharpbits.analysisTimeoutMs "
                                 f"({self.analysis_timeout_s * 1000:.0f} ms); findings follow when it finishes",
                                 waiting=True)
                result = await future
            finally:
                if self.running.get(uri) is future:
                    del self.running[uri]
        except Exception as exc:  # a bug of ours must not take the server down: log it, keep serving
            log.exception("analysis failed for %s", uri)
            self.window_log_message(
                types.LogMessageParams(types.MessageType.Error, f"sharpbits: analysis of {uri} failed: {exc!r}")
            )
            return None
        self.analysis_seconds[uri] = time.monotonic() - started
        if uri not in self.workspace.text_documents:
            return None  # closed meanwhile
        analysed = Analysed(version, split_lines(text), result, bom)
        if self.workspace.get_text_document(uri).version != version:
            return analysed if publish_stale else None  # a newer edit arrived; its own analysis will publish
        self.analysed[uri] = analysed
        return analysed

    def skipped(self, uri: str, version: int | None, why: str, waiting: bool = False) -> None:
        """Says on the document (one diagnostic on line 1) and in the log that it was not analysed, and why."""
        message = f"sharpbits: {'analysis is slow' if waiting else 'this file was not analysed'}: {why}"
        self.window_log_message(types.LogMessageParams(types.MessageType.Info, f"{message} ({uri})"))
        diagnostic = types.Diagnostic(
            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
            severity=types.DiagnosticSeverity.Information,
            source="sharpbits",
            code="skipped",
            message=message,
        )
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[diagnostic])
        )

    def publish(self, uri: str, analysed: Analysed) -> None:
        columns = analysed.columns(self.workspace.position_codec)
        diagnostics = [self.diagnostic(f, columns) for f in analysed.result.findings]
        if self.traces.results:
            from sharpbits.lsp.trace_views import confirm_with_traces, trace_diagnostics

            confirm_with_traces(self, uri, analysed, diagnostics)  # measured loop sizes correct the static ones
            diagnostics += trace_diagnostics(self, uri, analysed.version, analysed.lines)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=analysed.version, diagnostics=diagnostics)
        )

    def diagnostic(self, f: Finding, columns: ClientColumns) -> types.Diagnostic:
        return types.Diagnostic(
            range=columns.range(f),
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
        columns = analysed.columns(self.workspace.position_codec)
        for fix in fixes:
            for e in fix.edits:
                start = columns.to_client(e.line, e.column)
                end = columns.to_client(e.end_line, e.end_column)
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
    settings = params.settings.get("sharpbits", params.settings) if isinstance(params.settings, dict) else params.settings
    if params.settings is None:
        return  # a client that only signals "something changed" (pull model): nothing to apply
    if not isinstance(settings, dict):
        warn(ls, f"ignored settings that are not an object of sharpbits.* values (got {_kind(settings)}); "
                 "the previous configuration stays")
        return
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


def warn(ls: SharpbitsServer, message: str) -> None:
    ls.window_show_message(types.ShowMessageParams(types.MessageType.Warning, f"sharpbits: {message}"))


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", tuple: "an array", str: "a string", bool: "a boolean",
            type(None): "null", int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def _number_setting(ls: SharpbitsServer, settings: dict[str, Any], name: str, low: float, high: float) -> float | None:
    """The value of sharpbits.`name` if it is a number in [low, high]; otherwise None, after one message naming
    the setting (the previous value stays)."""
    if name not in settings or settings[name] is None:
        return None
    value = settings[name]
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        warn(ls, f"ignored sharpbits.{name} = {json_snippet(value)}: expected a number from {low:.0f} to {high:.0f}; "
                 "the previous value stays")
        return None
    return float(value)


def json_snippet(value: Any) -> str:
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def apply_settings(ls: SharpbitsServer, settings: dict[str, Any], root: str | None) -> None:
    """Editor settings (`sharpbits.*`, sent as initializationOptions or didChangeConfiguration) on top of the
    workspace's [tool.sharpbits]: debounce, size and time limits, rule selection, severities. A setting of the
    wrong type or out of range is ignored with one message naming it; the last good value stays."""
    debounce = _number_setting(ls, settings, "debounceMs", 0, 5000)
    if debounce is not None:
        ls.debounce_s = debounce / 1000
    max_size = _number_setting(ls, settings, "maxFileSizeKB", 1, 1024 * 1024)
    if max_size is not None:
        ls.max_file_size_kb = max_size
    timeout = _number_setting(ls, settings, "analysisTimeoutMs", 100, 600_000)
    if timeout is not None:
        ls.analysis_timeout_s = timeout / 1000
    file_config = load_config(Path(root)) if root else Config()  # never raises: each problem is a message
    for problem in file_config.problems:  # the settings with problems keep their defaults
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Warning, f"sharpbits: {problem}"))
    editor = {k: v for k, v in settings.items() if k in RULE_SETTINGS and v not in (None, [], {})}
    try:
        ls.config = file_config.merged(Config.from_mapping(editor, where="editor settings (sharpbits.*)"))
    except (ConfigError, TypeError, ValueError, AttributeError) as exc:
        warn(ls, f"{exc}; the previous rule settings stay" if isinstance(exc, ConfigError)
             else f"ignored invalid rule settings (sharpbits.{'/'.join(sorted(editor))}): {exc}; "
                  "the previous rule settings stay")
        if ls.config.root != file_config.root:  # nothing good yet for this workspace: its own file's
            ls.config = file_config
    try:
        ls.traces.configure(settings)  # trust, trace.* and the editor's own lens command
    except Exception as exc:  # settings of the wrong shape for tracing: say which, keep the rest
        log.exception("trace settings rejected")
        warn(ls, f"ignored invalid sharpbits.trace settings ({type(exc).__name__}: {exc})")


# Notification handlers are plain functions (they only schedule work): pygls runs them inline, with no task or
# future left behind per keystroke.
@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: SharpbitsServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: SharpbitsServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, ls.delay_for(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: SharpbitsServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    task = ls.pending.pop(uri, None)
    if task is not None:
        task.cancel()
    ls.analysed.pop(uri, None)
    ls.analysis_seconds.pop(uri, None)
    ls.waiting_since.pop(uri, None)
    ls.incremental.close(uri)
    ls.published_once.discard(uri)
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
    columns = analysed.columns(ls.workspace.position_codec)
    start = columns.from_client(params.range.start)
    end = columns.from_client(params.range.end)
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
                diagnostics=[ls.diagnostic(f, columns)],
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
    columns = analysed.columns(ls.workspace.position_codec)
    pos = columns.from_client(params.position)
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
                range=columns.range(f),
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


@server.feature("sharpbits/serverStats")
def server_stats(ls: SharpbitsServer, params: Any) -> dict[str, int]:
    """What the server holds right now (for the long-editing bench and the leak test): live asyncio tasks,
    futures kept for in-flight handlers, open documents, cached analyses."""
    return {
        "tasks": len(asyncio.all_tasks()),
        "handlerFutures": len(ls.protocol._request_futures),
        "documents": len(ls.workspace.text_documents),
        "analysed": len(ls.analysed),
        "pending": len(ls.pending),
    }


def _stop_tracing() -> None:
    stop = getattr(server, "trace_shutdown", None)
    if stop is not None:
        try:
            stop()
        except Exception:
            log.exception("stopping the trace worker failed")


def serve_stdio() -> None:
    """Runs the server on stdin/stdout. Anything else that writes to stdout (a stray print, a C library) goes
    to stderr instead, so it can never corrupt the protocol stream. Exits 0 after shutdown + exit, 1 otherwise;
    analysis threads still running (a huge document) do not hold the process."""
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    logging.basicConfig(level=os.environ.get("SHARPBITS_LOG_LEVEL", "WARNING"), stream=sys.stderr)
    tune_garbage_collector()
    code = framing.run_stdio(server, sys.stdin.buffer, protocol_out, _stop_tracing)
    with contextlib.suppress(OSError):
        protocol_out.flush()
    logging.shutdown()
    sys.stderr.flush()
    os._exit(code)
