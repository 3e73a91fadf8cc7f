"""Tracing over LSP, run only on an explicit action (opening a file never executes it):

    sharpbits.trace               command behind the Trace lens: {uri, function, args?} -> summary for the editor
    sharpbits/trace               {uri, text?, function, args?, show?, platform?, lowerFor?, timeout?} -> result
    sharpbits/tracedFunctions     {uri} -> the document's traceable functions
    sharpbits/traceWorkerStatus   {} -> {state: stopped|starting|ready|failed, device, jax, error?, ...}
    sharpbits/traceWorkerRestart  {} -> the status after starting a fresh worker in the background

The command and `sharpbits/trace` for an open document (Show jaxpr / StableHLO / HLO) go through the one stored
result per function (TraceService.trace): a listing the stored result holds opens without a second trace, and a
new trace is stored for every view (lens, hover, inlay hints, diagnostics). A request with its own text,
platform, lowerFor or time limit is a one-off trace of that and is not stored. With `trace.autoRetrace`, the
functions of a document that have results are traced again after an edit (a newer edit cancels the run).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from sharpbits.lsp.language_server import SharpbitsServer
from sharpbits.lsp.settings import TRACE_COMMAND
from sharpbits.lsp.trace_service import (
    STORED_VIEWS,
    TraceRefused,
    TraceTarget,
    command_reply,
    invalid_params,
    refused_result,
    request_reply,
)
from sharpbits.lsp.views import Analysed
from sharpbits.trace.protocol import VIEWS, TraceCommandResult, TracedFunction, TraceResult, WorkerStatus

ONE_OFF = ("text", "platform", "lowerFor", "timeout")  # request params that make a trace not the document's own


def _plain(obj: Any) -> Any:
    """pygls hands custom params over as namedtuples: back to dicts and lists."""
    if hasattr(obj, "_asdict"):
        return {k: _plain(v) for k, v in obj._asdict().items()}
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    return obj


def _views(show: Any) -> list[str] | None:
    """The views a request asks for, or None when it names one that does not exist (the trace reports it)."""
    if not show:
        return list(STORED_VIEWS)
    if isinstance(show, str):
        show = [s.strip() for s in show.split(",") if s.strip()]
    return list(show) if isinstance(show, list) and all(v in VIEWS for v in show) else None


def _still_current(ls: SharpbitsServer, target: TraceTarget) -> Callable[[], bool]:
    """Whether the document (and, in a notebook, the cells above) is still what `target` traced."""

    def check() -> bool:
        now = ls.trace_target(target.uri)
        return now is not None and (now.version, now.cells) == (target.version, target.cells)
    return check


async def trace_function(ls: SharpbitsServer, uri: str, function: str, spec: str | None, *,
                         views: tuple[str, ...] | list[str] = STORED_VIEWS, fresh: bool) -> tuple[TraceResult, str]:
    """Traces `function` of the document through the store, and shows a new result everywhere."""
    target = ls.trace_target(uri)
    if target is None:
        return invalid_params(f"sharpbits.trace: cannot read {uri}"), "not stored"
    result, outcome = await ls.traces.trace(target, function, spec, ls.root_path, _still_current(ls, target),
                                            views, fresh=fresh)
    if outcome == "stored":
        await ls.refresh(uri)
    return result, outcome


async def auto_retrace(ls: SharpbitsServer, view: Analysed, after_edit: bool) -> None:
    """With `trace.autoRetrace`: after an edit, trace again the functions of this document that have results. A
    newer edit cancels the run in flight (its result would be for an old version anyway)."""
    service = ls.traces
    stored = service.store.of_document(view.uri)
    if not after_edit or not stored or service.refusal() is not None or not service.settings.auto_retrace:
        return
    previous = service.retrace_tasks.pop(view.uri, None)
    if previous is not None:
        previous.cancel()

    async def retrace() -> None:
        for function, entry in list(stored.items()):
            await trace_function(ls, view.uri, function, entry.spec, fresh=True)

    service.retrace_tasks[view.uri] = asyncio.get_running_loop().create_task(retrace())


def register(server: SharpbitsServer) -> None:
    server.on_analysed(auto_retrace)

    @server.command(TRACE_COMMAND)
    async def trace_command(ls: SharpbitsServer, args: Any) -> TraceCommandResult:
        arg = args[0] if isinstance(args, list | tuple) and args else args
        arg = _plain(arg) if isinstance(_plain(arg), dict) else getattr(arg, "__dict__", {})
        uri, function = arg.get("uri"), arg.get("function")
        if not isinstance(uri, str) or not uri or not isinstance(function, str) or not function:
            return {"ok": False, "error": {"type": "InvalidParams", "message": "sharpbits.trace needs uri and function"}}
        refused = ls.traces.refusal()
        if refused is not None:
            return command_reply(refused_result(refused))
        result, outcome = await trace_function(ls, uri, function, arg.get("args"), fresh=True)
        return command_reply({"ok": False, "stale": True} if outcome == "stale" else result)

    @server.feature("sharpbits/trace")
    async def sharpbits_trace(ls: SharpbitsServer, params: Any) -> TraceResult:
        p = _plain(params)
        p = p if isinstance(p, dict) else {}
        uri, function = p.get("uri"), p.get("function")
        allowed = ls.traces.refusal() is None
        is_open = isinstance(uri, str) and allowed and ls.is_open(uri)
        views = _views(p.get("show"))
        if is_open and isinstance(uri, str) and isinstance(function, str) and function and views is not None and not any(
                p.get(k) is not None for k in ONE_OFF):
            result, _ = await trace_function(ls, uri, function, p.get("args"), views=views, fresh=False)
            return request_reply(result)
        target = ls.trace_target(uri) if is_open and isinstance(uri, str) else None
        cell_source = target.cell_source if target is not None else None  # a cell: its notebook up to it runs
        doc_text = target.text if target is not None and p.get("text") is None and cell_source is None else None
        return request_reply(await ls.traces.run(p, doc_text, ls.root_path, cell_source))

    @server.feature("sharpbits/tracedFunctions")
    async def traced_functions(ls: SharpbitsServer, params: Any) -> list[TracedFunction]:
        """The document's traceable functions (module-level or methods under a JAX transformation)."""
        p = _plain(params)
        uri = p.get("uri") if isinstance(p, dict) else getattr(params, "uri", None)
        view = await ls.analyse(uri) if isinstance(uri, str) and uri else None
        if view is None:
            return []
        return [{"function": f.qualname, "line": f.line, "endLine": f.end_line, "reason": f.reason}
                for f in view.result.functions]

    @server.feature("sharpbits/traceWorkerStatus")
    async def trace_worker_status(ls: SharpbitsServer, params: Any) -> WorkerStatus:
        workers = ls.traces.workers
        client = workers.client
        status: WorkerStatus = {"state": "stopped"} if client is None else client.status()
        refused = workers.refusal()
        status["enabled"] = refused is None
        if refused is not None:
            status["refused"] = {"type": refused["type"], "message": refused["message"]}
        return status

    @server.feature("sharpbits/traceWorkerRestart")
    async def trace_worker_restart(ls: SharpbitsServer, params: Any) -> WorkerStatus:
        workers = ls.traces.workers
        refused = workers.refusal()
        if refused is not None:
            return {"state": "stopped", "enabled": False, "refused": {"type": refused["type"], "message": refused["message"]}}
        root = ls.root_path

        def restart() -> WorkerStatus:
            try:
                client = workers.get_client(cwd=root)
            except TraceRefused as exc:
                return {"state": "stopped", "enabled": False,
                        "refused": {"type": exc.error["type"], "message": exc.error["message"]}}
            client.restart(background=True)
            return client.status()

        return await asyncio.get_running_loop().run_in_executor(workers.executor, restart)
