"""The command "Run with sharpbits" (`sharpbits.runWithSharpbits`): runs the document, or a configured command, under
`sharpbits run`, and shows what running found as diagnostics.

    sharpbits.runWithSharpbits   {uri, command?, timeout?} -> RunCommandResult (counts, summary, exit status)

It runs the workspace's code, so it asks tracing's one permission first (trusted workspace, `trace.enabled`): a
refusal runs nothing. The run uses the trace settings' interpreter and launch prefix, in its own process group
(sharpbits.runtime.editor). Its findings replace the last run's: every file they are in gets them as diagnostics
(source `sharpbits (runtime)`, the message says "seen at runtime: N times"), next to the static findings, until
the file changes at that line. One run at a time: a second one cancels the first.
"""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from sharpbits.lsp.language_server import SharpbitsServer
from sharpbits.lsp.positions import ClientColumns
from sharpbits.runtime import editor
from sharpbits.source import split_lines
from sharpbits.trace.protocol import RunCommandResult

RUN_COMMAND = "sharpbits.runWithSharpbits"


def _argument(args: Any) -> dict[str, Any]:
    arg = args[0] if isinstance(args, list | tuple) and args else args
    if hasattr(arg, "_asdict"):
        arg = arg._asdict()
    return dict(arg) if isinstance(arg, dict) else dict(getattr(arg, "__dict__", {}))


def _invalid(message: str) -> RunCommandResult:
    return {"ok": False, "error": {"type": "InvalidParams", "message": message}}


async def run_with_sharpbits(ls: SharpbitsServer, arg: dict[str, Any]) -> RunCommandResult:
    uri, command, timeout = arg.get("uri"), arg.get("command"), arg.get("timeout")
    refused = ls.traces.refusal()  # before the arguments are looked at: nothing runs, nothing is read
    if refused is not None:
        return {"ok": False, "refused": True, "error": {"type": refused["type"], "message": refused["message"]}}
    path = to_fs_path(uri) if isinstance(uri, str) and uri.startswith("file:") else None
    if command is not None and not (isinstance(command, list) and command and all(isinstance(c, str) for c in command)):
        return _invalid(f"{RUN_COMMAND}: `command` must be a non-empty list of strings")
    if not path and not command:
        return _invalid(f"{RUN_COMMAND} needs the uri of a file (or a command)")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0):
        return _invalid(f"{RUN_COMMAND}: `timeout` must be a number of seconds above 0")
    worker = ls.traces.settings.worker
    plan = editor.plan(path or "", command, ls.root_path, worker.interpreter, worker.launch_prefix,
                       float(timeout) if timeout else None, worker.platform)
    result, findings = await editor.run_program(plan)
    if ls.traces.refusal() is not None:  # trust was withdrawn while it ran: show nothing of it
        return result
    touched = editor.results_of(ls).replace(editor.group_by_file(findings, plan.cwd))
    shown = editor.results_of(ls).files
    result["files"] = sorted(from_fs_path(p) or p for p in shown)
    for file in sorted(touched):
        await _show(ls, file)
    return result


async def _show(ls: SharpbitsServer, path: str) -> None:
    """Publishes the file's diagnostics again: an open document with its static findings (the diagnostics feature
    adds the runtime ones); a file the editor has not opened with the runtime ones alone."""
    uri = from_fs_path(path) or path
    if ls.is_open(uri):
        await ls.refresh(uri)
        return
    seen = editor.results_of(ls).files.get(path)
    lines = seen.lines if seen is not None else split_lines("")
    columns = ClientColumns(lines, ls.workspace.position_codec)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=uri, diagnostics=editor.diagnostics(ls, path, uri, lines, columns)))


def register(server: SharpbitsServer) -> None:
    running: dict[str, asyncio.Task[RunCommandResult]] = {}

    @server.command(RUN_COMMAND)
    async def run_command(ls: SharpbitsServer, args: Any) -> RunCommandResult:
        previous = running.pop("run", None)
        if previous is not None and not previous.done():
            previous.cancel()
        task = asyncio.ensure_future(run_with_sharpbits(ls, _argument(args)))
        running["run"] = task
        try:
            return await task
        except asyncio.CancelledError:
            if not task.done():
                task.cancel()
            me = asyncio.current_task()
            if me is not None and me.cancelling():  # this request itself was cancelled ($/cancelRequest)
                raise
            return {"ok": False, "error": {"type": "Cancelled", "message": "a newer run replaced this one"}}
        finally:
            if running.get("run") is task:
                del running["run"]


__all__ = ["RUN_COMMAND", "register", "run_with_sharpbits"]
