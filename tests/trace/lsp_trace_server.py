"""The language server with only its tracing feature, for test_lsp.py (run as a script over stdio): the trace
requests work on a server that registers nothing else."""

import json
import os
import sys

from lsprotocol import types
from sharpbits.lsp.features import tracing
from sharpbits.lsp.language_server import SharpbitsServer

server = SharpbitsServer()
tracing.register(server)


@server.feature(types.INITIALIZED)
def initialized(ls: SharpbitsServer, params: types.InitializedParams) -> None:
    ls.apply_settings(json.loads(os.environ.get("SHARPBITS_TEST_SETTINGS", "{}")), None)


@server.feature("test/importedJax")
def imported_jax(ls: SharpbitsServer, params) -> dict:
    return {"jax": "jax" in sys.modules}


if __name__ == "__main__":
    server.start_io()
