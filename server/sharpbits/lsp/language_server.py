"""The server object every feature registers on: its state, as typed attributes, and the analysis of documents.

Per-keystroke path: didChange -> debounce -> the analysis in a worker thread (never on the event loop) -> every
`on_analysed` listener (the diagnostics feature publishes), but only for the version that was analysed. A
notebook is analysed as one document by the notebook adapter, which hands each cell's view to the same listeners.
Fixes (libcst) are built only when a code action is resolved. Nothing here imports jax.

Features (lsp/features/) depend on this module and on the layers below it (views, notebooks, tracing, settings,
positions); this module never imports a feature, and features never import each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from sharpbits import __version__
from sharpbits.analysis.engine import AnalysisResult
from sharpbits.analysis.incremental import DocumentAnalyses
from sharpbits.config import Config
from sharpbits.lsp import framing
from sharpbits.lsp.notebooks import NOTEBOOK_SYNC, NotebookAdapter
from sharpbits.lsp.settings import EditorSettings, read_settings, workspace_config
from sharpbits.lsp.trace_service import TraceService, TraceTarget
from sharpbits.lsp.views import Analysed, file_view
from sharpbits.source import split_lines

log = logging.getLogger("sharpbits.lsp")

BOM = "\ufeff"
SLOW_ANALYSIS_S = 0.3  # a document whose analysis takes longer gets a debounce as long as its analysis
MIN_DEBOUNCE_S = 0.05  # shorter than a typist's pause between keys, longer than a burst of changes
MAX_WAIT_FACTOR = 2.0  # a change is analysed at the latest this many debounces after it, however fast the typing

# A listener for a document's fresh analysis: (server, the document's view, whether an edit caused it).
AnalysedListener = Callable[["SharpbitsServer", Analysed, bool], Awaitable[None]]


class SharpbitsServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("sharpbits", __version__, max_workers=4, notebook_document_sync=NOTEBOOK_SYNC,
                         protocol_cls=framing.NotificationFuturesReleased)
        self.analysis_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sharpbits-analysis")
        self.settings = EditorSettings()
        self.config = Config()  # [tool.sharpbits] of the workspace, with the editor's rule settings on top
        self.analysed: dict[str, Analysed] = {}  # the latest analysis of each open .py document
        self.pending: dict[str, asyncio.Task[None]] = {}  # document or notebook uri -> its scheduled analysis
        self.waiting_since: dict[str, float] = {}  # the first change of a document not analysed yet
        # at most one analysis per document at a time: a slow document occupies one analysis thread, never both
        self.running: dict[str, asyncio.Future[AnalysisResult]] = {}
        self.published_once: set[str] = set()  # documents whose findings were published since they were opened
        self.analysis_seconds: dict[str, float] = {}  # how long the document's last analysis took (for debounce)
        # one incremental analysis per open document: a version seen again, or an edit inside one statement, reuses work
        self.incremental = DocumentAnalyses()
        self.notebooks = NotebookAdapter(self)
        self.traces = TraceService()  # tracing's permission, workers and stored results
        self.analysed_listeners: list[AnalysedListener] = []

    # ---- events --------------------------------------------------------------------------------------------

    def on_analysed(self, listener: AnalysedListener) -> None:
        """`listener` runs after every fresh analysis of a document that is to be shown (in registration order)."""
        self.analysed_listeners.append(listener)

    async def _analysed(self, view: Analysed, after_edit: bool) -> None:
        for listener in self.analysed_listeners:
            await listener(self, view, after_edit)

    async def refresh(self, uri: str) -> None:
        """Shows the document again (its diagnostics, with what tracing added) and asks the client to re-query
        lenses and inlay hints: after a trace result arrived."""
        view = await self.analyse(uri)
        if view is not None:
            await self._analysed(view, False)
        self.refresh_lenses()
        caps = self.client_capabilities.workspace
        if caps is not None and caps.inlay_hint is not None and caps.inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)

    def refresh_lenses(self) -> None:
        caps = self.client_capabilities.workspace
        if caps is not None and caps.code_lens is not None and caps.code_lens.refresh_support:
            self.workspace_code_lens_refresh(None)

    # ---- errors and messages ---------------------------------------------------------------------------------

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A failing handler is our bug: it goes to the log (and a request gets its JSON-RPC error), never as a
        pop-up "Error in server: ..." in the user's window."""
        log.error("%s: %s", getattr(source, "__name__", source), error)
        with contextlib.suppress(Exception):
            self.window_log_message(types.LogMessageParams(types.MessageType.Error, f"sharpbits: {error}"))

    def warn(self, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(types.MessageType.Warning, f"sharpbits: {message}"))

    def analysis_failed(self, uri: str, exc: Exception) -> None:
        """A bug of ours must not take the server down: log it, keep serving."""
        log.exception("analysis failed for %s", uri)
        self.window_log_message(
            types.LogMessageParams(types.MessageType.Error, f"sharpbits: analysis of {uri} failed: {exc!r}"))

    def clear_diagnostics(self, uri: str) -> None:
        self.analysed.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

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

    # ---- settings ------------------------------------------------------------------------------------------

    def apply_settings(self, raw: Any, root: str | None) -> None:
        """Editor settings (`sharpbits.*`) on top of the workspace's [tool.sharpbits]. What is ignored, and a
        workspace file that cannot be used, is said in one message each; the server goes on with what it has."""
        settings, messages = read_settings(raw, self.settings)
        config, problems = workspace_config(root, settings.rules)
        self.settings, self.config = settings, config
        self.traces.configure(settings)  # trust, trace.*
        for message in messages:
            self.warn(message)
        for problem in problems:
            self.warn(problem)

    def reanalyse_all(self) -> None:
        """After a settings change: every open document and notebook again."""
        self.analysed.clear()
        for uri in list(self.workspace.text_documents):
            if self.notebooks.notebook_of(uri) is None:
                self.schedule(uri, 0)
        for uri in self.notebooks.forget_all():
            self.schedule(uri, 0)

    # ---- analysis ------------------------------------------------------------------------------------------

    def delay_for(self, uri: str) -> float:
        """The debounce after an edit, adapted to the document's last analysis time. A slow document waits as
        long as its analysis takes (at most 2 s), so it is analysed about every other keystroke pause instead of
        queueing. A fast one waits only as long as its analysis takes, at least `MIN_DEBOUNCE_S` (a burst of
        changes from a paste, multi-cursor edit or formatter still arrives as one) and at most the configured
        debounce: typing at 100 ms a key in a 1,000-line module (35 ms an analysis) gets diagnostics for every
        version instead of only after the typing stops."""
        debounce = self.settings.debounce_s
        took = self.analysis_seconds.get(uri)
        if took is None:
            return debounce
        if took > SLOW_ANALYSIS_S:
            return max(debounce, min(took, 2.0))
        return min(debounce, max(took, MIN_DEBOUNCE_S))

    def schedule(self, uri: str, delay: float) -> None:
        """(Re)starts the analysis of a document or notebook after `delay`; a newer call cancels an older pending
        one. A change never waits longer than `MAX_WAIT_FACTOR` debounces in all: someone typing faster than the
        debounce still gets diagnostics every so often, not only when they stop."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        if delay and not self.notebooks.is_notebook(uri):
            now = time.monotonic()
            since = self.waiting_since.setdefault(uri, now)
            delay = min(delay, max(0.0, since + MAX_WAIT_FACTOR * delay - now))
        task = asyncio.get_running_loop().create_task(self._analyse_and_publish(uri, delay))
        self.pending[uri] = task
        task.add_done_callback(lambda t: self.pending.pop(uri, None) if self.pending.get(uri) is t else None)

    async def _analyse_and_publish(self, uri: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        if self.notebooks.is_notebook(uri):  # one analysis for the notebook, shown in each of its cells
            for view in await self.notebooks.views_to_publish(uri):
                await self._analysed(view, False)
            return
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
        await self._analysed(analysed, bool(delay))

    def latest(self, uri: str) -> Analysed | None:
        """The latest analysis of a document or notebook cell, without analysing (None before one)."""
        return self.analysed.get(uri) or self.notebooks.view(uri)

    async def analyse(self, uri: str, publish_stale: bool = False) -> Analysed | None:
        """The analysis of the document's (or notebook cell's) current version (cached), or None if the document
        is not open or it changed meanwhile. With `publish_stale`, a finished analysis of an older version is
        returned too (it is published with its version: a newer edit does not throw away a ready result)."""
        if self.notebooks.notebook_of(uri) is not None:
            return await self.notebooks.analyse_cell(uri)
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
        limit_kb = self.settings.max_file_size_kb
        if size_kb > limit_kb:
            self.skipped(uri, version, f"{size_kb / 1024:.1f} MB is above sharpbits.maxFileSizeKB ({limit_kb} KB)")
            return None
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        timeout_s = self.settings.analysis_timeout_s
        try:
            selection = self.config.selection_for(path)
            # From here on a newer edit no longer cancels this analysis: a ready result is published with its
            # version rather than thrown away, and the newer version's analysis follows it.
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]
            future = loop.run_in_executor(self.analysis_pool, self.incremental.update, uri, path, text, selection)
            self.running[uri] = future
            try:
                done, _ = await asyncio.wait([future], timeout=timeout_s)
                if not done:
                    self.skipped(uri, version, f"its analysis is taking longer than sharpbits.analysisTimeoutMs "
                                 f"({timeout_s * 1000:.0f} ms); findings follow when it finishes", waiting=True)
                result = await future
            finally:
                if self.running.get(uri) is future:
                    del self.running[uri]
        except Exception as exc:
            self.analysis_failed(uri, exc)
            return None
        self.analysis_seconds[uri] = time.monotonic() - started
        if uri not in self.workspace.text_documents:
            return None  # closed meanwhile
        analysed = file_view(uri, version, split_lines(text), result, bom)
        if self.workspace.get_text_document(uri).version != version:
            return analysed if publish_stale else None  # a newer edit arrived; its own analysis will publish
        self.analysed[uri] = analysed
        return analysed

    def close_document(self, uri: str) -> None:
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.analysis_seconds.pop(uri, None)
        self.waiting_since.pop(uri, None)
        self.incremental.close(uri)
        self.published_once.discard(uri)
        self.clear_diagnostics(uri)

    def close_notebook(self, notebook_uri: str, cell_uris: list[str]) -> None:
        task = self.pending.pop(notebook_uri, None)
        if task is not None:
            task.cancel()
        for cell in self.notebooks.close(notebook_uri, cell_uris):
            self.clear_diagnostics(cell)

    # ---- tracing -------------------------------------------------------------------------------------------

    @property
    def root_path(self) -> str | None:
        return getattr(self.workspace, "root_path", None)

    def trace_target(self, uri: str) -> TraceTarget | None:
        """What a trace of a function in this document (or notebook cell) runs now: the editor's text when it is
        open, else the file's; None for a URI that names no readable document."""
        try:
            doc = self.workspace.get_text_document(uri)
            doc.source  # noqa: B018 - a document that is not open is read from its file here
        except (OSError, ValueError):
            return None
        return TraceTarget(uri, doc.version, doc.source, self.notebooks.cells_up_to(uri),
                           self.notebooks.trace_source(uri))
