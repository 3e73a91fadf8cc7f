"""Tracing for the language server: who may trace, the workers, the one place a trace starts, and the one store
of results that every view reads.

- **Trace permission** (`TraceWorkers.refusal`): tracing runs the workspace's code, so it is refused when the
  client says the workspace is untrusted (VS Code's Restricted Mode) or when `trace.enabled` is not true. A
  client that says nothing about trust (Neovim, Emacs, ...) traces only when its user enabled tracing in the
  initializationOptions. `TraceWorkers.get_client()`, the only place a worker is created, refuses too, so a
  caller that forgot to ask still cannot start one. The worker starts at the first trace, never at initialize
  or on a settings push (a launch prefix such as `ssh host` must not connect because a folder was opened).
- **One entry point** (`TraceService.trace`): every trace the editor asks for (the Trace lens's command, the
  `sharpbits/trace` request behind Show jaxpr / StableHLO / HLO, auto-retrace) comes through it; `run()` is the
  one place a trace is started, shielded and cancelled.
- **One stored result** (`TraceStore`): the last result per function of each open document, for the document
  version (and, in a notebook, the cells above) it traced. Lenses, hovers, inlay hints, trace diagnostics and the
  compiled-code listings all read it; a listing whose views the stored result already holds is not traced again.

Nothing here imports jax, and nothing starts at import time. The blocking client calls run on a small executor
of our own (never on the event loop, never on pygls's pool, which also reads stdin).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, cast

from sharpbits.lsp.settings import EditorSettings, TraceSettings
from sharpbits.lsp.trace_text import summary
from sharpbits.trace.protocol import PLATFORMS, VIEWS, TraceCommandResult, TraceResult

if TYPE_CHECKING:  # (the trace client, specs and notebook programs are imported at the first trace)
    from sharpbits.trace.client import TraceClient
    from sharpbits.trace.notebook import CellTraceSource

SHOW_DEFAULT = list(VIEWS)
Outcome = Literal["reused", "stored", "stale", "not stored"]  # what TraceService.trace did
# what every trace the editor stores holds (lens summary, hover, inlay hints, trace-confirmed findings); a listing
# asked for (stablehlo, hlo) comes on top
STORED_VIEWS = ("jaxpr", "lines", "cost", "timing", "sharding")
UNTRUSTED_MESSAGE = ("tracing runs this workspace's code, so it is off in an untrusted workspace (Restricted Mode); "
                     "trust the workspace to trace")
DISABLED_MESSAGE = ("tracing is off: enable the setting sharpbits.trace.enabled (other editors: initializationOptions "
                    '{"trace": {"enabled": true}})')


class TraceRefused(Exception):
    """Raised where a worker would be created while tracing is not allowed."""

    def __init__(self, error: dict[str, str]):
        super().__init__(error["message"])
        self.error = error


def refused_result(error: dict[str, str]) -> TraceResult:
    return {"ok": False, "refused": True, "error": {"type": error["type"], "message": error["message"]}}


def invalid_params(message: str) -> TraceResult:
    return {"ok": False, "error": {"type": "InvalidParams", "message": message}}


def command_reply(result: TraceResult) -> TraceCommandResult:
    """What the `sharpbits.trace` command answers the editor for a trace: the one place that reply is built (a
    refusal or a stale result as it is; otherwise the summary the editor shows)."""
    if result.get("refused"):
        return {"ok": False, "refused": True, "error": result.get("error")}
    if result.get("stale"):
        return {"ok": False, "stale": True}
    out: TraceCommandResult = {"ok": bool(result.get("ok")), "needsSpec": bool(result.get("needsSpec")),
                               "summary": summary(result), "error": result.get("error"),
                               "device": result.get("device")}
    if "notebook" in result:  # which cells ran: the editor shows it
        out["note"] = result["notebook"]["note"]
    return out


def request_reply(result: TraceResult) -> TraceResult:
    """What the `sharpbits/trace` request answers: the result itself (the one place that reply is built)."""
    return result


class TraceWorkers:
    """The trace settings, what the client said about trust, and the workers (one per worker settings)."""

    MAX_WORKERS = 2  # the configured platform, plus one per-request override (e.g. a quick look at "tpu" HLO)

    def __init__(self) -> None:
        self.settings = TraceSettings()
        self.clients: dict[tuple[str, ...], TraceClient] = {}  # worker settings -> client, most recently used last
        self.lock = threading.Lock()
        self.trusted: bool | None = None  # what the client said; None: it never said (not VS Code)
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sharpbits-trace")

    @staticmethod
    def _key(worker: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(repr(worker.get(k)) for k in ("interpreter", "platform", "launchPrefix", "cacheDir",
                                                   "memoryLimitMb"))

    def refusal(self) -> dict[str, str] | None:
        """The trace permission: why tracing may not run now (an error for the result), or None when it may."""
        if self.trusted is False:
            return {"type": "WorkspaceNotTrusted", "message": UNTRUSTED_MESSAGE}
        if not self.settings.enabled:
            return {"type": "TracingDisabled", "message": DISABLED_MESSAGE}
        return None

    @property
    def client(self) -> TraceClient | None:
        """The client for the configured settings, if one exists."""
        return self.clients.get(self._key(self.settings.worker.as_mapping()))

    def get_client(self, platform: str | None = None, cwd: str | None = None) -> TraceClient:
        """The client for the current settings (a platform override in a request gets its own worker). A new
        client's worker starts in `cwd` (the project root; each trace then runs in its own root). Raises
        TraceRefused when tracing is not allowed."""
        from sharpbits.trace import client as trace_client

        evicted = []
        with self.lock:  # update() changes the settings under the same lock: the permission sees them whole
            refused = self.refusal()
            if refused is not None:
                raise TraceRefused(refused)
            worker = self.settings.worker.as_mapping()
            if platform:
                worker["platform"] = platform
            key = self._key(worker)
            client = self.clients.pop(key, None)
            if client is None:
                client = trace_client.TraceClient(trace_client.WorkerConfig.from_settings(worker, cwd=cwd))
            self.clients[key] = client
            while len(self.clients) > self.MAX_WORKERS:
                evicted.append(self.clients.pop(next(iter(self.clients))))
        for old in evicted:
            self.executor.submit(old.stop)
        return client

    def stop(self) -> None:
        with self.lock:
            old, self.clients = list(self.clients.values()), {}
        for c in old:
            self.executor.submit(c.stop)

    def update(self, trusted: bool | None, trace: TraceSettings) -> None:
        """New settings (and what the client said about trust); stops workers that no longer fit them."""
        with self.lock:
            if trusted is not None:
                self.trusted = trusted  # a later message that leaves it out keeps what the client said last
            if self.trusted is False:  # the workspace's own choice of program: not used, not even kept
                trace = replace(trace, worker=trace.worker.untrusted())
            changed = self._key(trace.worker.as_mapping()) != self._key(self.settings.worker.as_mapping())
            self.settings = trace
            old: list[TraceClient] = []
            if changed or self.refusal() is not None:
                # another interpreter, platform or prefix (the old workers are of no use), or no tracing now
                old, self.clients = list(self.clients.values()), {}
        for c in old:
            self.executor.submit(c.stop)


class _Marker:
    """Identifies one trace so that cancelling it stops only that trace. A cancel that comes before the trace
    reached its worker is remembered, and the trace does not start."""

    def __init__(self) -> None:
        self.client: TraceClient | None = None
        self.cancelled = False


@dataclass(frozen=True)
class TraceTarget:
    """What a trace of a function of one document runs: the document as the editor has it now. `cells`: for a
    notebook cell, the code cells up to it as (uri, version), and `cell_source` the program they make."""

    uri: str
    version: int | None
    text: str | None
    cells: tuple[tuple[str, int | None], ...] | None = None
    cell_source: CellTraceSource | None = None


@dataclass(frozen=True)
class TraceEntry:
    """The last trace result of one function, kept for the document version (and cells) it traced."""

    version: int | None
    result: TraceResult
    cells: tuple[tuple[str, int | None], ...] | None = None
    views: frozenset[str] = frozenset()
    spec: str | None = None  # the argument spec the editor gave (None: the document's directive or none)

    def is_of(self, version: int | None, cells: tuple[tuple[str, int | None], ...] | None) -> bool:
        return self.version == version and self.cells == cells


class TraceStore:
    """The last trace result per function of each document (uri -> qualname -> entry): what every view reads."""

    def __init__(self) -> None:
        self.entries: dict[str, dict[str, TraceEntry]] = {}

    def __bool__(self) -> bool:
        return bool(self.entries)

    def of_document(self, uri: str) -> dict[str, TraceEntry]:
        """Every stored result of the document, current or not (the lens says "code changed" for the others)."""
        return self.entries.get(uri, {})

    def current(self, uri: str, version: int | None,
                cells: tuple[tuple[str, int | None], ...] | None) -> dict[str, TraceResult]:
        """The results of this version of the document (for a notebook cell: and of the cells above it)."""
        return {name: entry.result for name, entry in self.entries.get(uri, {}).items() if entry.is_of(version, cells)}

    def put(self, uri: str, function: str, entry: TraceEntry) -> None:
        self.entries.setdefault(uri, {})[function] = entry


def _trace_in_worker(workers: TraceWorkers, params: dict[str, Any], doc_text: str | None, root: str | None,
                     marker: _Marker, cell_source: CellTraceSource | None = None) -> TraceResult:
    """Runs one trace (blocking, on the trace executor); asks for the trace permission first. `cell_source`: the
    function is in a notebook cell (params' uri); the notebook's program up to that cell runs, and the result
    comes back in that cell's lines (sharpbits.trace.notebook)."""
    from pygls.uris import to_fs_path

    from sharpbits.trace.notebook import in_cell
    from sharpbits.trace.specs import SpecError, resolve_spec

    refused = workers.refusal()
    if refused is not None:  # before reading the document or its directives: nothing about it is looked at
        return refused_result(refused)
    uri = params.get("uri") or ""
    path = to_fs_path(uri) if uri.startswith("file:") else uri
    function = params.get("function")
    if not path or not function:
        return invalid_params("sharpbits/trace needs uri and function")
    text = params.get("text") if cell_source is None else cell_source.text
    if cell_source is not None:
        path = cell_source.path
    if text is None:
        text = doc_text
    if text is None:
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as exc:
            return invalid_params(f"cannot read {path}: {exc}")
    try:
        resolved = resolve_spec(text, function, params.get("args"))
    except SpecError as exc:
        # the editor prompts for a spec when it sees needsSpec
        return {"ok": False, "needsSpec": True, "error": {"type": "SpecNeeded", "message": str(exc)}}
    show = params.get("show") or SHOW_DEFAULT
    if isinstance(show, str):
        show = [s.strip() for s in show.split(",") if s.strip()]
    unknown = [v for v in show if v not in VIEWS]
    platform = params.get("platform")
    if unknown or (platform and platform not in PLATFORMS):
        what = f"unknown view(s) {', '.join(map(str, unknown))}" if unknown else f"unknown platform {platform!r}"
        return invalid_params(f"sharpbits/trace: {what}: views are {', '.join(VIEWS)}; platforms are "
                              f"{', '.join(PLATFORMS)}")
    timeout = float(params.get("timeout") or workers.settings.timeout_s)
    try:
        client = workers.get_client(params.get("platform"), cwd=root or os.path.dirname(os.path.abspath(path)))
    except TraceRefused as exc:  # the settings changed since the check above
        return refused_result(exc.error)
    marker.client = client
    if marker.cancelled:
        return {"ok": False, "error": {"type": "Cancelled", "phase": "trace",
                                       "message": "the trace was cancelled before it started"}}
    result = cast(TraceResult, client.trace(path=path, text=text, function=function, spec=resolved.spec, show=show,
                                            timeout=timeout, root=root, lower_for=params.get("lowerFor"),
                                            marker=marker, cells=cell_source.cell_ranges() if cell_source else None,
                                            check_key_reuse=workers.settings.check_key_reuse))
    result["spec"] = {"source": resolved.source, "text": resolved.spec.get("text"), "line": resolved.line}
    result["uri"] = uri
    if cell_source is not None:
        result = in_cell(result, cell_source)
    return result


class TraceService:
    """Everything tracing keeps for one language server; every tracing feature goes through it."""

    def __init__(self) -> None:
        self.workers = TraceWorkers()
        self.store = TraceStore()
        self.retrace_tasks: dict[str, asyncio.Task[None]] = {}  # uri -> the auto-retrace in flight

    @property
    def settings(self) -> TraceSettings:
        return self.workers.settings

    def refusal(self) -> dict[str, str] | None:
        """The trace permission (see TraceWorkers.refusal)."""
        return self.workers.refusal()

    def configure(self, settings: EditorSettings) -> None:
        """Apply editor settings. Starts nothing: the worker starts at the first trace. Stops the workers when
        tracing is no longer allowed or their interpreter, platform or prefix changed."""
        self.workers.update(settings.trusted, settings.trace)

    async def run(self, params: dict[str, Any], doc_text: str | None, root: str | None,
                  cell_source: CellTraceSource | None = None) -> TraceResult:
        """Runs one trace off the event loop: the one place traces start, are shielded and are cancelled. A
        cancelled await ($/cancelRequest, the progress notification's Cancel, a newer edit) stops the worker's
        work too, not only our wait for it."""
        refused = self.workers.refusal()
        if refused is not None:
            return refused_result(refused)
        loop = asyncio.get_running_loop()
        marker = _Marker()
        future = loop.run_in_executor(self.workers.executor, _trace_in_worker, self.workers, params, doc_text, root,
                                      marker, cell_source)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            marker.cancelled = True
            if marker.client is not None:
                marker.client.cancel(marker)
            raise

    async def trace(self, target: TraceTarget, function: str, spec: str | None, root: str | None,
                    still_current: Callable[[], bool], views: Iterable[str] = STORED_VIEWS,
                    fresh: bool = False) -> tuple[TraceResult, Outcome]:
        """The trace of `function` in the document `target`, with at least `views`. Unless `fresh`, the stored
        result when it is of this version and holds them ("reused": no second trace to open a listing); else a
        fresh trace, stored ("stored") when `still_current()` says the document was not edited meanwhile ("stale":
        a result of an old version is never stored), or not stored when it asks for a spec or was refused."""
        entry = self.store.of_document(target.uri).get(function)
        reusable = entry is not None and entry.is_of(target.version, target.cells) and spec in (None, entry.spec)
        if entry is not None and reusable and not fresh and set(views) <= entry.views:
            return entry.result, "reused"
        wanted = set(views) | set(STORED_VIEWS) | (entry.views if entry is not None and reusable else set())
        if spec is None and entry is not None and reusable:
            spec = entry.spec  # the spec the editor gave for this version stays
        show = [v for v in VIEWS if v in wanted]
        params: dict[str, Any] = {"uri": target.uri, "function": function, "show": show}
        if target.cell_source is None:
            params["text"] = target.text
        if spec:
            params["args"] = spec
        result = await self.run(params, target.text, root, target.cell_source)
        if result.get("refused") or result.get("needsSpec"):
            return result, "not stored"
        if not still_current():
            return result, "stale"
        used = result.get("spec")
        if spec is None and used is not None and used.get("source") == "explicit":
            spec = used.get("text")
        # a listing the result holds though it was not asked for (`lines` maps StableHLO and HLO) is held too
        held = frozenset(show) | {view for view in VIEWS if view in result}
        self.store.put(target.uri, function, TraceEntry(target.version, result, target.cells, held, spec))
        return result, "stored"

    def shutdown(self) -> None:
        """Stop the workers (also happens by itself: a worker exits when its stdin closes)."""
        for task in self.retrace_tasks.values():
            task.cancel()
        self.workers.stop()
        self.workers.executor.shutdown(wait=True)


__all__ = ["STORED_VIEWS", "TraceEntry", "TraceRefused", "TraceService", "TraceStore", "TraceTarget",
           "TraceWorkers", "command_reply", "refused_result", "request_reply"]
