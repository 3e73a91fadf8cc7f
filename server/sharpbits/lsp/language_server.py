"""The server object every feature registers on: its state, as typed attributes, and the analysis of documents.

Per-keystroke path: didChange -> the analysis starts at once in a worker thread (never on the event loop) -> every
`on_analysed` listener (the diagnostics feature publishes) as soon as the result is for the current version. One
analysis per document runs at a time: a change that arrives while its document is analysed abandons that analysis
(it stops at its next checkpoint, between the model and the rules or between two rules: `engine.between_rules`)
and the newest version is analysed next, so changes coalesce only while they come faster than the analysis.
An analysis still building its model is always abandoned (the model is kept for the next version: nothing is lost,
and the newest version starts as soon as it is done). One running its rules past half its expected time is let
finish instead (unless the changes come as one burst, 50 ms apart or less: a paste, a formatter): it is shown with
its version (the keys typed before it get their squiggles now, not after the typing) and the newest version
follows at once. A document whose changes have waited longer than `MAX_WAIT_FACTOR` analyses (at least the
debounce setting) lets the running analysis finish once its rules run, and shows it with its version (past
`STARVED_WAIT_FACTOR` also one still building its model or running in a child process): someone typing without a
pause still sees findings, also where building the model takes longer than the time between two keys.
An analysis that overruns its in-thread limit (`IN_THREAD_S`) is stopped in its thread and done again in child
processes that are killed at `sharpbits.analysisBudgetMs` (lsp/analysis_process.py; text documents only).
A notebook is analysed as one document by the notebook adapter, which hands each cell's view to the same listeners.
Fixes (libcst) are built only when a code action is resolved. Nothing here imports jax.

Features (lsp/features/) depend on this module and on the layers below it (views, notebooks, tracing, settings,
positions); this module never imports a feature, and features never import each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from sharpbits import __version__
from sharpbits.analysis.engine import AnalysisResult, Selection
from sharpbits.analysis.incremental import DocumentAnalyses
from sharpbits.analysis.project_index import shared_index
from sharpbits.config import Config
from sharpbits.lsp import framing
from sharpbits.lsp.analysis_process import MODEL, IsolatedRun, Killed, Stopped, ThreadStop, project_record
from sharpbits.lsp.notebooks import NOTEBOOK_SYNC, NotebookAdapter
from sharpbits.lsp.project_deps import ProjectDependencies
from sharpbits.lsp.settings import EditorSettings, read_settings, workspace_config
from sharpbits.lsp.trace_service import TraceService, TraceTarget
from sharpbits.lsp.views import Analysed, file_view
from sharpbits.source import split_lines

log = logging.getLogger("sharpbits.lsp")

BOM = "\ufeff"
MAX_WAIT_FACTOR = 2.0  # changes not shown for this many analysis times stop abandoning the running analysis
# ... also one still building its model, or running in a child process, past this many: abandoned before, it makes
# the next keys wait for the whole of it (doubling the median keystroke -> publication at typing pace with factor 2,
# bench/typing_speed.py), while never letting it finish showed nothing at all to someone typing faster than a model
STARVED_WAIT_FACTOR = 5.0
ABANDON_BEFORE = 0.5  # a running analysis further than this part of its document's analysis time is let finish
BURST_S = 0.05  # changes closer together are one burst (a paste, a multi-cursor edit, a formatter): never let finish
# An analysis still running in its thread after the longest of these is stopped there and done again in a child
# process, killed at sharpbits.analysisBudgetMs (lsp/analysis_process.py): IN_THREAD_S, IN_THREAD_S_PER_LINE for
# each line of the document (a big ordinary file is slow, not hostile: on a loaded 2-core machine a fresh 5,000-line
# analysis took 0.9 s), 4 times the document's last analysis in its thread, 3 times its last in a child process.
IN_THREAD_S = 1.0
IN_THREAD_S_PER_LINE = 0.0004
PROJECT_SETTLE_S = 0.1  # a check of the documents importing a changed module waits this long with nothing analysed
MAX_WATCHED_BYTES = 2_000_000  # a file changed on disk that is larger is not read (the index skips such files too)

# The cyclic garbage collector, in `sharpbits serve` (lsp/server.py turns it off there): it runs between analyses,
# when no analysis runs or waits (`SharpbitsServer.collect_when_idle`), once this many container objects were
# allocated since the last collection; while analyses keep running (typing without a pause), only past
# BUSY_COLLECT_AT (about ten edits of a 5,000-line document: one longer collection every so often, as before).
IDLE_COLLECT_AT = 10_000
BUSY_COLLECT_AT = 200_000
IDLE_CHECK_S = 5.0  # busy, or with fewer than IDLE_COLLECT_AT: looked at again this much later (and after each analysis)

# A listener for a document's fresh analysis: (server, the document's view, whether an edit caused it).
AnalysedListener = Callable[["SharpbitsServer", Analysed, bool], Awaitable[None]]


class Abandoned(Exception):
    """Raised at a checkpoint of an analysis that a newer version of its document superseded."""


_job = threading.local()  # the analysis thread's current job: its `abandon` event


def _checkpoint() -> None:
    rules = getattr(_job, "rules", None)
    if rules is not None:
        rules.set()  # past the model: its rules run
    abandon = getattr(_job, "abandon", None)
    if abandon is not None and abandon.is_set():
        raise Abandoned


def _run_analysis(incremental: DocumentAnalyses, uri: str, path: str, text: str, selection: Selection,
                  abandon: threading.Event, stop: ThreadStop | None = None,
                  rules: threading.Event | None = None) -> AnalysisResult:
    """`incremental.update(...)` in an analysis thread, stopping with Abandoned at a checkpoint once `abandon` is
    set (before the parse too). What the document's IncrementalAnalysis keeps stays usable for the next version.
    `stop`: lets the server stop it anywhere (analysis_process.Stopped) when it overruns its in-thread limit; the
    document's IncrementalAnalysis is then dropped (it may be half updated). `rules`: set once the model is built
    (at the first checkpoint)."""
    from sharpbits.analysis import engine

    engine.between_rules = _checkpoint
    if abandon.is_set():
        raise Abandoned
    _job.abandon, _job.rules = abandon, rules
    try:
        if stop is not None:
            stop.enter()
        try:
            return incremental.update(uri, path, text, selection)
        finally:
            if stop is not None:
                stop.leave()
    finally:
        _job.abandon = _job.rules = None


def _project_dependents(project: ProjectDependencies, index: Any, changed: set[str], disk: set[str],
                        documents: dict[str, str]) -> list[str]:
    """(In the project thread.) The files changed on disk handed to the index again (their text, summarised only
    when a module asks about them: a checkout that changes a thousand files parses none of them here; a file gone,
    or too large to read, is forgotten), then the documents to analyse again (ProjectDependencies.dependents)."""
    for path in disk:
        try:
            data = Path(path).read_bytes() if os.path.getsize(path) <= MAX_WATCHED_BYTES else None
            text = data.decode("utf-8") if data is not None else None
        except (OSError, UnicodeDecodeError):
            text = None
        if text is None:
            index.forget(path)
        else:
            index.update(path, text, lazy=True)
    return project.dependents(index, changed, documents)


@dataclass
class Running:
    """A document's analysis (in its thread, or in a child process past the in-thread limit): for which version,
    and the event that abandons it."""

    version: int | None
    future: asyncio.Future[AnalysisResult]
    abandon: threading.Event
    started: float  # time.monotonic() when it was handed to its thread
    isolated: IsolatedRun | None = None  # its run in child processes, once it moved there
    rules: threading.Event = field(default_factory=threading.Event)  # set when its model is built

    def give_up(self) -> None:
        """Abandons it: the thread at its next checkpoint, a child process at once (killed)."""
        self.abandon.set()
        if self.isolated is not None:
            self.isolated.kill()


def _retrieve(future: asyncio.Future[AnalysisResult]) -> None:
    """Takes the outcome of an analysis stopped in its thread (Stopped, or a result that beat the stop) off the
    future, so that asyncio does not log it as never retrieved."""
    if not future.cancelled():
        with contextlib.suppress(Stopped, Abandoned, Exception):
            future.result()


def _keep_stopping(stop: ThreadStop, future: asyncio.Future[AnalysisResult], every_s: float = 0.5) -> None:
    """Sends the stop again every `every_s` until the thread has left the analysis (see ThreadStop.stop)."""
    def again() -> None:
        if not future.done() and stop.stop():
            asyncio.get_running_loop().call_later(every_s, again)

    asyncio.get_running_loop().call_later(every_s, again)


class SharpbitsServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("sharpbits", __version__, max_workers=4, notebook_document_sync=NOTEBOOK_SYNC,
                         protocol_cls=framing.NotificationFuturesReleased)
        self.analysis_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sharpbits-analysis")
        # builds fixes for code actions and hovers: a fix built in a child process (analysis_process.ChildFixes) is
        # waited for here, up to the budget, never in an analysis thread that other documents need
        self.fix_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sharpbits-fixes")
        self.settings = EditorSettings()
        self.config = Config()  # [tool.sharpbits] of the workspace, with the editor's rule settings on top
        self.analysed: dict[str, Analysed] = {}  # the latest analysis of each open .py document
        self.pending: dict[str, asyncio.Task[None]] = {}  # document or notebook uri -> its scheduled analysis
        self.unshown: dict[str, dict[int, float]] = {}  # document -> version -> when it arrived, until shown
        self.last_change: dict[str, float] = {}  # document -> when its last change arrived
        # at most one analysis per document at a time: a slow document occupies one analysis thread, never both
        self.running: dict[str, Running] = {}
        self.published_once: set[str] = set()  # documents whose findings were published since they were opened
        # the first document's version and result lsp/early.py published before the server started: not again
        self.published_early: dict[str, tuple[int, AnalysisResult]] = {}
        self.analysis_seconds: dict[str, float] = {}  # how long the document's last finished analysis took
        # documents analysed in child processes (lsp/analysis_process.py): the time the last such analysis took;
        # while a rule of the document is stopped at the budget, its versions go straight to a child process
        self.isolated_seconds: dict[str, float] = {}
        self.out_of_thread: set[str] = set()
        # the last result a child process gave for each document, with its text and selection: asked again (a
        # settings push, a request), it is answered without analysing again (as IncrementalAnalysis does in-thread)
        self.isolated_results: dict[str, tuple[str, Selection, AnalysisResult]] = {}
        # one incremental analysis per open document: a version seen again, or an edit inside one statement, reuses work
        self.incremental = DocumentAnalyses()
        self.notebooks = NotebookAdapter(self)
        self.traces = TraceService()  # tracing's permission, workers and stored results
        self.analysed_listeners: list[AnalysedListener] = []
        # documents to analyse again because a module they import changed (lsp/project_deps.py): their cached
        # analysis (and the incremental state answering the same text) no longer holds
        self.project = ProjectDependencies()
        self.project_stale: set[str] = set()
        self.project_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sharpbits-project")
        self._project_changes: set[str] = set()
        self._project_disk: set[str] = set()
        self._project_check: asyncio.Task[None] | None = None
        self._collection: asyncio.TimerHandle | None = None  # the next look at the garbage collector's count
        self.collections = 0  # cyclic collections run between analyses (for the tests)

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

    def is_open(self, uri: str) -> bool:
        """Whether the editor has this document (or notebook cell) open. pygls keys its documents by the
        *unquoted* URI, while the client names them quoted (a cell's fragment in code-server is base64 with
        `%3D`): every membership test goes through here."""
        return unquote(uri) in self.workspace.text_documents

    def open_uris(self) -> list[str]:
        """The open documents' URIs as the client spells them (pygls' own keys are unquoted: publishing to
        those would miss a file whose name needs quoting)."""
        return [doc.uri for doc in list(self.workspace.text_documents.values())]

    def fed_documents(self) -> list[tuple[str, str]]:
        """(path, text) of each open .py document: what lsp/features/documents.py fed the project index."""
        out = []
        for doc in list(self.workspace.text_documents.values()):
            path = to_fs_path(doc.uri) if doc.uri.startswith("file:") else None
            if path and path.endswith(".py"):
                out.append((path, doc.source))
        return out

    def reanalyse_all(self) -> None:
        """After a settings change: every open document and notebook again."""
        self.analysed.clear()
        for uri in self.open_uris():
            if self.notebooks.notebook_of(uri) is None:
                self.schedule(uri, 0)
        for uri in self.notebooks.forget_all():
            self.schedule(uri, 0)

    # ---- analysis ------------------------------------------------------------------------------------------

    def changed(self, uri: str, version: int | None) -> None:
        """A text document changed (didChange, after pygls updated it): its analysis starts at once. An analysis of
        an older version still running is abandoned unless the changes have waited too long (`may_abandon`); the
        newest version is analysed when it has stopped."""
        now = time.monotonic()
        burst = now - self.last_change.get(uri, -1.0) < BURST_S
        self.last_change[uri] = now
        if version is not None:
            self.unshown.setdefault(uri, {})[version] = now
        running = self.running.get(uri)
        if running is not None and running.version != version and (burst or self.may_abandon(uri, running)):
            running.give_up()
        self.schedule(uri, 0, after_edit=True)

    def may_abandon(self, uri: str, running: Running) -> bool:
        """Whether the running analysis of a document is abandoned for a newer version. While it builds its model,
        or runs in child processes, yes until the oldest change not shown yet has waited `STARVED_WAIT_FACTOR`
        analysis times (at least the debounce setting): the model (the parse, walks and dataflow) is never cut
        short and is kept for the next version, so abandoning then loses little, and the newer version starts as
        soon as the model is done instead of after the older version's rules too (a run in child processes starts
        over each time). Past that wait it is let finish: before, such an analysis was always abandoned, so where
        one model took longer than the time between two keys (a long file, a slow or loaded machine) nothing was
        shown until the typing stopped. Once its rules run in its thread, not when it is past `ABANDON_BEFORE` of
        the document's last analysis time (finishing it shows the keys before sooner than restarting would; the
        newer version is analysed right after it), nor once the oldest change not shown yet has waited
        `MAX_WAIT_FACTOR` analysis times: typing faster than the analysis still shows findings every so often.
        Abandoning then costs the rules run so far."""
        took = self.analysis_seconds.get(uri)
        now = time.monotonic()
        if took is None:
            return True
        unshown = self.unshown.get(uri)
        waited = now - min(unshown.values()) if unshown else 0.0
        if running.isolated is not None or not running.rules.is_set():
            return waited < max(STARVED_WAIT_FACTOR * took, self.settings.debounce_s)
        if now - running.started > ABANDON_BEFORE * took:
            return False
        return waited < max(MAX_WAIT_FACTOR * took, self.settings.debounce_s)

    def shown(self, uri: str, version: int | None) -> None:
        """The findings of `version` are shown: changes up to it no longer wait."""
        unshown = self.unshown.get(uri)
        if unshown is None:
            return
        for seen in [v for v in unshown if version is None or v <= version]:
            del unshown[seen]
        if not unshown:
            del self.unshown[uri]

    def schedule(self, uri: str, delay: float, after_edit: bool = False) -> None:
        """(Re)starts the analysis of a document or notebook after `delay` (0 for text documents: they do not
        wait; a notebook's cell edits wait the debounce); a newer call cancels an older pending one. `after_edit`:
        an edit caused it (the listeners are told: an edit may retrace)."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        task = asyncio.get_running_loop().create_task(self._analyse_and_publish(uri, delay, after_edit))
        self.pending[uri] = task
        task.add_done_callback(lambda t: self.pending.pop(uri, None) if self.pending.get(uri) is t else None)

    def collect_when_idle(self, after_s: float = 0.0) -> None:
        """Runs the cyclic garbage collector between analyses, where the server turned its automatic runs off
        (lsp/server.py; with the collector on this does nothing). On, it ran at the first allocation after an
        analysis (engine.without_cycle_collection keeps it off during one): the young objects of an edit of a
        5,000-line document (the model's indexes kept for the next version) took 8 ms to walk, and with the
        tuned thresholds (incremental.GC_THRESHOLDS) a 40 ms collection fell before every third edit's
        diagnostics were published. Here it runs on the event loop after the publication, when no analysis runs
        or waits, so it delays at most the start of the next keystroke's analysis (by one young collection), never a
        publication; the generation collected follows the collector's own thresholds."""
        if gc.isenabled():
            return
        if self._collection is not None:
            if after_s:
                return
            self._collection.cancel()  # a publication: look now, not at the next tick
        self._collection = asyncio.get_running_loop().call_later(after_s, self._collect)

    def _collect(self) -> None:
        self._collection = None
        young, middle, old = gc.get_count()
        busy = bool(self.running or self.pending)
        if young >= (BUSY_COLLECT_AT if busy else IDLE_COLLECT_AT):
            _, middle_at, old_at = gc.get_threshold()
            gc.collect(2 if old >= old_at else 1 if middle >= middle_at else 0)
            self.collections += 1
        self.collect_when_idle(IDLE_CHECK_S)

    async def _analyse_and_publish(self, uri: str, delay: float, after_edit: bool) -> None:
        try:
            await self._analyse_and_publish_now(uri, delay, after_edit)
        finally:
            self.collect_when_idle()

    async def _analyse_and_publish_now(self, uri: str, delay: float, after_edit: bool) -> None:
        if delay:
            await asyncio.sleep(delay)
        if self.notebooks.is_notebook(uri):  # one analysis for the notebook, shown in each of its cells
            for view in await self.notebooks.views_to_publish(uri):
                await self._analysed(view, False)
            return
        analysed = await self.analyse(uri, publish_stale=True)
        if analysed is None:
            return
        self.shown(uri, analysed.version)
        if analysed.result.syntax_error is not None:
            # Mid-typing: keep what the editor shows (it moves markers with the text); Python's own
            # tooling reports the syntax error itself. A document that never parsed since it was opened (NUL
            # bytes, 1,000 nested brackets) says once why it has no findings.
            if uri not in self.published_once:
                error = analysed.result.syntax_error
                self.skipped(uri, analysed.version, f"it does not parse (line {error.line}: {error.message})")
            return
        self.published_once.add(uri)
        await self._analysed(analysed, after_edit)
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if path and path.endswith(".py"):
            self.project_changed({path})  # what the modules importing it see may have changed

    def latest(self, uri: str) -> Analysed | None:
        """The latest analysis of a document or notebook cell, without analysing (None before one)."""
        return self.analysed.get(uri) or self.notebooks.view(uri)

    async def analyse(self, uri: str, publish_stale: bool = False) -> Analysed | None:
        """The analysis of the document's (or notebook cell's) current version (cached), or None if the document
        is not open or it changed meanwhile. With `publish_stale`, a finished analysis of an older version is
        returned too when no change asked to abandon it (it is published with its version: someone typing
        faster than the analysis for a while sees findings while typing); an abandoned one gives None."""
        if self.notebooks.notebook_of(uri) is not None:
            return await self.notebooks.analyse_cell(uri)
        if not self.is_open(uri):
            return None  # never read a file the editor did not open (nor fail on a URI that is not a file)
        doc = self.workspace.get_text_document(uri)
        version, text = doc.version, doc.source
        stale = uri in self.project_stale  # a module it imports changed: nothing kept of its text holds
        cached = None if stale else self.analysed.get(uri)
        if cached is not None and cached.version == version and version is not None:
            return cached
        previous = self.running.get(uri)
        if previous is not None:  # this document's earlier analysis is still running: wait for it, not beside it
            await asyncio.wait([previous.future])
            return await self.analyse(uri, publish_stale)
        if stale:
            self.project_stale.discard(uri)
            self.analysed.pop(uri, None)
            self.isolated_results.pop(uri, None)
            self.published_early.pop(uri, None)
            self.incremental.close(uri)  # its results are remembered by text: the same text is analysed again
        bom = text.startswith(BOM)
        if bom:
            text = text[1:]
        path = to_fs_path(uri) or uri
        size_kb = len(text) / 1024
        limit_kb = self.settings.max_file_size_kb
        if size_kb > limit_kb:
            self.skipped(uri, version, f"{size_kb / 1024:.1f} MB is above sharpbits.maxFileSizeKB ({limit_kb} KB)")
            return None
        started = time.monotonic()
        abandon = threading.Event()
        try:
            selection = self.config.selection_for(path)
            # From here on a newer edit no longer cancels this task: it abandons the analysis (`changed`), or lets it
            # finish and be published with its version.
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]
            future: asyncio.Future[AnalysisResult] = asyncio.get_running_loop().create_future()
            running = self.running[uri] = Running(version, future, abandon, started)
            try:
                result = await self._analysis(uri, path, text, selection, running)
            finally:
                if not future.done():
                    future.set_result(AnalysisResult([]))  # only waited on, never read
                if self.running.get(uri) is running:
                    del self.running[uri]
        except Abandoned:
            return None
        except Exception as exc:
            self.analysis_failed(uri, exc)
            return None
        self.analysis_seconds[uri] = time.monotonic() - started
        if not self.is_open(uri):
            return None  # closed meanwhile
        analysed = file_view(uri, version, split_lines(text), result, bom)
        if self.workspace.get_text_document(uri).version != version:
            # a newer edit arrived; its own analysis will publish (this one too, unless the edit abandoned it)
            return analysed if publish_stale and not abandon.is_set() else None
        self.analysed[uri] = analysed
        return analysed

    async def _analysis(self, uri: str, path: str, text: str, selection: Selection, running: Running,
                        ) -> AnalysisResult:
        """The analysis of one version: in a thread (the document's incremental state reused) until
        `IN_THREAD_S`, then in child processes killed at the budget (lsp/analysis_process.py). Raises Abandoned
        when a newer version or the document's closing gave it up."""
        known = self.isolated_results.get(uri)
        if known is not None and known[0] == text and known[1] == selection:
            return known[2]
        budget_s = self.settings.analysis_budget_s
        timeout_s = self.settings.analysis_timeout_s
        slow = asyncio.get_running_loop().call_later(timeout_s, lambda: self.skipped(
            uri, running.version, f"its analysis is taking longer than sharpbits.analysisTimeoutMs "
            f"({timeout_s * 1000:.0f} ms); findings follow when it finishes", waiting=True))
        try:
            if uri not in self.out_of_thread:
                limit = min(budget_s, max(IN_THREAD_S, IN_THREAD_S_PER_LINE * text.count("\n"),
                                           4 * self.analysis_seconds.get(uri, 0.0),
                                           3 * self.isolated_seconds.get(uri, 0.0)))
                stop = ThreadStop()
                future = asyncio.get_running_loop().run_in_executor(
                    self.analysis_pool, _run_analysis, self.incremental, uri, path, text, selection, running.abandon,
                    stop, running.rules)
                done, _ = await asyncio.wait([future], timeout=limit)
                if done or not stop.stop():
                    return await future
                future.add_done_callback(_retrieve)
                _keep_stopping(stop, future)
                self.incremental.close(uri)  # stopped anywhere: what it kept may be half updated
                log.info("the analysis of %s passed %.1f s in its thread: moved to a child process", uri, limit)
            if running.abandon.is_set():
                raise Abandoned
            run = running.isolated = IsolatedRun()
            project = project_record(shared_index(), self.fed_documents())  # as the thread's analysis has it
            try:
                outcome = await run.analyse(text, path, selection, budget_s, project=project)
            except Killed:
                raise Abandoned from None
        finally:
            slow.cancel()
        self.isolated_seconds[uri] = outcome.seconds
        self.isolated_results[uri] = (text, selection, outcome.result)
        if outcome.stopped:
            self.out_of_thread.add(uri)
            what = ", ".join("building the model" if s == MODEL else f"rule {s}" for s in outcome.stopped)
            self.window_log_message(types.LogMessageParams(
                types.MessageType.Warning, f"sharpbits: the analysis of {uri} was stopped at its budget "
                f"(sharpbits.analysisBudgetMs = {budget_s * 1000:.0f} ms): {what} did not finish"))
            outcome.result.stopped = tuple(outcome.stopped)
            outcome.result.stopped_after_s = budget_s
        else:
            self.out_of_thread.discard(uri)
        return outcome.result

    # ---- the project: documents whose imports changed ------------------------------------------------------

    def project_changed(self, paths: set[str], on_disk: bool = False) -> None:
        """Files of the project changed (`paths`; `on_disk`: their files, which the index reads again): the open
        documents whose imports reach a module whose shape changed are analysed again (lsp/project_deps.py), off
        the event loop, changes coalescing while a check runs."""
        self._project_changes |= paths
        if on_disk:
            self._project_disk |= paths
        if self._project_check is None or self._project_check.done():
            self._project_check = asyncio.get_running_loop().create_task(self._check_project())

    async def _check_project(self) -> None:
        index = shared_index()
        while self._project_changes and index is not None:
            documents = {}
            for uri in self.open_uris():
                path = to_fs_path(uri) if uri.startswith("file:") else None
                if path and path.endswith(".py") and self.notebooks.notebook_of(uri) is None:
                    documents[uri] = path
            if not self._project_disk and not any(
                    path != other for path in documents.values() for other in self._project_changes):
                self._project_changes.clear()  # no document a changed module could be imported by (typing in
                continue  # the only one open)
            # the check summarises modules (a parse each, the first time): it waits until no analysis is running
            # or due, so that it never slows the squiggles of the document being typed in or opened
            await asyncio.sleep(PROJECT_SETTLE_S)
            while self.running or self.pending:
                await asyncio.sleep(PROJECT_SETTLE_S)
            changed, self._project_changes = self._project_changes, set()
            disk, self._project_disk = self._project_disk, set()
            try:
                stale = await asyncio.get_running_loop().run_in_executor(
                    self.project_pool, _project_dependents, self.project, index, changed, disk, documents)
            except Exception:  # a bug of ours: the documents keep their findings
                log.exception("checking the documents that import %s failed", sorted(changed))
                continue
            for uri in stale:
                if self.is_open(uri):
                    self.project_stale.add(uri)
                    self.schedule(uri, 0)

    def close_document(self, uri: str) -> None:
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        running = self.running.get(uri)
        if running is not None:
            running.give_up()
        self.isolated_seconds.pop(uri, None)
        self.isolated_results.pop(uri, None)
        self.out_of_thread.discard(uri)
        self.analysis_seconds.pop(uri, None)
        self.unshown.pop(uri, None)
        self.last_change.pop(uri, None)
        self.incremental.close(uri)
        self.published_once.discard(uri)
        self.published_early.pop(uri, None)
        self.project_stale.discard(uri)
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
