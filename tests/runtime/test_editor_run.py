""""Run with sharpbits" through `sharpbits serve` over stdio (the real server, a real client): in a trusted
workspace the command runs the document under `sharpbits run` and its findings arrive as diagnostics next to the
static ones, tagged "seen at runtime" with counts, kept while their lines are unchanged (moved when lines are
inserted above, dropped when their line is edited); in an untrusted workspace the command is refused and nothing
runs, not even the workspace's interpreter or launch prefix."""

from __future__ import annotations

import asyncio
import stat
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import psutil
from lsprotocol import types
from sharpbits.trace import protocol, schema

from tests.lsp.conftest import open_document, replace_text, server_fixture, wait_for_publish

RUNTIME = "sharpbits (runtime)"
PROGRAM = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp


    @jax.jit
    def step(x):
        return x.sum()


    for n in (1, 2, 3, 4, 5):
        step(jnp.ones((n, 3)))  # loop
    key = jax.random.PRNGKey(0)
    jax.random.normal(key, (2,))
    jax.random.normal(key, (2,))  # again
""")
LOOP, AGAIN = 11, 14

trusted = server_fixture({"trusted": True, "trace": {"enabled": True, "interpreter": sys.executable,
                                                     "platform": "cpu"}})

MARKERS = Path(tempfile.mkdtemp(prefix="sb-run-permission-markers-"))
EVIL = MARKERS.parent / f"{MARKERS.name}-evil-python"
EVIL.write_text(f"#!/bin/sh\ntouch {MARKERS}/ran\nexec {sys.executable} \"$@\"\n")
EVIL.chmod(EVIL.stat().st_mode | stat.S_IXUSR)
untrusted = server_fixture({"trusted": False, "trace": {"enabled": True, "interpreter": str(EVIL),
                                                        "launchPrefix": str(EVIL)}})


async def run_command(client, arg: dict) -> dict:
    reply = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="sharpbits.runWithSharpbits", arguments=[arg]))
    assert schema.problems(reply, protocol.RunCommandResult, "command reply") == []  # the protocol's record
    return reply


async def published_after(client, uri: str, start: int, timeout: float = 30.0) -> list[types.Diagnostic]:
    """The first diagnostics for `uri` published after the `start`-th publication (polled)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for published_uri, _version, diagnostics in client.published[start:]:
            if published_uri == uri:
                return diagnostics
        await asyncio.sleep(0.02)
    raise AssertionError(f"nothing published for {uri} after #{start}")


def runtime_of(diagnostics: list[types.Diagnostic]) -> dict[tuple[str, int], types.Diagnostic]:
    return {(str(d.code), d.range.start.line + 1): d for d in diagnostics if d.source == RUNTIME}


async def test_trusted_the_run_shows_its_findings_until_their_line_changes(trusted, tmp_path: Path):
    path = tmp_path / "train.py"
    path.write_text(PROGRAM)
    uri = path.as_uri()
    open_document(trusted, uri, PROGRAM)
    static = await wait_for_publish(trusted, uri, 1)
    assert not runtime_of(static) and any(d.code == "SB201" and d.range.start.line + 1 == AGAIN for d in static)
    mark = len(trusted.published)
    reply = await run_command(trusted, {"uri": uri})
    assert reply["ok"] is True and reply["exitCode"] == 0, reply
    assert {c["code"]: c["findings"] for c in reply["counts"]} == {"SB201": 1, "SB601": 1}
    assert reply["files"] == [uri] and reply["summary"].startswith("2 runtime findings (SB201: 1, SB601: 1) · exit 0")
    shown = await published_after(trusted, uri, mark)
    seen = runtime_of(shown)
    assert set(seen) == {("SB601", LOOP), ("SB201", AGAIN)}
    recompile = seen[("SB601", LOOP)]
    assert "[seen at runtime: 5 compiles; static analysis: did not flag this line]" in recompile.message
    assert recompile.data["runtime"]["count"] == 5 and recompile.severity == types.DiagnosticSeverity.Warning
    reuse = seen[("SB201", AGAIN)]
    assert "seen at runtime: once; static analysis: also flagged this line" in reuse.message
    first_use = reuse.related_information[0].location
    assert (first_use.uri, first_use.range.start.line + 1) == (uri, AGAIN - 1)
    assert any(d.source == "sharpbits" and d.code == "SB201" for d in shown)  # the static ones stay beside them

    # a line inserted above moves them; the reused key's line edited drops that one
    lines = PROGRAM.splitlines(keepends=True)
    lines[AGAIN - 1] = "jax.random.normal(jax.random.split(key)[1], (2,))  # fixed\n"
    replace_text(trusted, uri, "import os\n" + "".join(lines), 2)
    after = runtime_of(await wait_for_publish(trusted, uri, 2))
    assert set(after) == {("SB601", LOOP + 1)}
    # and undoing the edit does not bring the dropped one back: it is the last run's, for the lines it saw
    replace_text(trusted, uri, PROGRAM, 3)
    assert set(runtime_of(await wait_for_publish(trusted, uri, 3))) == {("SB601", LOOP)}


async def test_trusted_a_configured_command_runs_with_the_file_put_in(trusted, tmp_path: Path):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM.replace("(1, 2, 3, 4, 5)", "(1,)") + 'import os\nprint("on", os.environ["JAX_PLATFORMS"])\n')
    reply = await run_command(trusted, {"uri": path.as_uri(), "command": [sys.executable, "${file}"], "timeout": 300})
    assert reply["ok"] is True and [c["code"] for c in reply["counts"]] == ["SB201"]
    assert "on cpu\n" in reply["output"]  # the trace setting's platform, and the program's output in the reply
    # a document the editor has not opened gets the runtime diagnostics alone
    shown = await published_after(trusted, path.as_uri(), 0)
    assert [(d.source, d.code, d.range.start.line + 1) for d in shown] == [(RUNTIME, "SB201", AGAIN)]


async def test_untrusted_the_command_is_refused_and_nothing_runs(untrusted, tmp_path: Path):
    marker = tmp_path / "ran"
    path = tmp_path / "prog.py"
    path.write_text(f"open({str(marker)!r}, 'w').close()\n")
    for arg in ({"uri": path.as_uri()}, {"uri": path.as_uri(), "command": ["sh", "-c", f"touch {marker}"]}):
        reply = await run_command(untrusted, arg)
        assert reply["ok"] is False and reply["refused"] is True, reply
        assert reply["error"]["type"] == "WorkspaceNotTrusted"
    assert psutil.Process(untrusted._server.pid).children(recursive=True) == []
    assert not marker.exists() and not (MARKERS / "ran").exists()


async def test_trusted_a_run_past_its_time_limit_is_stopped_and_what_it_saw_is_shown(trusted, tmp_path: Path):
    path = tmp_path / "hangs.py"
    path.write_text(PROGRAM.replace("(1, 2, 3, 4, 5)", "(1,)") + "import threading\nthreading.Event().wait()\n")
    reply = await run_command(trusted, {"uri": path.as_uri(), "timeout": 30})
    assert reply["ok"] is False and reply["error"]["type"] == "Timeout", reply
    assert reply["exitCode"] == 128 + 15  # SIGTERM, as a shell says it
    assert [c["code"] for c in reply["counts"]] == ["SB201"]  # recorded before it hung
    shown = await published_after(trusted, path.as_uri(), 0)
    assert [(d.code, d.range.start.line + 1) for d in shown] == [("SB201", AGAIN)]
    assert psutil.Process(trusted._server.pid).children(recursive=True) == []  # nothing of it is left running


def test_the_platform_setting_sets_jax_platforms_except_gpu_which_jax_chooses():
    from sharpbits.runtime.editor import plan

    assert plan("/w/p.py", None, "/w", "python3", None, 10, "cuda").env == {"JAX_PLATFORMS": "cuda"}
    behind = plan("/w/p.py", None, "/w", "python3", "ssh box", 10, "tpu")
    assert behind.argv[:2] == ["env", "JAX_PLATFORMS=tpu"] and behind.env == {}
    # JAX_PLATFORMS=gpu fails unless the CUDA, ROCm and oneAPI plugins are all installed (seen on an H100)
    for prefix in (None, "ssh box"):
        gpu = plan("/w/p.py", None, "/w", "python3", prefix, 10, "gpu")
        assert gpu.env == {} and "env" not in gpu.argv and not any("JAX_PLATFORMS" in a for a in gpu.argv)
