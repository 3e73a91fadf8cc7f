"""The sharpbits language server: the server object (lsp/language_server.py) with every feature (lsp/features/)
registered on it, served over stdio (lsp/framing.py). Nothing here imports jax.

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
import logging
import os
import sys

from sharpbits.analysis.incremental import tune_garbage_collector
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


def serve_stdio() -> None:
    """Runs the server on stdin/stdout. Anything else that writes to stdout (a stray print, a C library) goes
    to stderr instead, so it can never corrupt the protocol stream. Exits 0 after shutdown + exit, 1 otherwise;
    analysis threads still running (a huge document) do not hold the process."""
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    logging.basicConfig(level=os.environ.get("SHARPBITS_LOG_LEVEL", "WARNING"), stream=sys.stderr)
    tune_garbage_collector()
    code = framing.run_stdio(server, sys.stdin.buffer, protocol_out)
    with contextlib.suppress(OSError):
        protocol_out.flush()
    logging.shutdown()
    sys.stderr.flush()
    os._exit(code)
