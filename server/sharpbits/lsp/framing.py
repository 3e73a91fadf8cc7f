"""The LSP transport over stdio, hardened against a hostile or unlucky client.

pygls' own read loop dies on a Content-Length of 10^12, stays out of step for good after a wrong length, answers
neither malformed JSON nor batches nor odd ids, and lets requests through before `initialize` and after
`shutdown`. This module replaces that loop (the handlers stay pygls'):

- framing: a header line ending in `Content-Length: N` starts a message wherever it is (garbage before it is
  skipped, so a short length resynchronises on the next header); a body that is followed by the next header (a
  long length) is cut there and the rest read again; a length above `MAX_MESSAGE_BYTES` is refused and skipped;
  memory while scanning is bounded.
- JSON-RPC: malformed JSON gets -32700, a non-object -32600, an id that is neither integer nor string -32600
  (with a null id), params that do not fit the method -32602 with the method named; a batch is answered element
  by element (LSP has no batches; each request still gets its own response).
- lifecycle: requests before `initialize` get -32002; after `shutdown` requests get -32600 and notifications are
  dropped; `exit` ends the process with 0 after `shutdown` and 1 without.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol

log = logging.getLogger("sharpbits.lsp.framing")

MAX_MESSAGE_BYTES = 512 * 1024 * 1024  # a 54 MB document arrives in one didOpen; 10^12 never does
_SCAN_KEEP = 64  # bytes kept from a header line too long to be one, in case a header straddles the cut
_MAX_HEADER_LINE = 64 * 1024
_HEADER = re.compile(rb"content-length:[ \t]*(\d+)[ \t]*\r?\n$", re.IGNORECASE)
_HEADER_ANYWHERE = re.compile(rb"content-length:[ \t]*\d+[ \t]*\r?\n", re.IGNORECASE)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
SERVER_NOT_INITIALIZED = -32002


class ExitRequested(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class FramedReader:
    """Reads LSP messages (header lines, blank line, body) from a binary stream, one chunk at a time, off the
    event loop. `problems` collects what was skipped, for the caller to report."""

    def __init__(self, stream: BinaryIO, executor: ThreadPoolExecutor) -> None:
        self.stream = stream
        self.executor = executor
        self.buffer = bytearray()
        self.eof = False

    async def _fill(self) -> bool:
        read = getattr(self.stream, "read1", self.stream.read)
        chunk = await asyncio.get_running_loop().run_in_executor(self.executor, read, 1 << 20)
        if not chunk:
            self.eof = True
            return False
        self.buffer += chunk
        return True

    async def _line(self) -> bytes | None:
        """The next line (with its newline), or None at end of input. A "line" longer than any header is cut
        down to its tail, so scanning junk never holds more than a bounded amount of memory."""
        start = 0
        while True:
            newline = self.buffer.find(b"\n", start)
            if newline >= 0:
                line = bytes(self.buffer[: newline + 1])
                del self.buffer[: newline + 1]
                return line
            if len(self.buffer) > _MAX_HEADER_LINE:
                del self.buffer[: len(self.buffer) - _SCAN_KEEP]
            start = len(self.buffer)
            if self.eof or not await self._fill():
                return None

    async def _body(self, length: int) -> bytes | None:
        while len(self.buffer) < length:
            if self.eof or not await self._fill():
                return None
        body = bytes(self.buffer[:length])
        del self.buffer[:length]
        return body

    def push_back(self, data: bytes) -> None:
        self.buffer[:0] = data

    async def next_body(self, on_problem: Callable[[str], None]) -> bytes | None:
        """The next message body, or None at end of input."""
        length: int | None = None
        while True:
            line = await self._line()
            if line is None:
                return None
            if not line.strip(b"\r\n"):
                if length is None:
                    continue
                if length > MAX_MESSAGE_BYTES:
                    on_problem(f"a message of Content-Length {length} exceeds the limit of {MAX_MESSAGE_BYTES} "
                               "bytes: skipped up to the next header")
                    length = None
                    continue
                return await self._body(length)
            match = _HEADER.search(line)
            if match is not None:
                length = int(match.group(1))


def split_overlong(body: bytes) -> tuple[bytes, bytes]:
    """A body that swallowed the start of the next message (its Content-Length was too long): the part before
    the next header, and the rest to read again. Returns (body, b"") when no header is inside."""
    match = _HEADER_ANYWHERE.search(body, 1)
    if match is None:
        return body, b""
    return body[: match.start()], body[match.start():]


def _valid_id(value: Any) -> bool:
    return type(value) is int or type(value) is str


class MessageCheck:
    """Everything a message passes before pygls' handlers see it: JSON, JSON-RPC shape, lifecycle."""

    def __init__(self, protocol: LanguageServerProtocol) -> None:
        self.protocol = protocol
        self.initialized = False

    def send_error(self, msg_id: Any, code: int, message: str) -> None:
        self.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})

    def report(self, message: str) -> None:
        """A problem with the stream itself (no id to answer): logged, and shown in the client's log."""
        log.warning("%s", message)
        if self.initialized:
            self.protocol.notify(types.WINDOW_LOG_MESSAGE,
                                 types.LogMessageParams(types.MessageType.Warning, f"sharpbits: {message}"))

    def receive(self, body: bytes) -> None:
        try:
            message = json.loads(body)
        except (ValueError, RecursionError):
            head, rest = split_overlong(body)
            if rest:
                self.reader_push_back(rest)
                try:
                    message = json.loads(head)
                except (ValueError, RecursionError) as exc:
                    self.send_error(None, PARSE_ERROR, f"Parse error: the message is not valid JSON ({exc})")
                    return
            else:
                try:
                    body.decode("utf-8")
                    reason = "not valid JSON"
                except UnicodeDecodeError:
                    reason = "not UTF-8"
                self.send_error(None, PARSE_ERROR, f"Parse error: the message is {reason}")
                return
        if isinstance(message, list):
            if not message:
                self.send_error(None, INVALID_REQUEST, "Invalid request: an empty batch")
            for item in message:
                self.dispatch(item)
            return
        self.dispatch(message)

    reader_push_back: Callable[[bytes], None] = staticmethod(lambda data: None)  # type: ignore[assignment]

    def dispatch(self, message: Any) -> None:
        if not isinstance(message, dict):
            self.send_error(None, INVALID_REQUEST, "Invalid request: a message must be a JSON object")
            return
        is_request = "id" in message and "method" in message
        msg_id = message.get("id")
        method = message.get("method")
        if "method" not in message:
            if "id" in message and ("result" in message or "error" in message) and message.get("jsonrpc") == "2.0":
                self._handle(message, None)  # a response to one of our requests
            elif "id" in message:
                self.send_error(msg_id if _valid_id(msg_id) else None, INVALID_REQUEST,
                                "Invalid request: no method")
            return
        if is_request and not _valid_id(msg_id):
            self.send_error(None, INVALID_REQUEST,
                            f"Invalid request: the id {json.dumps(msg_id)[:80]} is neither an integer nor a string")
            return
        if not isinstance(method, str) or message.get("jsonrpc") != "2.0":
            if is_request:
                self.send_error(msg_id, INVALID_REQUEST,
                                'Invalid request: "jsonrpc" must be "2.0" and "method" a string')
            return
        if method == types.EXIT:
            raise ExitRequested(0 if self.protocol._shutdown else 1)
        if self.protocol._shutdown:
            if is_request:
                self.send_error(msg_id, INVALID_REQUEST,
                                f"Invalid request: the server is shut down; {method} refused (only exit is accepted)")
            return
        if not self.initialized and method != types.INITIALIZE:
            if is_request:
                self.send_error(msg_id, SERVER_NOT_INITIALIZED, f"Server not initialized: {method} before initialize")
            return
        if method == types.INITIALIZE and self.initialized:
            self.send_error(msg_id, INVALID_REQUEST, "Invalid request: initialize was already received")
            return
        if self._handle(message, method if is_request else None) and method == types.INITIALIZE:
            self.initialized = True

    def _handle(self, message: dict[str, Any], request_method: str | None) -> bool:
        try:
            structured = self.protocol.structure_message(message)
        except Exception as exc:  # params that do not fit the method
            reason = _structure_error(exc)
            method = message.get("method")
            if request_method is not None:
                self.send_error(message.get("id"), INVALID_PARAMS, f"Invalid params for {method}: {reason}")
            else:
                self.report(f"ignored {method or 'a response'}: invalid params ({reason})")
            return False
        self.protocol.handle_message(structured)
        return True


def _structure_error(exc: BaseException) -> str:
    cause = exc.__cause__ or exc
    try:
        from cattrs import transform_error

        details = transform_error(cause)  # type: ignore[arg-type]
    except Exception:
        details = [str(cause)]
    return "; ".join(details)[:500] or type(cause).__name__


class _FutureTable(dict[Any, Any]):
    """pygls's `shutdown` iterates over `_request_futures` while cancelling the pending ones, and a cancelled
    concurrent future runs its done callbacks at once, which remove it from the table (pygls's own and ours):
    "dictionary changed size during iteration" when a handler is still pending at shutdown (a notebook closed
    just before it). Iterating over a snapshot keeps both."""

    def items(self) -> Any:
        return list(super().items())


class NotificationFuturesReleased(LanguageServerProtocol):
    """pygls 2.1.1 keeps the future of every `async def` handler run for a notification (or run as a step of a
    builtin generator handler such as didOpen's) in `_request_futures` under a fresh uuid, and never removes it:
    a slow leak of finished tasks, ~1 per notification. Here each future is dropped when it is done."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._request_futures = _FutureTable(self._request_futures)

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: Any = None, kwargs: Any = None) -> None:
        def done(future: Any) -> None:
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]
            callback(future)

        super()._execute_handler(msg_id, handler, done, args, kwargs)


async def serve(reader: FramedReader, check: MessageCheck) -> int:
    """Reads and dispatches messages until `exit` or end of input; returns the process's exit code."""
    check.reader_push_back = reader.push_back  # type: ignore[method-assign]
    while True:
        body = await reader.next_body(check.report)
        if body is None:
            return 0 if check.protocol._shutdown else 1
        try:
            check.receive(body)
        except ExitRequested as exc:
            return exc.code
        except Exception:  # a bug of ours in dispatching one message must not end the session
            log.exception("failed to dispatch a message")
        await asyncio.sleep(0)  # let handlers scheduled by this message run between messages


def run_stdio(server: Any, stdin: BinaryIO, stdout: BinaryIO,
              prepare: Callable[[FramedReader, MessageCheck], None] | None = None) -> int:
    """Serves until `exit` or end of input; returns the exit code. `prepare` runs first, with the reader and the
    message check (lsp/server.py: push back what lsp/start.py read, or replay the `initialize` it answered); it runs inside
    the event loop.
    (Trace workers need no stopping here: each exits when its stdin, held by this process, closes.)"""
    from threading import Event

    from pygls.io_ import StdoutWriter

    server._stop_event = Event()
    server.protocol.set_writer(StdoutWriter(stdout))
    reader_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sharpbits-stdin")
    check = MessageCheck(server.protocol)
    reader = FramedReader(stdin, reader_pool)

    async def main() -> int:
        if prepare is not None:  # inside the loop: replaying `initialize` runs the server's handlers
            prepare(reader, check)
        return await serve(reader, check)

    code = 1
    try:
        code = asyncio.run(main())
    except BrokenPipeError:
        log.error("the connection to the client is lost")
    finally:
        server._stop_event.set()
        reader_pool.shutdown(wait=False, cancel_futures=True)
    return code


__all__ = ["FramedReader", "MessageCheck", "NotificationFuturesReleased", "run_stdio", "serve", "split_overlong"]
