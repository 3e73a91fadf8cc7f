"""Every way into tracing asks the server's one trace permission: when the client says the workspace is not trusted,
or tracing is not enabled, each of them refuses with a reason and no worker (no process at all) starts. Static
analysis still runs. The settings that name a program (trace interpreter, launch prefix) point at a script that
writes a marker: it must never run while the workspace is untrusted."""

import os
import stat
import sys
import tempfile
from pathlib import Path

import psutil
from lsprotocol import types

from .conftest import open_document, quiescent, replace_text, server_fixture, wait_for_publish

MARKERS = Path(tempfile.mkdtemp(prefix="sb-trace-permission-markers-"))
EVIL = MARKERS.parent / f"{MARKERS.name}-evil-python"
EVIL.write_text(f"#!/bin/sh\ntouch {MARKERS}/ran\nexec {sys.executable} \"$@\"\n")
EVIL.chmod(EVIL.stat().st_mode | stat.S_IXUSR)
JAX_CACHE = os.path.join(tempfile.gettempdir(), "sharpbits-test-jax-cache")

# As VS Code sends them for a folder in Restricted Mode, plus what a hostile workspace's settings would add
# if the client forgot to drop them.
untrusted = server_fixture({"trusted": False, "trace": {"enabled": True, "interpreter": str(EVIL),
                                                        "launchPrefix": str(EVIL), "autoRetrace": True}})
# A client that says nothing (no trust, no trace settings): tracing stays off.
silent = server_fixture({})

DOC = (
    "import jax\nimport jax.numpy as jnp\n\n\n"
    "# sharpbits: trace(x=f32[8])\n"
    "@jax.jit\n"
    "def f(x):\n"
    "    x[0] = 1\n"
    "    return jnp.sin(x)\n"
)


def plain(obj):
    if hasattr(obj, "_asdict"):
        return {k: plain(v) for k, v in obj._asdict().items()}
    if isinstance(obj, list | tuple):
        return [plain(v) for v in obj]
    return obj


async def every_entry_point(client, uri: str) -> dict:
    """Asks for a trace every way there is; returns what each said."""
    doc = types.TextDocumentIdentifier(uri)
    everything = types.Range(types.Position(0, 0), types.Position(20, 0))
    return {
        "request": plain(await client.protocol.send_request_async("sharpbits/trace", {"uri": uri, "function": "f"})),
        "request with args": plain(await client.protocol.send_request_async(
            "sharpbits/trace", {"uri": uri, "function": "f", "args": "x=f32[2]", "show": ["stablehlo", "lines"]})),
        "command": await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="sharpbits.trace", arguments=[{"uri": uri, "function": "f"}])),
        "restart": plain(await client.protocol.send_request_async("sharpbits/traceWorkerRestart", {})),
        "status": plain(await client.protocol.send_request_async("sharpbits/traceWorkerStatus", {})),
        "lenses": await client.text_document_code_lens_async(types.CodeLensParams(doc)),
        "hints": await client.text_document_inlay_hint_async(types.InlayHintParams(doc, everything)),
    }


def no_process_started(client) -> None:
    assert psutil.Process(client._server.pid).children(recursive=True) == []


def assert_refused(answers: dict, error_type: str, says: str) -> None:
    for name in ("request", "request with args", "command"):
        answer = answers[name]
        assert answer["ok"] is False and answer["refused"] is True, (name, answer)
        assert answer["error"]["type"] == error_type and says in answer["error"]["message"], (name, answer)
    assert answers["restart"]["refused"]["type"] == error_type
    assert answers["status"] == {"state": "stopped", "enabled": False, "refused": answers["restart"]["refused"]}
    assert answers["lenses"] is None and answers["hints"] is None


async def test_untrusted_static_analysis_runs_every_trace_entry_point_refuses(untrusted, uri):
    open_document(untrusted, uri, DOC)
    (finding,) = await wait_for_publish(untrusted, uri, 1)
    assert finding.code == "SB101"  # static analysis works in an untrusted workspace
    answers = await every_entry_point(untrusted, uri)
    assert_refused(answers, "WorkspaceNotTrusted", "untrusted workspace")
    # auto-retrace is on in these settings: an edit retraces nothing
    replace_text(untrusted, uri, DOC.replace("jnp.sin", "jnp.cos"), 2)
    await wait_for_publish(untrusted, uri, 2)
    await quiescent(untrusted)  # (an auto-retrace is decided in the same step as the publication it follows)
    no_process_started(untrusted)
    assert list(MARKERS.iterdir()) == []


async def test_a_settings_push_that_leaves_trust_out_keeps_the_workspace_untrusted(untrusted, uri):
    untrusted.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"sharpbits": {"trace": {"enabled": True, "interpreter": str(EVIL)}}}))
    open_document(untrusted, uri, DOC)
    await wait_for_publish(untrusted, uri, 1)
    assert_refused(await every_entry_point(untrusted, uri), "WorkspaceNotTrusted", "untrusted workspace")
    no_process_started(untrusted)
    assert list(MARKERS.iterdir()) == []


async def test_granting_trust_allows_tracing(untrusted, uri):
    """The positive control: the same server traces once the client says the workspace is trusted."""
    untrusted.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"sharpbits": {
        "trusted": True,
        "trace": {"enabled": True, "interpreter": sys.executable, "platform": "cpu", "cacheDir": JAX_CACHE}}}))
    open_document(untrusted, uri, DOC.replace("    x[0] = 1\n", ""))
    await wait_for_publish(untrusted, uri, 1)
    lenses = await untrusted.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert [lens.command.title for lens in lenses] == ["▶ Trace"]
    result = plain(await untrusted.protocol.send_request_async(
        "sharpbits/trace", {"uri": uri, "function": "f", "show": ["jaxpr"]}))
    assert result["ok"], result.get("error")
    assert "sin" in result["jaxpr"]["text"]
    assert list(MARKERS.iterdir()) == []  # the untrusted settings' interpreter never ran, even now


async def test_a_client_that_says_nothing_gets_no_tracing(silent, uri):
    open_document(silent, uri, DOC)
    (finding,) = await wait_for_publish(silent, uri, 1)
    assert finding.code == "SB101"
    answers = await every_entry_point(silent, uri)
    assert_refused(answers, "TracingDisabled", "sharpbits.trace.enabled")
    assert '{"trace": {"enabled": true}}' in answers["request"]["error"]["message"]  # how other editors turn it on
    no_process_started(silent)
