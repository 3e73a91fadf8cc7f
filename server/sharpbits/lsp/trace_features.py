"""Tracing over LSP: custom requests only, so the editor decides when a (costly) trace runs.

    sharpbits/trace               {uri, text?, function, args?, show?, platform?, lowerFor?, timeout?} -> result
    sharpbits/traceWorkerStatus   {} -> {state: stopped|starting|ready|failed, device, jax, error?, ...}
    sharpbits/traceWorkerRestart  {} -> the status after starting a fresh worker in the background

One `TraceService` per language server (`server.traces`, made by the server's constructor) owns everything
tracing keeps: the settings and what the client said about trust, the workers, the results per document, the
auto-retrace tasks. Every feature (these requests, and CodeLens, hover, inlay hints, diagnostics and
auto-retrace in trace_views) asks it; `TraceService.run()` is the one place a trace is started, shielded and
cancelled. `register(server)` adds the handlers; `server.traces.configure(settings)` is called on initialize and
on every configuration change with the editor's settings (`settings["trusted"]`, and `settings["trace"]`:
enabled, interpreter, platform, launchPrefix, cacheDir, memoryLimitMb, timeout).

Tracing runs the user's code, so every way into it goes through one gate, `_TraceState.refusal()`: it refuses
when the client said the workspace is not trusted (`trusted: false`, VS Code's Restricted Mode) or when
`trace.enabled` is not true. A client that says nothing about trust (Neovim, Emacs, ...) traces only when its
user enabled tracing in the initializationOptions. `get_client()`, the only place a worker is created, refuses
too, so a request that forgot to ask still cannot start one. The worker starts at the first trace, never at
initialize or on a settings push (a launch prefix such as `ssh host` must not connect because a folder was
opened).

Nothing here imports jax, and nothing starts at import time. The blocking client calls run on a small executor
of our own (never on the event loop, never on pygls's pool, which also reads stdin).
"""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sharpbits.trace.protocol import PLATFORMS, VIEWS, TraceResult

if TYPE_CHECKING:
    from sharpbits.trace.notebook import CellTraceSource

TRACE_COMMAND = "sharpbits.trace"
SHOW_DEFAULT = list(VIEWS)
# settings that name a program to run (or a folder to write): dropped when the client says the workspace is untrusted
UNTRUSTED_DROPS = ("interpreter", "launchPrefix", "cacheDir")
UNTRUSTED_MESSAGE = ("tracing runs this workspace's code, so it is off in an untrusted workspace (Restricted Mode); "
                     "trust the workspace to trace")
DISABLED_MESSAGE = ("tracing is off: enable the setting sharpbits.trace.enabled (other editors: initializationOptions "
                    '{"trace": {"enabled": true}})')


class TraceRefused(Exception):
    """Raised by the gate where a worker would be created while tracing is not allowed."""

    def __init__(self, error: dict[str, str]):
        super().__init__(error["message"])
        self.error = error


class _TraceState:
    MAX_WORKERS = 2  # the configured platform, plus one per-request override (e.g. a quick look at "tpu" HLO)

    def __init__(self) -> None:
        self.settings: dict[str, Any] = {}
        self.clients: dict[tuple[Any, ...], Any] = {}  # settings key -> TraceClient, most recently used last
        self.lock = threading.Lock()
        self.trusted: bool | None = None  # what the client said; None: it never said (not VS Code)
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sharpbits-trace")

    @staticmethod
    def _key(settings: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(repr(settings.get(k)) for k in ("interpreter", "platform", "launchPrefix", "cacheDir",
                                                     "memoryLimitMb"))

    def refusal(self) -> dict[str, str] | None:
        """The gate: why tracing may not run now (an error for the result), or None when it may."""
        if self.trusted is False:
            return {"type": "WorkspaceNotTrusted", "message": UNTRUSTED_MESSAGE}
        if self.settings.get("enabled") is not True:
            return {"type": "TracingDisabled", "message": DISABLED_MESSAGE}
        return None

    @property
    def client(self) -> Any:
        """The client for the configured settings, if one exists."""
        return self.clients.get(self._key(self.settings))

    def get_client(self, platform: str | None = None, cwd: str | None = None) -> Any:
        """The client for the current settings (a platform override in a request gets its own worker). A new
        client's worker starts in `cwd` (the project root; each trace then runs in its own root). Raises
        TraceRefused when tracing is not allowed."""
        from sharpbits.trace.client import TraceClient, WorkerConfig

        evicted = []
        with self.lock:  # configure() changes the settings under the same lock: the gate sees them whole
            refused = self.refusal()
            if refused is not None:
                raise TraceRefused(refused)
            settings = dict(self.settings)
            if platform:
                settings["platform"] = platform
            key = self._key(settings)
            client = self.clients.pop(key, None)
            if client is None:
                client = TraceClient(WorkerConfig.from_settings(settings, cwd=cwd))
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

    def update(self, trusted: bool | None, trace: dict[str, Any]) -> None:
        """New settings (and what the client said about trust); stops workers that no longer fit them."""
        with self.lock:
            if trusted is not None:
                self.trusted = trusted  # a later message that leaves it out keeps what the client said last
            if self.trusted is False:
                for key in UNTRUSTED_DROPS:  # the workspace's own choice of program: not used, not even kept
                    trace.pop(key, None)
            changed = self._key(trace) != self._key(self.settings)
            self.settings = trace
            old: list[Any] = []
            if changed or self.refusal() is not None:
                # another interpreter, platform or prefix (the old workers are of no use), or no tracing now
                old, self.clients = list(self.clients.values()), {}
        for c in old:
            self.executor.submit(c.stop)


def _plain(obj: Any) -> Any:
    """pygls hands custom params over as namedtuples: back to dicts and lists."""
    if hasattr(obj, "_asdict"):
        return {k: _plain(v) for k, v in obj._asdict().items()}
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj


class _Marker:
    """Identifies one sharpbits/trace request so that cancelling it stops only that trace."""

    client: Any = None


def refused_result(error: dict[str, str]) -> TraceResult:
    return {"ok": False, "refused": True, "error": {"type": error["type"], "message": error["message"]}}


def _run_trace(st: _TraceState, params: dict[str, Any], doc_text: str | None, root: str | None,
               marker: _Marker | None = None, cell_source: CellTraceSource | None = None) -> TraceResult:
    """Every trace the server runs comes through here, and the gate is the first thing it asks. `cell_source`: the
    function is in a notebook cell (params' uri); the notebook's program up to that cell runs, and the result
    comes back in that cell's lines (sharpbits.trace.notebook)."""
    from pygls.uris import to_fs_path

    from sharpbits.trace.specs import SpecError, resolve_spec

    refused = st.refusal()
    if refused is not None:  # before reading the document or its directives: nothing about it is looked at
        return refused_result(refused)
    uri = params.get("uri") or ""
    path = to_fs_path(uri) if uri.startswith("file:") else uri
    function = params.get("function")
    if not path or not function:
        return {"ok": False, "error": {"type": "InvalidParams", "message": "sharpbits/trace needs uri and function"}}
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
            return {"ok": False, "error": {"type": "InvalidParams", "message": f"cannot read {path}: {exc}"}}
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
        return {"ok": False, "error": {"type": "InvalidParams", "message": f"sharpbits/trace: {what}: views are "
                                       f"{', '.join(VIEWS)}; platforms are {', '.join(PLATFORMS)}"}}
    timeout = float(params.get("timeout") or st.settings.get("timeout") or 120)
    try:
        client = st.get_client(params.get("platform"), cwd=root or os.path.dirname(os.path.abspath(path)))
    except TraceRefused as exc:  # the settings changed since the check above
        return refused_result(exc.error)
    if marker is not None:
        marker.client = client
    result: TraceResult = client.trace(path=path, text=text, function=function, spec=resolved.spec, show=show,
                                          timeout=timeout, root=root, lower_for=params.get("lowerFor"),
                                          marker=marker, cells=cell_source.cell_ranges() if cell_source else None)
    result["spec"] = {"source": resolved.source, "text": resolved.spec.get("text"), "line": resolved.line}
    result["uri"] = uri
    if cell_source is not None:
        from sharpbits.trace.notebook import in_cell

        result = in_cell(result, cell_source)
    return result


@dataclass
class TraceEntry:
    """A trace result, kept for the document version it traced."""

    version: int | None
    result: TraceResult
    # a function in a notebook cell: the code cells that ran (uri, version), up to its own; the result is of these
    cells: tuple[tuple[str, int | None], ...] | None = None


class TraceService:
    """Everything tracing keeps for one language server; every tracing feature goes through it."""

    def __init__(self) -> None:
        self.gate = _TraceState()
        self.results: dict[str, dict[str, TraceEntry]] = {}  # uri -> function -> latest result
        self.retrace_tasks: dict[str, asyncio.Task[None]] = {}  # uri -> the auto-retrace in flight
        self.lens_command = TRACE_COMMAND  # an editor may name its own command (one that prompts for a spec)

    @property
    def settings(self) -> dict[str, Any]:
        return self.gate.settings

    def refusal(self) -> dict[str, str] | None:
        """The gate (see _TraceState.refusal)."""
        return self.gate.refusal()

    def configure(self, settings: dict[str, Any]) -> None:
        """Apply editor settings. Starts nothing: the worker starts at the first trace. Stops the workers when
        tracing is no longer allowed or their interpreter, platform or prefix changed."""
        settings = settings or {}
        trusted = settings.get("trusted")
        lens_command = settings.get("traceLensCommand")
        if isinstance(lens_command, str) and lens_command:
            self.lens_command = lens_command
        self.gate.update(trusted if isinstance(trusted, bool) else None, dict(settings.get("trace") or {}))

    async def run(self, params: dict[str, Any], doc_text: str | None, root: str | None,
                  cell_source: CellTraceSource | None = None) -> TraceResult:
        """Runs one trace off the event loop: the one place traces start, are shielded and are cancelled. A
        cancelled await ($/cancelRequest, the progress notification's Cancel, a newer edit) stops the worker's
        work too, not only our wait for it. `cell_source`: a function in a notebook cell (see _run_trace)."""
        refused = self.gate.refusal()
        if refused is not None:
            return refused_result(refused)
        loop = asyncio.get_running_loop()
        marker = _Marker()
        future = loop.run_in_executor(self.gate.executor, _run_trace, self.gate, params, doc_text, root, marker,
                                      cell_source)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            if marker.client is not None:
                marker.client.cancel(marker)
            raise

    def shutdown(self) -> None:
        """Stop the workers (also happens by itself: a worker exits when its stdin closes)."""
        for task in self.retrace_tasks.values():
            task.cancel()
        self.gate.stop()
        self.gate.executor.shutdown(wait=True)


def register(server: Any) -> None:
    """Register the custom tracing requests on a pygls 2.x LanguageServer that owns a `traces` TraceService."""
    service: TraceService = server.traces
    st = service.gate

    @server.feature("sharpbits/trace")
    async def sharpbits_trace(ls: Any, params: Any) -> TraceResult:
        p = _plain(params) or {}
        doc_text = None
        uri = p.get("uri")
        cell_source = None
        if uri and service.refusal() is None:
            from sharpbits.lsp.notebooks import cell_trace_source

            cell_source = cell_trace_source(ls, uri)  # a notebook cell: its notebook up to that cell runs
        if uri and p.get("text") is None and service.refusal() is None and cell_source is None:
            try:  # the open document's current text, unsaved edits included
                doc_text = ls.workspace.get_text_document(uri).source
            except Exception:
                doc_text = None
        return await service.run(p, doc_text, getattr(ls.workspace, "root_path", None), cell_source)

    @server.feature("sharpbits/traceWorkerStatus")
    async def sharpbits_trace_worker_status(ls: Any, params: Any) -> dict[str, Any]:
        status: dict[str, Any] = {"state": "stopped"} if st.client is None else st.client.status()
        refused = st.refusal()
        status["enabled"] = refused is None
        if refused is not None:
            status["refused"] = refused
        return status

    @server.feature("sharpbits/traceWorkerRestart")
    async def sharpbits_trace_worker_restart(ls: Any, params: Any) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        refused = st.refusal()
        if refused is not None:
            return {"state": "stopped", "enabled": False, "refused": refused}
        root = getattr(ls.workspace, "root_path", None)

        def restart() -> dict[str, Any]:
            try:
                client = st.get_client(cwd=root)
            except TraceRefused as exc:
                return {"state": "stopped", "enabled": False, "refused": exc.error}
            client.restart(background=True)
            return dict(client.status())

        return await loop.run_in_executor(st.executor, restart)


__all__ = ["TraceEntry", "TraceRefused", "TraceService", "refused_result", "register"]
