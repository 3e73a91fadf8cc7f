"""The server side never imports jax; the worker is self-contained and also runs as a plain script."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from sharpbits.trace import protocol
from sharpbits.trace.client import WORKER_SOURCE


def test_server_side_does_not_import_jax():
    code = (
        "import sys\n"
        "import sharpbits.cli, sharpbits.trace.cli, sharpbits.trace.client, sharpbits.trace.specs\n"
        "import sharpbits.trace.sourcemap, sharpbits.trace.render, sharpbits.lsp.trace_features\n"
        "sharpbits.cli.build_parser()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('jax', 'jaxlib', 'numpy'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_worker_imports_only_stdlib_numpy_jax():
    tree = ast.parse(WORKER_SOURCE.read_text())
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            roots.add(node.module.split(".")[0])
    assert "sharpbits" not in roots
    assert roots - set(sys.stdlib_module_names) <= {"jax", "numpy"}


def test_worker_runs_as_a_script(tmp_path):
    doc = tmp_path / "m.py"
    doc.write_text("import jax.numpy as jnp\ndef f(x):\n    print('hi')\n    return jnp.cos(x)\n")
    frames = b"".join(protocol.encode(m) for m in (
        {"type": "config", "platform": "cpu", "warmup": False},
        {"id": 1, "type": "trace", "path": str(doc), "text": doc.read_text(), "function": "f", "show": ["jaxpr"],
         "spec": {"args": [{"kind": "array", "dtype": "float32", "shape": [3]}], "kwargs": {}}},
        {"id": 2, "type": "shutdown"},
    ))
    p = subprocess.run([sys.executable, str(WORKER_SOURCE)], input=frames, capture_output=True, timeout=120,
                       cwd=tmp_path)
    assert p.returncode == 0, p.stderr.decode()
    import io

    out = io.BytesIO(p.stdout)
    messages = []
    while (m := protocol.read_frame(out)) is not None:
        messages.append(m)
    assert [m["type"] for m in messages] == ["hello", "ack", "result"]
    assert messages[0]["ok"] and messages[2]["ok"] and messages[2]["stdout"] == "hi\n"
    assert "cos" in messages[2]["jaxpr"]["text"]
    assert sorted(p.name for p in Path(tmp_path).iterdir()) == ["m.py"]


def test_worker_source_parses_as_python_3_8():
    # the user's interpreter may be older than the server's: keep the worker's syntax conservative
    ast.parse(WORKER_SOURCE.read_text(), feature_version=(3, 8))
