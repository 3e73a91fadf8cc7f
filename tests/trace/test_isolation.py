"""The server side never imports jax; the worker is self-contained and also runs as a plain script."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

from sharpbits.trace import protocol
from sharpbits.trace.client import WORKER_SOURCE


def test_server_side_does_not_import_jax():
    code = (
        "import sys\n"
        "import sharpbits.cli, sharpbits.trace.cli, sharpbits.trace.client, sharpbits.trace.specs\n"
        "import sharpbits.trace.sourcemap, sharpbits.trace.render, sharpbits.lsp.trace_service\n"
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


def test_a_hostile_temp_folder_is_never_imported_by_the_worker(tmp_path):
    """The worker used to start in $TMPDIR as `python -c`, which put that shared folder first on sys.path: on a
    multi-user machine anyone who can write /tmp ran code as the user. A trace with TMPDIR full of modules named
    like what the worker imports (json.py, numpy.py, jax.py, ...) writes no marker."""
    from tests.hostile import every_module_name, plant, written

    hostile_tmp, markers, project = tmp_path / "tmp", tmp_path / "markers", tmp_path / "project"
    plant(hostile_tmp, markers, every_module_name())
    project.mkdir()
    (project / "model.py").write_text("import jax.numpy as jnp\n\n\ndef f(x):\n    return jnp.cos(x)\n")
    env = {**os.environ, "TMPDIR": str(hostile_tmp), "SHARPBITS_JAX_CACHE": str(tmp_path / "cache")}
    p = subprocess.run([str(Path(sys.executable).with_name("sharpbits")), "trace", "model.py::f", "--args", "x=f32[3]",
                        "--show", "jaxpr", "--no-eager", "--budget", "0.05"],
                       cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "cos" in p.stdout
    assert written(markers) == []


def test_the_worker_starts_in_the_project_root_without_importing_from_it(tmp_path):
    """The worker runs in the folder the server chose (the project root), and its own start-up imports come from
    the interpreter, not from that folder: the bootstrap takes the working directory off sys.path first."""
    from sharpbits.trace.client import TraceClient, WorkerConfig

    from tests.hostile import every_module_name, plant, written

    project, markers = tmp_path / "project", tmp_path / "markers"
    plant(project, markers, every_module_name())
    client = TraceClient(WorkerConfig(cwd=str(project), cache_dir=None, warmup=False))
    try:
        client.start(background=False)
        assert written(markers) == []
        pid = client.ping()["pid"]
        assert Path(f"/proc/{pid}/cwd").resolve() == project.resolve()
    finally:
        client.stop()
