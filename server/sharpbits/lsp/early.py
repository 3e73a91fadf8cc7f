"""The first document's diagnostics before the server is imported (lsp/start.py, `sharpbits serve`).

A fresh server's first diagnostics used to wait for the whole server's imports (pygls, lsprotocol's types, cattrs,
asyncio, every feature: most of a second on a loaded machine) before the analysis even started. After start.py
answered `initialize`, this module reads the messages that follow while they are the ones an editor sends first
(`initialized`, `$/setTrace`) up to the first `textDocument/didOpen` of a Python file, and for that one imports
only the analysis, analyses the text under the settings the server will have (initializationOptions on top of the
workspace's [tool.sharpbits]) and publishes its diagnostics: the same message the server publishes for it (the
conversion is lsp/finding_diagnostic.py's, written out in JSON; tests/lsp/test_startup.py compares the two).
Then start.py imports the server and hands it everything read here, in order: it handles each message as if it
had read it itself, and the document's analysis (its IncrementalAnalysis) is handed over too, so the server's
own analysis of the same text is answered from it.

Anything else (a request, a notebook, a document that does not parse, is large (`MAX_LINES`) or starts with a
byte order mark, a settings push) stops the reading at once: the server reads it and does as before; so does
waiting (`WAIT_S`: no document opened so soon after `initialize`). The analysis is stopped, and left to the
server, past the server's own in-thread limit or its analysisTimeoutMs (a hostile or huge file, see `_analysed`).
The server does not publish the same diagnostics again for that version (lsp/features/diagnostics.py).

Standard library and the analysis only: no pygls, lsprotocol or asyncio here.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from pygls.uris import to_fs_path  # (pygls.uris is standard library only: urllib and re)

from sharpbits.lsp.headers import MAX_HEADER, body_length

if TYPE_CHECKING:
    from sharpbits.analysis.engine import AnalysisResult
    from sharpbits.analysis.incremental import IncrementalAnalysis

IN_THREAD_S = 1.0  # as the server's (lsp/language_server.py): past this its analysis moves to a child process
IN_THREAD_S_PER_LINE = 0.0004
WAIT_S = 0.3  # no didOpen by then (editors send it with `initialized`): the server takes over
MAX_LINES = 10_000  # larger documents go to the server (its analysis does not hold up its other work)
PARSES = 30  # an analysis takes 3-10 parses of its text: past this many it is stopped even on a loaded machine
_BEFORE_OPEN = ("initialized", "$/setTrace")  # notifications an editor sends before its first didOpen
_SEVERITY = {"error": 1, "warning": 2, "info": 3, "hint": 4}  # LSP DiagnosticSeverity


@dataclass
class Early:
    """What was read after `initialize` (to be handed to the server, in order), the server's input from here on
    (`Relay`), and the first document's analysis when its diagnostics were published: (uri, version, its
    IncrementalAnalysis, the result published)."""

    consumed: bytes  # (the server reads it first: every message read here is also the server's to handle)
    stdin: Relay
    document: tuple[str, int, IncrementalAnalysis, AnalysisResult] | None = None


class Relay:
    """The server's stdin after lsp/early.py: a thread reads whatever the client sends, as it comes (never waiting
    for a line or a body to complete), for early.py to wait on with a time limit and then for the server's framing
    (`read1`), after what early.py read."""

    def __init__(self, stdin: BinaryIO) -> None:
        self._stdin = stdin
        self.chunks: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, name="sharpbits-stdin-relay", daemon=True).start()

    def _read(self) -> None:
        read = getattr(self._stdin, "read1", self._stdin.read)
        while True:
            try:
                chunk = read(1 << 20)
            except (OSError, ValueError):
                chunk = b""
            self.chunks.put(chunk)
            if not chunk:
                return

    def read1(self, size: int = -1) -> bytes:
        chunk = self.chunks.get()
        if not chunk:
            self.chunks.put(chunk)  # the end stays the end for every later read
        return chunk

    read = read1


def _message(buffer: bytearray, start: int) -> tuple[int, bytes] | bool | None:
    """The message simply framed in `buffer` from `start`: (where it ends, its body); None: not complete yet;
    False: not a message simply framed (the server's framing deals with it)."""
    header: list[bytes] = []
    at = start
    while True:
        end = buffer.find(b"\n", at)
        if end < 0:
            return False if len(buffer) - at > MAX_HEADER else None
        line = bytes(buffer[at:end + 1])
        at = end + 1
        if not line.strip():
            break
        header.append(line)
    length = body_length(header)
    if length is None:
        return False
    if len(buffer) < at + length:
        return None
    return at + length, bytes(buffer[at:at + length])


def first_document(stdin: BinaryIO, out: BinaryIO, init_params: dict[str, Any], encoding: str,
                   write: Any) -> Early:
    """Reads up to the first didOpen (see the module docstring) and publishes its diagnostics. `encoding`: the
    position encoding start.py announced; `write`: start.py's (one message written)."""
    relay = Relay(stdin)
    buffer = bytearray()  # everything read: all of it goes to the server, in order
    start = 0  # where the next message begins
    deadline = time.monotonic() + WAIT_S

    def done(document: tuple[str, int, IncrementalAnalysis, AnalysisResult] | None = None) -> Early:
        return Early(bytes(buffer), relay, document)

    while True:
        found = _message(buffer, start)
        while found is None:
            try:
                chunk = relay.chunks.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                return done()  # no document opened so soon: the server takes over (its import is not held up)
            if not chunk:
                relay.chunks.put(chunk)
                return done()
            buffer += chunk
            found = _message(buffer, start)
        if found is False:
            return done()
        start, body = found  # type: ignore[misc]
        try:
            message = json.loads(body)
        except (ValueError, RecursionError):
            return done()
        if not isinstance(message, dict) or "id" in message:
            return done()
        method = message.get("method")
        if method == "textDocument/didOpen":
            return done(_publish_first(out, init_params, encoding, message.get("params"), write))
        if method not in _BEFORE_OPEN:
            return done()


def _publish_first(out: BinaryIO, init_params: dict[str, Any], encoding: str, params: Any,
                   write: Any) -> tuple[str, int, IncrementalAnalysis, AnalysisResult] | None:
    opened = params.get("textDocument") if isinstance(params, dict) else None
    if not isinstance(opened, dict):
        return None
    uri, text, version, language = (opened.get(k) for k in ("uri", "text", "version", "languageId"))
    if not (isinstance(uri, str) and isinstance(text, str) and type(version) is int and language == "python"):
        return None
    if not uri.startswith("file:") or text.startswith("\ufeff"):
        return None
    path = to_fs_path(uri)
    if not path or not path.endswith(".py"):
        return None

    from sharpbits.analysis.incremental import IncrementalAnalysis
    from sharpbits.analysis.project_index import start_shared_index
    from sharpbits.lsp.settings import EditorSettings, read_settings, workspace_config
    from sharpbits.source import split_lines

    options = init_params.get("initializationOptions")
    settings, _ = read_settings(options if isinstance(options, dict) else {}, EditorSettings())
    root_uri = init_params.get("rootUri")
    folders = init_params.get("workspaceFolders")
    if not root_uri and folders:
        root_uri = folders[0]["uri"]
    root = to_fs_path(root_uri) if root_uri else None
    config, _ = workspace_config(root, settings.rules)
    if len(text) / 1024 > settings.max_file_size_kb or text.count("\n") > MAX_LINES:
        return None
    index = start_shared_index([Path(root)] if root else [])  # as the server's didOpen does (features/documents.py)
    index.update(path, text, lazy=True)
    document = IncrementalAnalysis(path, config.selection_for(path))
    result = _analysed(document, text, settings.analysis_timeout_s)
    if result is None or result.syntax_error is not None or result.stopped:
        return None
    lines = split_lines(text)
    diagnostics = []
    if result.findings:  # (its imports, tempfile's among them, wait until a finding needs a link)
        from sharpbits.lsp.rule_pages import docs_link
    for f in result.findings:
        diagnostic: dict[str, Any] = {
            "range": {"start": _position(lines, f.line, f.column, encoding),
                      "end": _position(lines, f.end_line, f.end_column, encoding)},
            "severity": _SEVERITY[f.severity],
            "code": f.code,
            "source": "sharpbits",
            "message": f.message,
            "data": {"rule": f.rule, "fixable": f.fixable},
        }
        href = docs_link(f, settings)
        if href:
            diagnostic["codeDescription"] = {"href": href}
        diagnostics.append(diagnostic)
    write(out, {"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                "params": {"uri": uri, "version": version, "diagnostics": diagnostics}})
    return uri, version, document, result


class _Stopped(Exception):
    pass


def _analysed(document: Any, text: str, timeout_s: float) -> Any:
    """`document.update(text)` in a thread, stopped (None) past the server's in-thread limit or, on a machine so
    loaded that the parse alone is slow, past `PARSES` times the parse (a slow machine's first document is not
    analysed twice; a hostile one still stops), and never past `timeout_s` (sharpbits.analysisTimeoutMs: the
    server says by then that the analysis is slow)."""
    outcome: list[Any] = []
    parse_s: list[float] = []

    def run() -> None:
        with contextlib.suppress(_Stopped):
            started = time.perf_counter()
            document.parse(text)  # remembered: the update takes this tree
            parse_s.append(time.perf_counter() - started)
            outcome.append(document.update(text))

    thread = threading.Thread(target=run, name="sharpbits-first-analysis", daemon=True)
    started = time.monotonic()
    thread.start()
    base = max(IN_THREAD_S, IN_THREAD_S_PER_LINE * text.count("\n"))
    while thread.is_alive():
        limit = min(max(base, PARSES * parse_s[0]) if parse_s else base, timeout_s)
        left = started + limit - time.monotonic()
        if left <= 0:
            break
        thread.join(min(left, 0.25))
    while thread.is_alive():  # raised at its next bytecode; again while a finalizer swallows it
        ident = thread.ident
        if ident is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(_Stopped))
        thread.join(0.5)
    return outcome[0] if outcome else None


def _position(lines: list[str], line: int, column: int, encoding: str) -> dict[str, int]:
    """lsp/positions.py's ClientColumns.to_client: 1-based line and character column -> an LSP position."""
    index = max(line - 1, 0)
    text = lines[index].rstrip("\r\n") if index < len(lines) else ""
    column = min(max(column - 1, 0), len(text))
    if text.isascii() or encoding == "utf-32":
        units = column
    elif encoding == "utf-16":
        units = sum(2 if ord(c) > 0xFFFF else 1 for c in text[:column])
    else:
        units = len(text[:column].encode("utf-8"))
    return {"line": index, "character": units}
