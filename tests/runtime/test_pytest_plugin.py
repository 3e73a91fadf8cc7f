"""The pytest plugin through pytest itself (a subprocess): `--sharpbits` reports, and it is inert without it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.runtime.helpers import by_code, env, line_of, write

TESTS = """
import jax
import jax.numpy as jnp

@jax.jit
def total(x):
    return x.sum()

def test_shapes():
    for n in range(1, 6):
        total(jnp.ones((n,)))  # call:total

def test_reuse():
    key = jax.random.PRNGKey(0)
    jax.random.normal(key, (2,))
    jax.random.normal(key, (2,))  # reuse

def test_same_seed_in_another_test_is_not_a_reuse():
    key = jax.random.PRNGKey(0)
    jax.random.normal(key, (2,))
"""


def _pytest(folder: Path, *options: str) -> subprocess.CompletedProcess[str]:
    run_env = env()
    run_env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # only what -p names: the plugin is loaded by its name
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "sharpbits",
                           *options, "test_prog.py"], cwd=folder, env=run_env, capture_output=True, text=True,
                          timeout=240)


def test_plugin_reports_findings_with_the_tests_they_were_seen_in(tmp_path: Path):
    program = write(tmp_path, "test_prog.py", TESTS)
    report = tmp_path / "report.json"
    proc = _pytest(tmp_path, "--sharpbits", "--sharpbits-format", "json", "--sharpbits-output", str(report))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 passed" in proc.stdout
    findings = json.loads(report.read_text(encoding="utf-8"))
    [recompile] = by_code(findings, "SB601")
    assert recompile["line"] == line_of(program, "call:total") and recompile["count"] == 5
    assert recompile["tests"] == ["test_prog.py::test_shapes"]
    [reuse] = by_code(findings, "SB201")  # the third test's PRNGKey(0) is a new key, not a reuse
    assert reuse["line"] == line_of(program, "reuse") and reuse["tests"] == ["test_prog.py::test_reuse"]


def test_plugin_text_report_in_its_own_section(tmp_path: Path):
    program = write(tmp_path, "test_prog.py", TESTS)
    proc = _pytest(tmp_path, "--sharpbits")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    section = proc.stdout.split("sharpbits runtime findings", 1)[1]
    assert f"test_prog.py:{line_of(program, 'reuse')}:5: SB201 [prng-key-reuse]" in section
    assert "sharpbits: 2 runtime findings in the tests." in section


def test_plugin_is_inert_without_its_option(tmp_path: Path):
    write(tmp_path, "test_prog.py", TESTS + """
def test_nothing_is_patched():
    import sys
    assert "sharpbits.runtime.agent" not in sys.modules
    assert not hasattr(jax.jit, "__sharpbits_wrapped__")
""")
    proc = _pytest(tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "sharpbits" not in proc.stdout
