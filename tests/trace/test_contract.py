"""The typed contract between worker, server, CLI and extension is one definition (protocol.py), and every
consumer agrees with it: the generated TypeScript, the worker's own copies, package.json, the CLI, the docs, and
the results a real worker sends."""

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


def test_generated_typescript_is_current():
    assert GENERATED.read_text(encoding="utf-8") == schema.typescript(), (
        "extension/src/tracing/protocol.generated.ts is out of date: run "
        "`python -m sharpbits.trace.schema > extension/src/tracing/protocol.generated.ts`")


def test_worker_copies_agree():
    tree = ast.parse((REPO / "server" / "sharpbits" / "trace" / "worker.py").read_text(encoding="utf-8"))
    constants = {t.id: ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                 for t in node.targets if isinstance(t, ast.Name) and t.id in ("PROTOCOL", "VIEWS")}
    assert constants == {"PROTOCOL": protocol.VERSION, "VIEWS": protocol.VIEWS}
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
    assert "sharpbits" not in imported  # it runs in the user's interpreter


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
