"""Tracing over LSP: custom requests only, so the editor decides when a (costly) trace runs.

    sharpbits/trace               {uri, text?, function, args?, show?, platform?, lowerFor?, timeout?} -> result
    sharpbits/traceWorkerStatus   {} -> {state: stopped|starting|ready|failed, device, jax, error?, ...}
    sharpbits/traceWorkerRestart  {} -> the status after starting a fresh worker in the background

`register(server)` adds the handlers; `configure(server, settings)` is called on initialize and on every
configuration change with the editor's settings (`settings["trace"]`: enabled, interpreter, platform,
launchPrefix, cacheDir, memoryLimitMb, timeout). When tracing is enabled the worker starts in the background
right away, so the first trace pays only tracing and compilation, not `import jax`.

Nothing here imports jax, and nothing starts at import time. The blocking client calls run on a small executor
of our own (never on the event loop, never on pygls's pool, which also reads stdin).
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

_STATE = "_sharpbits_trace_state"
SHOW_DEFAULT = ["jaxpr", "stablehlo", "hlo", "cost", "timing", "lines"]


class _TraceState:
    MAX_WORKERS = 2  # the configured platform, plus one per-request override (e.g. a quick look at "tpu" HLO)

    def __init__(self) -> None:
        self.settings: dict[str, Any] = {}
        self.clients: dict[tuple[Any, ...], Any] = {}  # settings key -> TraceClient, most recently used last
        self.lock = threading.Lock()
        self.pending_start = False
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sharpbits-trace")

    @staticmethod
    def _key(settings: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(repr(settings.get(k)) for k in ("interpreter", "platform", "launchPrefix", "cacheDir",
                                                     "memoryLimitMb"))

    @property
    def client(self) -> Any:
        """The client for the configured settings, if one exists."""
        return self.clients.get(self._key(self.settings))

    def get_client(self, platform: str | None = None) -> Any:
        """The client for the current settings (a platform override in a request gets its own worker)."""
        from sharpbits.trace.client import TraceClient, WorkerConfig

        settings = dict(self.settings)
        if platform:
            settings["platform"] = platform
        key = self._key(settings)
        evicted = []
        with self.lock:
            client = self.clients.pop(key, None)
            if client is None:
                client = TraceClient(WorkerConfig.from_settings(settings))
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


def _state(server: Any) -> _TraceState:
    st = getattr(server, _STATE, None)
    if st is None:
        st = _TraceState()
        setattr(server, _STATE, st)
    return st


def _plain(obj: Any) -> Any:
    """pygls hands custom params over as namedtuples: back to dicts and lists."""
    if hasattr(obj, "_asdict"):
        return {k: _plain(v) for k, v in obj._asdict().items()}
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj


def configure(server: Any, settings: dict[str, Any]) -> None:
    """Apply editor settings; start the worker in the background when tracing is enabled."""
    st = _state(server)
    trace = dict((settings or {}).get("trace") or {})
    if st._key(trace) != st._key(st.settings):
        st.stop()  # another interpreter, platform or prefix: the old workers are of no use
    st.settings = trace
    if trace.get("enabled"):
        client = st.get_client()
        # start() spawns the process and returns (`import jax` happens over there), but it waits for a trace in
        # flight to release the client: never on the event loop
        st.pending_start = True

        def start() -> None:
            try:
                client.start(background=True)
            finally:
                st.pending_start = False

        st.executor.submit(start)
    else:
        st.stop()


class _Marker:
    """Identifies one sharpbits/trace request so that cancelling it stops only that trace."""

    client: Any = None


def _run_trace(st: _TraceState, params: dict[str, Any], doc_text: str | None, root: str | None,
               marker: _Marker | None = None) -> dict[str, Any]:
    from pygls.uris import to_fs_path

    from sharpbits.trace.specs import SpecError, resolve_spec

    uri = params.get("uri") or ""
    path = to_fs_path(uri) if uri.startswith("file:") else uri
    function = params.get("function")
    if not path or not function:
        return {"ok": False, "error": {"type": "InvalidParams", "message": "sharpbits/trace needs uri and function"}}
    text = params.get("text")
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
    timeout = float(params.get("timeout") or st.settings.get("timeout") or 120)
    client = st.get_client(params.get("platform"))
    if marker is not None:
        marker.client = client
    result: dict[str, Any] = client.trace(path=path, text=text, function=function, spec=resolved.spec, show=show,
                                          timeout=timeout, root=root, lower_for=params.get("lowerFor"),
                                          marker=marker)
    result["spec"] = {"source": resolved.source, "text": resolved.spec.get("text"), "line": resolved.line}
    result["uri"] = uri
    return result


def register(server: Any) -> None:
    """Register the custom tracing requests on a pygls 2.x LanguageServer."""
    st = _state(server)

    @server.feature("sharpbits/trace")
    async def sharpbits_trace(ls: Any, params: Any) -> dict[str, Any]:
        p = _plain(params) or {}
        doc_text = None
        uri = p.get("uri")
        if uri and p.get("text") is None:
            try:  # the open document's current text, unsaved edits included
                doc_text = ls.workspace.get_text_document(uri).source
            except Exception:
                doc_text = None
        root = getattr(ls.workspace, "root_path", None)
        loop = asyncio.get_running_loop()
        marker = _Marker()
        future = loop.run_in_executor(st.executor, _run_trace, st, p, doc_text, root, marker)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            # $/cancelRequest (the user edited, a newer trace supersedes this one): stop the worker's work too
            if marker.client is not None:
                marker.client.cancel(marker)
            raise

    @server.feature("sharpbits/traceWorkerStatus")
    async def sharpbits_trace_worker_status(ls: Any, params: Any) -> dict[str, Any]:
        status: dict[str, Any] = {"state": "stopped"} if st.client is None else st.client.status()
        if status["state"] == "stopped" and st.pending_start:
            status["state"] = "starting"
        status["enabled"] = bool(st.settings.get("enabled"))
        return status

    @server.feature("sharpbits/traceWorkerRestart")
    async def sharpbits_trace_worker_restart(ls: Any, params: Any) -> dict[str, Any]:
        loop = asyncio.get_running_loop()

        def restart() -> dict[str, Any]:
            client = st.get_client()
            client.restart(background=True)
            return dict(client.status())

        return await loop.run_in_executor(st.executor, restart)


def shutdown(server: Any) -> None:
    """Stop the worker (also happens by itself: the worker exits when its stdin closes)."""
    st = getattr(server, _STATE, None)
    if st is not None:
        st.stop()
        st.executor.shutdown(wait=True)


__all__ = ["configure", "register", "shutdown"]
