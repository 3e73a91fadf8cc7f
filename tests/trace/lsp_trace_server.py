"""A minimal pygls server with only the trace features, for test_lsp.py (run as a script over stdio)."""

import json
import os
import sys

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from sharpbits.lsp import trace_features

server = LanguageServer("sharpbits-trace-test", "0", max_workers=2)
trace_features.register(server)


@server.feature(types.INITIALIZED)
def initialized(ls: LanguageServer, params: types.InitializedParams) -> None:
    trace_features.configure(ls, json.loads(os.environ.get("SHARPBITS_TEST_SETTINGS", "{}")))


@server.feature("test/importedJax")
def imported_jax(ls: LanguageServer, params) -> dict:
    return {"jax": "jax" in sys.modules}


if __name__ == "__main__":
    server.start_io()
