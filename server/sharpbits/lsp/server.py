"""The sharpbits language server: the server object (lsp/language_server.py) with every feature (lsp/features/)
registered on it, served over stdio (lsp/framing.py). Nothing here imports jax.

    start.py                `sharpbits serve`: answers initialize before anything below is imported
    early.py                ... and the first document's diagnostics, with only the analysis imported
    server.py               composes: create_server(), serve_stdio()
    features/*.py           one LSP feature each (depends on the server object, never on another feature)
    language_server.py      SharpbitsServer: typed state, document analysis and scheduling, events
    notebooks.py            the notebook adapter: a notebook analysed as one program, a view per cell
    views.py                what features see of an analysed document (Analysed, Fixes)
    settings.py             the editor's settings, typed and validated in one place
    trace_service.py        trace permission, workers, the one trace entry point and the stored results
    trace_text.py           a trace result in words (lens summary, hover, hint figures)
    finding_diagnostic.py   a finding as an LSP diagnostic
    positions.py            columns in the client's units (UTF-16)
    framing.py              the hardened stdio transport
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import os
import sys
from typing import Any, BinaryIO

from sharpbits.analysis.engine import AnalysisResult
from sharpbits.analysis.incremental import IncrementalAnalysis, tune_garbage_collector
from sharpbits.lsp import framing
from sharpbits.lsp.features import (
    code_actions,
    diagnostics,
    documents,
    hover,
    inlay_hints,
    lenses,
    runtime,
    stats,
    tracing,
    workspace_settings,
)
from sharpbits.lsp.language_server import SharpbitsServer

log = logging.getLogger("sharpbits.lsp")

# in the order their listeners run after an analysis: diagnostics are published before an auto-retrace starts
FEATURES = (workspace_settings, documents, diagnostics, code_actions, hover, lenses, inlay_hints, tracing, stats,
            runtime)


def create_server() -> SharpbitsServer:
    server = SharpbitsServer()
    for feature in FEATURES:
        feature.register(server)
    return server


server = create_server()


def serve_stdio(protocol_out: BinaryIO, consumed: bytes, answered: tuple[Any, dict[str, Any], bytes] | None,
                after: bytes = b"", document: tuple[str, int, IncrementalAnalysis, AnalysisResult] | None = None,
                stdin: BinaryIO | None = None) -> None:
    """Serves on stdin and `protocol_out`, after lsp/start.py (`sharpbits serve`) set them up and read `consumed`,
    the first message, which it answered when `answered` = (its id, the result sent, its body), then `after`, what
    lsp/early.py read after it, and `document`, the first document it published: (its uri, version, analysis,
    result); `stdin`: where the rest comes from (early.py's relay; default: stdin). Exits 0 after shutdown + exit, 1
    otherwise; analysis threads still running (a huge document) do not hold the process."""
    # start.py turned the collector off while the server was imported; it stays off: the server runs it between
    # analyses (SharpbitsServer.collect_when_idle), never between an edit and its diagnostics
    tune_garbage_collector()
    gc.disable()
    if document is not None:
        uri, version, analysis, result = document
        server.incremental.adopt(uri, analysis)  # its analysis of this text answers the server's at once
        server.published_early[uri] = (version, result)
    code = run(stdin or sys.stdin.buffer, protocol_out, consumed, answered, after)
    with contextlib.suppress(OSError):
        protocol_out.flush()
    logging.shutdown()
    sys.stderr.flush()
    os._exit(code)


def run(stdin: BinaryIO, stdout: BinaryIO, consumed: bytes, answered: tuple[Any, dict[str, Any], bytes] | None,
        after: bytes = b"") -> int:
    """framing.run_stdio, after lsp/start.py read the first message: an `initialize` it answered is handled here
    too (the server's state, settings from initializationOptions) with pygls' answer dropped; anything else is
    read again by the framing, and so is `after`, what lsp/early.py read after the `initialize`."""
    def prepare(reader: framing.FramedReader, check: framing.MessageCheck) -> None:
        if answered is None:
            reader.push_back(consumed + after)
        else:
            replay_initialize(check, *answered)
            reader.push_back(after)

    return framing.run_stdio(server, stdin, stdout, prepare)


def replay_initialize(check: framing.MessageCheck, msg_id: Any, sent: dict[str, Any], body: bytes) -> None:
    """The `initialize` lsp/start.py answered, handled by the server with its own answer dropped (compared with
    the one sent: a difference is logged). If pygls rejects params start.py accepted (a client capability of the
    wrong type deep down), the client was told it is initialized: the server goes on with no client
    capabilities, and says so."""
    protocol = check.protocol
    send = protocol._send_data
    errors: list[str] = []

    def dropping(data: Any) -> None:  # until pygls' reply to this initialize went by (it may come from a task)
        reply = data if isinstance(data, dict) else protocol._converter.unstructure(data)
        if not (isinstance(reply, dict) and reply.get("id") == msg_id and "method" not in reply):
            send(data)
            return
        if "error" in reply and not errors:
            errors.append(str((reply.get("error") or {}).get("message")))
            return
        protocol._send_data = send  # type: ignore[method-assign]
        if reply.get("result") != sent:
            log.warning("initialize: answered %s at start-up, the server's own answer is %s", sent, reply)

    protocol._send_data = dropping  # type: ignore[method-assign]
    check.receive(body)
    if not check.initialized:
        message = json.loads(body)
        message["params"] = {**message["params"], "capabilities": {}}
        check.receive(json.dumps(message).encode())
        check.report(f"initialize: {errors[0] if errors else 'not accepted'}; going on without the client's "
                     "capabilities")
