"""`sharpbits serve` itself (not a test double) answers sharpbits/trace for an open document, starting the
worker at the first trace (not at initialize), and never imports jax into the server process."""

import asyncio
import os
import sys
import tempfile
from pathlib import Path

import psutil
from lsprotocol import types

from .conftest import open_document, server_fixture, wait_for_publish

client = server_fixture({"trace": {"enabled": True, "interpreter": sys.executable, "platform": "cpu",
                                   "cacheDir": os.path.join(tempfile.gettempdir(), "sharpbits-test-jax-cache")}})

DOC = (
    "import jax\nimport jax.numpy as jnp\n\n\n# sharpbits: trace(x=f32[8])\n@jax.jit\ndef f(x):\n"
    "    y = jnp.sin(x)\n    return x[x > 0]\n"
)


def plain(obj):
    if hasattr(obj, "_asdict"):
        return {k: plain(v) for k, v in obj._asdict().items()}
    if isinstance(obj, list | tuple):
        return [plain(v) for v in obj]
    return obj


async def test_static_and_traced_views_of_the_same_bug(client, uri):
    open_document(client, uri, DOC)
    (diag,) = await wait_for_publish(client, uri, 1)
    assert diag.code == "SB102" and diag.range.start.line == 8  # the static finding
    # initialize and the settings did not start a worker: a folder opening starts nothing
    status = plain(await client.protocol.send_request_async("sharpbits/traceWorkerStatus", {}))
    assert status == {"state": "stopped", "enabled": True}
    server = psutil.Process(client._server.pid)
    assert server.children(recursive=True) == []
    result = plain(await client.protocol.send_request_async(
        "sharpbits/trace", {"uri": uri, "function": "f", "show": ["jaxpr"]}))
    status = plain(await client.protocol.send_request_async("sharpbits/traceWorkerStatus", {}))
    assert status["state"] == "ready", status
    error = result["error"]  # the same bug, confirmed by tracing
    assert error["type"] == "NonConcreteBooleanIndexError" and error["line"] == 9, error
    # the server process itself never imported jax: only its worker did
    maps = Path(f"/proc/{server.pid}/maps").read_text() if sys.platform == "linux" else ""
    assert "jaxlib" not in maps
    assert any("worker" in " ".join(c.cmdline()) or c.name().startswith("python") for c in server.children())


async def test_hover_still_answers_while_tracing(client, uri):
    open_document(client, uri, DOC.replace("return x[x > 0]", "return y"))
    await wait_for_publish(client, uri, 1)
    trace = asyncio.ensure_future(client.protocol.send_request_async(
        "sharpbits/trace", {"uri": uri, "function": "f", "show": ["jaxpr", "timing"]}))
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0)))
    assert hover is None  # answered while the trace runs in the worker
    result = plain(await trace)
    assert result.get("error") is None, result.get("error")
    assert "jaxpr" in result
