"""The wire format between the server and the trace worker.

Each message is one JSON object, UTF-8, preceded by its length as 4 bytes big-endian. Server -> worker on the
worker's stdin, worker -> server on a duplicate of the worker's original stdout (the worker points fd 1 and 2
elsewhere before any user code runs, so nothing a user prints can corrupt a frame).

The worker cannot import sharpbits (it runs in the user's interpreter, possibly on another host), so
`worker.py` carries its own copy of `write_frame`/`read_frame`; keep both copies this small.

Messages:
  worker -> server, once at start:  {"type": "hello", "protocol": VERSION, "ok": bool, "jax": ..., "device": {...},
                                     "error": {...} when jax could not be imported}
  server -> worker:                 {"id": n, "type": "trace" | "ping" | "shutdown", ...}
  worker -> server:                 {"id": n, "type": "ack"} as soon as a request is read (a worker that dies
                                    before acking was idle: the request can be sent again), then
                                    {"id": n, "type": "result", ...}
"""

from __future__ import annotations

import json
import struct
from typing import IO, Any

VERSION = 1
_HEADER = struct.Struct(">I")
MAX_FRAME = 1 << 30


class ProtocolError(Exception):
    """The other end sent something that is not a frame, or closed the channel mid-frame."""


def encode(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, separators=(",", ":"), default=str).encode("utf-8")
    return _HEADER.pack(len(body)) + body


def write_frame(stream: IO[bytes], message: dict[str, Any]) -> None:
    stream.write(encode(message))
    stream.flush()


def _read_exact(stream: IO[bytes], n: int) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        chunk = stream.read(n - got)
        if not chunk:
            if got == 0:
                return None
            raise ProtocolError(f"channel closed after {got} of {n} bytes")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_frame(stream: IO[bytes]) -> dict[str, Any] | None:
    """The next message, or None when the channel closed cleanly between messages."""
    header = _read_exact(stream, _HEADER.size)
    if header is None:
        return None
    (size,) = _HEADER.unpack(header)
    if size > MAX_FRAME:
        raise ProtocolError(f"frame of {size} bytes: not a sharpbits worker speaking (wrong stdout?)")
    body = _read_exact(stream, size)
    if body is None:
        raise ProtocolError("channel closed before the frame body")
    try:
        message = json.loads(body.decode("utf-8"))
    except ValueError as exc:
        raise ProtocolError(f"frame is not JSON: {exc}") from exc
    if not isinstance(message, dict):
        raise ProtocolError("frame is not a JSON object")
    return message
