"""The typed contract between worker, server, CLI and extension is one definition (protocol.py), and every
consumer agrees with it: the generated TypeScript, the worker (which imports it, shipped beside its own source),
package.json, the CLI, the docs, and the frames and results a real worker sends."""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from sharpbits.trace import protocol, schema
from sharpbits.trace.cli import add_arguments

EXE = Path(sys.executable).with_name("sharpbits")
GENERATED = REPO / "extension" / "src" / "tracing" / "protocol.generated.ts"
WORKER = REPO / "server" / "sharpbits" / "trace" / "worker.py"
PROTOCOL = REPO / "server" / "sharpbits" / "trace" / "protocol.py"


def test_generated_typescript_is_current():
    assert GENERATED.read_text(encoding="utf-8") == schema.typescript(), (
        "extension/src/tracing/protocol.generated.ts is out of date: run "
        "`python -m sharpbits.trace.schema > extension/src/tracing/protocol.generated.ts`")


def _imports(tree: ast.Module) -> set[str]:
    """Top-level packages a module imports absolutely (a relative `from . import protocol` is its sibling)."""
    found = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names}
    return found | {node.module.split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}


def test_the_worker_keeps_no_copy_of_the_protocol():
    tree = ast.parse(WORKER.read_text(encoding="utf-8"))
    constants = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                 if isinstance(t, ast.Name)}
    assert not constants & {"PROTOCOL", "VERSION", "VIEWS", "_HEADER", "MAX_FRAME"}
    used = {f"{node.value.id}.{node.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)}
    assert {"protocol.VERSION", "protocol.VIEWS", "protocol.write_frame", "protocol.read_frame"} <= used
    assert "sharpbits" not in _imports(tree)  # it runs in the user's interpreter


def test_the_protocol_module_runs_where_the_worker_runs():
    """The client ships protocol.py to the worker: standard library only, Python 3.8 syntax, and it works as the
    bootstrap runs it (a module of another name, outside any package)."""
    import types

    from sharpbits.trace.client import SHIPPED

    source = PROTOCOL.read_text(encoding="utf-8")
    tree = ast.parse(source, feature_version=(3, 8))
    assert _imports(tree) <= set(sys.stdlib_module_names)
    assert [name for name, _ in SHIPPED] == ["__sharpbits_protocol__", "__sharpbits_worker__"]
    module = types.ModuleType("__sharpbits_protocol__")
    sys.modules[module.__name__] = module
    try:
        exec(compile(source, "<__sharpbits_protocol__>", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    assert module.VERSION == protocol.VERSION
    assert module.read_frame(__import__("io").BytesIO(module.encode({"type": "ping", "id": 1}))) == {
        "type": "ping", "id": 1}


def test_a_worker_result_is_the_trace_result_s_records_plus_what_the_client_derives():
    """Every WorkerResult field is either one of TraceResult's (the same type: the worker builds that record) or
    the frame's envelope, a ping's pid, or a raw input of what TraceClient derives (source maps, roofline)."""
    from typing import get_type_hints

    from sharpbits.trace.client import SHARED_FIELDS

    raw = {"type", "id", "protocol", "pid", "stablehlo_debug_text", "lowered_for", "hlo_text", "measured_peak"}
    worker, result = get_type_hints(protocol.WorkerResult), get_type_hints(protocol.TraceResult)
    assert set(worker) == SHARED_FIELDS | raw and not SHARED_FIELDS & raw
    assert {k: worker[k] for k in SHARED_FIELDS} == {k: result[k] for k in SHARED_FIELDS}


def test_a_real_worker_speaks_the_records(tmp_path):
    """Every frame a real worker sends fits its record: Hello, Ack, WorkerResult (a trace with every view)."""
    import io

    doc = tmp_path / "m.py"
    doc.write_text("import jax.numpy as jnp\n\ndef f(x):\n    return jnp.cos(x) @ x\n")
    frames = b"".join(protocol.encode(m) for m in (
        {"type": "config", "platform": "cpu", "cache_dir": None, "memory_limit_mb": 0, "warmup": False},
        {"id": 1, "type": "trace", "path": str(doc), "text": doc.read_text(), "function": "f",
         "show": list(protocol.VIEWS), "root": None, "cwd": str(tmp_path), "time_budget_s": 0.02, "eager": True,
         "lower_for": None, "cells": None,
         "spec": {"args": [{"kind": "array", "dtype": "float32", "shape": [4, 4]}], "kwargs": {}}},
        {"id": 2, "type": "ping"},
        {"type": "shutdown"},
    ))
    p = subprocess.run([sys.executable, str(WORKER)], input=frames, capture_output=True, timeout=300, cwd=tmp_path)
    assert p.returncode == 0, p.stderr.decode()
    out = io.BytesIO(p.stdout)
    messages = []
    while (m := protocol.read_frame(out)) is not None:
        messages.append(m)
    assert [m["type"] for m in messages] == ["hello", "ack", "result", "ack", "result"]
    hello, ack, result, _, pong = messages
    assert schema.problems(hello, protocol.Hello, "hello") == []
    assert schema.problems(ack, protocol.Ack, "ack") == []
    assert schema.problems(result, protocol.WorkerResult) == []
    assert schema.problems(pong, protocol.WorkerResult, "pong") == []
    assert result["ok"] and result["protocol"] == protocol.VERSION and result["id"] == 1
    assert {"jaxpr", "stablehlo_debug_text", "hlo_text", "cost", "timings", "measured_peak"} <= set(result)
    assert pong == {"ok": True, "pid": hello["pid"], "id": 2, "type": "result", "protocol": protocol.VERSION}


FAKE_WORKER = """#!{python}
# An interpreter whose worker speaks another protocol version (a sharpbits updated on disk while the server ran)
import json, os, struct, sys

def read(n):
    data = b""
    while len(data) < n:
        chunk = os.read(0, n - len(data))
        if not chunk:
            sys.exit(0)
        data += chunk
    return data

def frame_in():
    return json.loads(read(struct.unpack(">I", read(4))[0]))

def frame_out(message):
    body = json.dumps(message).encode()
    os.write(1, struct.pack(">I", len(body)) + body)

for _ in range(2):  # the modules the bootstrap would run: protocol, worker
    header = b""
    while not header.endswith(b"\\n"):
        header += read(1)
    read(int(header.split()[1]))
frame_in()  # the config
mode = os.environ["FAKE_MODE"]
frame_out({{"type": "hello", "protocol": {version} + (mode == "hello"), "ok": True, "pid": os.getpid()}})
while True:
    request = frame_in()
    frame_out({{"type": "ack", "id": request["id"]}})
    frame_out({{"type": "result", "id": request["id"], "protocol": {version} + 1, "ok": True}})
"""


@pytest.mark.parametrize("mode", ["hello", "result"])
def test_a_worker_of_another_protocol_version_is_refused_clearly(tmp_path, mode):
    from sharpbits.trace.client import TraceClient, WorkerConfig

    fake = tmp_path / "python"
    fake.write_text(FAKE_WORKER.format(python=sys.executable, version=protocol.VERSION))
    fake.chmod(0o755)
    doc = tmp_path / "m.py"
    doc.write_text("def f(x):\n    return x\n")
    client = TraceClient(WorkerConfig(interpreter=str(fake), cache_dir=None, env={"FAKE_MODE": mode},
                                      start_timeout_s=60))
    try:
        result = client.trace(path=str(doc), function="f", spec={"args": [], "kwargs": {}}, timeout=60)
    finally:
        client.stop()
    assert result["ok"] is False and schema.problems(result, protocol.TraceResult) == []
    error = result["error"]
    assert error["type"] == "ProtocolMismatch"
    assert f"speaks protocol {protocol.VERSION + 1}, this server speaks {protocol.VERSION}" in error["message"]
    assert "restart the language server" in error["message"]


def test_package_json_cli_and_docs_name_the_same_platforms_and_views():
    package = json.loads((REPO / "package.json").read_text(encoding="utf-8"))
    props = package["contributes"]["configuration"]["properties"]
    assert tuple(props["sharpbits.trace.platform"]["enum"]) == protocol.PLATFORMS
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    choices = {a.dest: tuple(a.choices) for a in parser._actions if a.choices}
    assert choices["platform"] == protocol.PLATFORMS
    assert choices["lower_for"] == protocol.LOWER_FOR_PLATFORMS
    docs = (REPO / "docs" / "tracing.md").read_text(encoding="utf-8")
    assert f"--platform {'|'.join(protocol.PLATFORMS)}" in docs
    assert f"--lower-for {'|'.join(protocol.LOWER_FOR_PLATFORMS)}" in docs
    table = docs.split("### What `--show` gives", 1)[1].split("\n\n`", 1)[0]
    rows = [line.split("|")[1].strip().strip("`") for line in table.splitlines() if line.startswith("| `")]
    assert sorted(rows) == sorted(protocol.VIEWS)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"(`{'|'.join(protocol.PLATFORMS)}`)" in readme


def test_checker_sees_an_undeclared_field():
    assert schema.problems({"ok": True, "timings": {"run": {"median_s": 1.0}}}, protocol.TraceResult) == []
    assert schema.problems({"ok": True, "timings": {"runs": {}}}, protocol.TraceResult) == [
        "result.timings.runs: not in Timings"]
    assert schema.problems({"ok": "yes"}, protocol.TraceResult) == ["result.ok: 'yes' is not bool"]


@pytest.mark.parametrize(("target", "args", "code"), [
    ("examples/tracing_selu.py::selu", ["--show", "all"], 0),
    ("examples/tracing_loops.py::python_loop", ["--show", "all"], 0),
    ("examples/boolean_indexing_in_jit.py::clip_negatives", ["--args", "x=f32[8]"], 1),
])
def test_real_results_fit_the_records(target, args, code, tmp_path):
    p = subprocess.run([str(EXE), "trace", target, *args, "--format", "json", "--budget", "0.05"],
                       capture_output=True, text=True, cwd=REPO, timeout=300,
                       env={**os.environ, "SHARPBITS_JAX_CACHE": str(tmp_path)})
    assert p.returncode == code, p.stderr
    result = json.loads(p.stdout)
    assert result["protocol"] == protocol.VERSION
    assert schema.problems(result, protocol.TraceResult) == []


def test_a_worker_is_found_by_its_bootstrap_mark():
    """The real-editor tests find trace workers by the bootstrap's first line, which every launch carries."""
    from sharpbits.trace.client import BOOTSTRAP, BOOTSTRAP_MARK, WorkerConfig

    assert BOOTSTRAP.splitlines()[0] == BOOTSTRAP_MARK
    assert BOOTSTRAP_MARK in WorkerConfig(interpreter="python3").argv()[-1]
    assert BOOTSTRAP_MARK in WorkerConfig(interpreter="python3", launch_prefix=["ssh", "box"]).argv()[-1]
    e2e = (REPO / "tests" / "e2e" / "untrusted.test.ts").read_text(encoding="utf-8")
    assert f'descendants("{BOOTSTRAP_MARK}")' in e2e
