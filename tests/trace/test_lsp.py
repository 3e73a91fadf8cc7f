"""The custom tracing requests over a real stdio LSP session (pytest-lsp)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.lsp.conftest import make_recording_client

HERE = Path(__file__).parent
DOC_TEXT = """import jax.numpy as jnp


# sharpbits: trace(x=f32[100])
def f(x):
    return jnp.tanh(x) * 2


def g(x):
    return x
"""


def _settings() -> dict:
    return {"trace": {"enabled": True, "interpreter": sys.executable, "platform": "cpu",
                      "cacheDir": os.path.join(tempfile.gettempdir(), "sharpbits-test-jax-cache")}}


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, str(HERE / "lsp_trace_server.py")],
                              server_env={**os.environ, "SHARPBITS_TEST_SETTINGS": json.dumps(_settings())},
                              client_factory=make_recording_client),  # answers the lens and hint refreshes
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
                               root_uri=HERE.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


def as_dict(obj):
    if hasattr(obj, "_asdict"):
        return {k: as_dict(v) for k, v in obj._asdict().items()}
    if isinstance(obj, (list, tuple)):
        return [as_dict(v) for v in obj]
    return obj


async def request(client: LanguageClient, method: str, params: dict):
    return as_dict(await client.protocol.send_request_async(method, params))


@pytest.mark.asyncio(loop_scope="module")
async def test_worker_starts_at_the_first_trace_without_jax_in_the_server(client: LanguageClient, tmp_path):
    status = await request(client, "sharpbits/traceWorkerStatus", {})
    assert status == {"state": "stopped", "enabled": True}  # enabled, but nothing starts before a trace
    uri = (tmp_path / "first.py").as_uri()
    result = await request(client, "sharpbits/trace", {"uri": uri, "text": DOC_TEXT, "function": "f", "show": "jaxpr"})
    assert result["ok"], result.get("error")
    status = await request(client, "sharpbits/traceWorkerStatus", {})
    assert status["state"] == "ready" and status["device"]["platform"] == "cpu"
    assert (await request(client, "test/importedJax", {})) == {"jax": False}


@pytest.mark.asyncio(loop_scope="module")
async def test_trace_open_document_with_unsaved_text(client: LanguageClient, tmp_path):
    path = tmp_path / "model.py"
    path.write_text("def f(x):\n    return x\n")  # the saved file differs from the editor's text
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=DOC_TEXT)))
    # a status request answers while a trace is running: the loop is never blocked
    trace = asyncio.ensure_future(request(client, "sharpbits/trace", {"uri": uri, "function": "f",
                                                                     "show": ["jaxpr", "lines", "cost"]}))
    status = await asyncio.wait_for(request(client, "sharpbits/traceWorkerStatus", {}), timeout=5)
    assert status["state"] in ("ready", "starting", "stopped", "busy")
    result = await trace
    assert result["ok"], result.get("error")
    assert result["spec"]["source"] == "directive"
    prims = {eq["primitive"]: eq["line"] for eq in result["jaxpr"]["equations"]}
    assert prims["tanh"] == 6 and prims["mul"] == 6
    assert result["cost"]["transcendentals"] >= 100


@pytest.mark.asyncio(loop_scope="module")
async def test_missing_spec_and_jax_error(client: LanguageClient, tmp_path):
    uri = (tmp_path / "other.py").as_uri()
    result = await request(client, "sharpbits/trace", {"uri": uri, "text": DOC_TEXT, "function": "g"})
    assert not result["ok"] and result["needsSpec"] and "--args" in result["error"]["message"]
    bad = "def g(x):\n    if x > 0:\n        return x\n    return -x\n"
    result = await request(client, "sharpbits/trace", {"uri": uri, "text": bad, "function": "g", "args": "x=f32[]",
                                                       "show": "jaxpr"})
    assert result["error"]["type"] == "TracerBoolConversionError" and result["error"]["line"] == 2


def test_configure_reuses_and_replaces_workers(monkeypatch):
    """configure() starts nothing; one worker per settings; new settings stop the old workers (no LSP session)."""
    from sharpbits.lsp.settings import editor_settings
    from sharpbits.lsp.trace_service import TraceService

    started, stopped = [], []

    class FakeClient:
        def __init__(self, config):
            self.config = config

        def start(self, background=True):
            started.append(self.config.platform)

        def stop(self):
            stopped.append(self.config.platform)

        def status(self):
            return {"state": "ready"}

    monkeypatch.setattr("sharpbits.trace.client.TraceClient", FakeClient)
    service = TraceService()
    service.configure(editor_settings({"trace": {"enabled": True, "platform": "cpu"}}))
    st = service.workers
    assert st.clients == {}  # a settings push starts no worker
    cpu = st.get_client(cwd="/project")
    assert cpu.config.cwd == "/project"
    service.configure(editor_settings({"trace": {"enabled": True, "platform": "cpu"}}))
    assert st.get_client() is cpu  # the same settings keep their worker
    st.get_client("tpu")
    st.get_client("gpu")  # a third worker evicts the least recently used one
    assert len(st.clients) == 2
    service.configure(editor_settings({"trace": {"enabled": True, "platform": "gpu"}}))
    service.configure(editor_settings({"trace": {"enabled": False}}))
    service.shutdown()
    assert started == [] and sorted(stopped) == ["cpu", "gpu", "tpu"]


@pytest.mark.asyncio(loop_scope="module")
async def test_cancel_request_stops_the_trace(client: LanguageClient, tmp_path):
    uri = (tmp_path / "hang.py").as_uri()
    started = tmp_path / "hang-started"  # the traced function says when it runs: then the worker is busy with it
    text = (f"def hang(x):\n    open({str(started)!r}, 'w').close()\n    while True:\n        pass\n\n\n"
            "def ok(x):\n    return x * 2\n")
    before = await request(client, "sharpbits/traceWorkerStatus", {})
    fut = asyncio.wrap_future(client.protocol.send_request(
        "sharpbits/trace", {"uri": uri, "text": text, "function": "hang", "args": "x=f32[2]", "show": "jaxpr"},
        msg_id="trace-to-cancel"))
    deadline = time.monotonic() + 60
    while not started.exists():  # wait for the trace to be running in the worker, not for a guessed time
        assert time.monotonic() < deadline and not fut.done(), "the trace never started"
        await asyncio.sleep(0.02)
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="trace-to-cancel"))
    with pytest.raises(Exception):  # noqa: B017 - pygls reports the cancellation as a JSON-RPC error
        await asyncio.wait_for(fut, timeout=20)
    # the worker that ran the endless loop was replaced, and the next trace works
    result = await request(client, "sharpbits/trace", {"uri": uri, "text": text, "function": "ok",
                                                       "args": "x=f32[2]", "show": "jaxpr"})
    assert result["ok"], result.get("error")
    after = await request(client, "sharpbits/traceWorkerStatus", {})
    assert after["pid"] != before["pid"] and after["restarts"] >= 1
