"""`sharpbits serve`'s start: the `initialize` request is answered before the server's modules are imported.

Importing the server takes most of its start-up (lsprotocol's types alone are ~200 ms on a quiet machine, pygls
and every feature follow), and its answer to `initialize` is a fixed record: the capabilities of the features
registered (lsp/server.py), which depend on the client's capabilities in three places only (the position encoding
it prefers, whether it announced willSave, whether it syncs notebooks). So this module, standard library only,
reads the first message; when it is a well-formed `initialize` it answers with `initialize_result(params)` at
once, then imports the server and hands it the same message, whose own answer is dropped after it was checked to
be the same (a difference is logged; tests/lsp/test_startup.py checks it for several clients). Anything else as
the first message goes to the server unread, which answers it as before (an error before `initialize`).

Between the two, lsp/early.py reads on up to the first document opened and publishes its diagnostics with only
the analysis imported (a fresh server's first diagnostics no longer wait for pygls and lsprotocol); what it read
goes to the server after the `initialize`, in order, with the document's analysis.
"""

from __future__ import annotations

import gc
import json
import os
import sys

from sharpbits import __version__
from sharpbits.lsp.headers import MAX_HEADER, body_length

TYPE_CHECKING = False  # logging and typing are imported after the initialize answer, not before (~10 ms)
if TYPE_CHECKING:
    from typing import Any, BinaryIO

# What lsp/server.py's features give pygls to announce (tests/lsp/test_startup.py compares it with pygls' own).
CAPABILITIES: dict[str, Any] = {
    "textDocumentSync": {"openClose": True, "change": 2, "save": False},
    "hoverProvider": True,
    "codeActionProvider": {
        "codeActionKinds": ["quickfix", "refactor.rewrite", "source.fixAll.sharpbits",
                            "notebook.source.fixAll.sharpbits"],
        "resolveProvider": True,
    },
    "codeLensProvider": {"resolveProvider": False},
    "executeCommandProvider": {"commands": ["sharpbits.trace", "sharpbits.runWithSharpbits"]},
    "inlayHintProvider": {"resolveProvider": False},
    "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True}, "fileOperations": {}},
}
NOTEBOOK_SYNC: dict[str, Any] = {"notebookSelector": [{"notebook": "jupyter-notebook"}], "save": False}
ENCODINGS = ("utf-8", "utf-16", "utf-32")  # what pygls supports, in the client's order of preference


def _get(value: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def initialize_result(params: dict[str, Any]) -> dict[str, Any]:
    """The result pygls builds for these `initialize` params with every feature of lsp/server.py registered."""
    capabilities = params.get("capabilities") or {}
    encoding = "utf-16"
    preferred = _get(capabilities, "general", "positionEncodings")
    if isinstance(preferred, list):
        encoding = next((e for e in preferred if e in ENCODINGS), encoding)
    sync = dict(CAPABILITIES["textDocumentSync"])
    for name in ("willSave", "willSaveWaitUntil"):  # pygls: client's value and "registered" (never): False or absent
        client = _get(capabilities, "textDocument", "synchronization", name)
        if client is not None:
            sync[name] = False
    out = {"positionEncoding": encoding, **CAPABILITIES, "textDocumentSync": sync}
    if _get(capabilities, "notebookDocument") is not None:
        out["notebookDocumentSync"] = NOTEBOOK_SYNC
    return {"capabilities": out, "serverInfo": {"name": "sharpbits", "version": __version__}}


def _optional(params: dict[str, Any], key: str, *types: type) -> bool:
    value = params.get(key)
    return value is None or isinstance(value, types)


def answerable(message: Any) -> bool:
    """Whether the first message is an `initialize` request this module may answer: the shape a client sends
    (lsprotocol is not imported to check more; what it rejects deeper down is dealt with in `serve`)."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or message.get("method") != "initialize":
        return False
    if type(message.get("id")) not in (int, str):
        return False
    params = message.get("params")
    if not isinstance(params, dict) or not isinstance(params.get("capabilities"), dict):
        return False
    folders = params.get("workspaceFolders")
    if folders is not None and not (isinstance(folders, list) and all(
            isinstance(f, dict) and isinstance(f.get("uri"), str) and isinstance(f.get("name"), str) for f in folders)):
        return False
    client_info = params.get("clientInfo")
    if client_info is not None and not (isinstance(client_info, dict) and isinstance(client_info.get("name"), str)):
        return False
    process_id = params.get("processId")
    return (process_id is None or type(process_id) is int) and _optional(params, "rootUri", str) and _optional(
        params, "rootPath", str) and _optional(params, "locale", str) and params.get("trace") in (
        None, "off", "messages", "verbose") and all(
        isinstance(c, dict) or c is None for c in params["capabilities"].values())


def read_first(stdin: BinaryIO) -> tuple[bytes, bytes | None]:
    """(every byte read, the body of the first message or None when it is not one simply framed)."""
    seen = bytearray()
    header: list[bytes] = []
    while True:
        line = stdin.readline(MAX_HEADER)
        seen += line
        if not line or not line.endswith(b"\n"):
            return bytes(seen), None
        if not line.strip():
            break
        header.append(line)
    length = body_length(header)
    if length is None:
        return bytes(seen), None
    body = stdin.read(length)
    seen += body
    return bytes(seen), body if len(body) == length else None


def write(stream: BinaryIO, message: dict[str, Any]) -> None:
    body = json.dumps(message).encode()
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def serve() -> None:
    """Runs the language server on stdin/stdout (see the module docstring). Anything else that writes to stdout
    (a stray print, a C library) goes to stderr instead, so it can never corrupt the protocol stream."""
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    stdin = sys.stdin.buffer
    consumed, body = read_first(stdin)
    answered: tuple[Any, dict[str, Any], bytes] | None = None
    if body is not None:
        try:
            message = json.loads(body)
        except (ValueError, RecursionError):
            message = None
        if answerable(message):
            result = initialize_result(message["params"])
            write(protocol_out, {"jsonrpc": "2.0", "id": message["id"], "result": result})
            answered = (message["id"], result, body)
    import logging  # nothing logs before this point

    logging.basicConfig(level=os.environ.get("SHARPBITS_LOG_LEVEL", "WARNING"), stream=sys.stderr)
    # pygls, lsprotocol, the features, the analysis: with the collector off (~10% of the import time, attrs and
    # lsprotocol allocate a lot); serve_stdio turns it on again
    gc.disable()
    after, document, server_in = b"", None, stdin
    if answered is not None:  # the first document's diagnostics before the server's imports (lsp/early.py)
        from sharpbits.lsp.early import first_document

        early = first_document(stdin, protocol_out, json.loads(answered[2])["params"],
                               answered[1]["capabilities"]["positionEncoding"], write)
        after, document, server_in = early.consumed, early.document, early.stdin  # type: ignore[assignment]
    from sharpbits.lsp.server import serve_stdio

    serve_stdio(protocol_out, consumed, answered, after, document, server_in)
