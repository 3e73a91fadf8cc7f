"""A minimal pygls server with only the trace features, for test_lsp.py (run as a script over stdio)."""

import json
import os
import sys

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from sharpbits.lsp import trace_features


class TraceTestServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("sharpbits-trace-test", "0", max_workers=2)
        self.traces = trace_features.TraceService()


server = TraceTestServer()
trace_features.register(server)


@server.feature(types.INITIALIZED)
def initialized(ls: TraceTestServer, params: types.InitializedParams) -> None:
    ls.traces.configure(json.loads(os.environ.get("SHARPBITS_TEST_SETTINGS", "{}")))


@server.feature("test/importedJax")
def imported_jax(ls: LanguageServer, params) -> dict:
    return {"jax": "jax" in sys.modules}


if __name__ == "__main__":
    server.start_io()
