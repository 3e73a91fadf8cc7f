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


PER_TEST = """
import jax
import jax.numpy as jnp
import numpy as np
import pytest

@jax.jit
def total(x):  # def:total
    return x.sum()

@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_each_case_compiles_once(n):
    assert total(jnp.ones((n,))) == n  # call:param

@pytest.mark.parametrize("n", [7, 8, 9, 10, 11, 12])
def test_each_case_reads_once(n):
    assert float(total(jnp.ones((n,)))) == n  # read:param

def test_a_batch_shape_changing_within_one_test():
    for batch in (16, 24, 32, 40, 48):
        total(jnp.ones((batch, 2)))  # call:batches

def test_another_test_changing_shapes():
    for batch in (64, 72, 80, 88):
        total(jnp.ones((batch, 2)))  # call:more

def test_a_read_in_a_loop():
    w = jnp.ones(3)
    for _ in range(12):
        w = w * 0.5
        float(w.sum())  # read:loop

@jax.jit
def scaled(x, s):
    return x * s

def test_weak_type_flips():
    scaled(jnp.ones(2), 2.0)
    scaled(jnp.ones(2), jnp.asarray(2.0, jnp.float32))  # call:weak

@jax.jit
def shifted(x, s):
    return x + s

def test_dtype_flips():
    shifted(jnp.ones(2), 1)
    shifted(jnp.ones(2, jnp.int32), 1)  # call:dtype

from functools import partial

@partial(jax.jit, static_argnames="n")
def power(x, n):
    return x ** n

def test_static_values():
    power(jnp.ones(2), n=2)
    power(jnp.ones(2), n=3)  # call:static

def test_jit_in_a_loop():
    for _ in range(3):
        jax.jit(lambda v: v + 1)(jnp.ones(2))  # call:hoist
"""


def test_compiles_are_counted_per_test_not_summed_over_tests(tmp_path: Path):
    """Parameterized cases that each compile `total` once for their own shape are no recompile (6 compiles over
    the session, 1 per test); a batch shape that changes within one test is, with the count in that test and what
    changed there; a second test going past the threshold joins the same finding."""
    program = write(tmp_path, "test_prog.py", PER_TEST)
    report = tmp_path / "report.json"
    proc = _pytest(tmp_path, "--sharpbits", "--sharpbits-format", "json", "--sharpbits-output", str(report),
                   "--sharpbits-threshold", "3")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    findings = json.loads(report.read_text(encoding="utf-8"))
    recompiles = by_code(findings, "SB601")
    total = [f for f in recompiles if any(r["line"] == line_of(program, "def:total") for r in f["related"])]
    [finding] = total  # one finding for `total`, none from the parameterized cases
    assert finding["line"] == line_of(program, "call:batches")
    batches = "test_prog.py::test_a_batch_shape_changing_within_one_test"
    more = "test_prog.py::test_another_test_changing_shapes"
    assert finding["count"] == 5  # the most compiles within one test
    assert finding["tests"] == [batches, more]
    assert finding["compiles_per_test"] == {batches: 5, more: 4}
    message = finding["message"]
    assert f"compiled 5 times within test `{batches}`" in message
    assert "argument `x` changed shape (5 shapes: f32[16,2], f32[24,2], f32[32,2], f32[40,2], f32[48,2])" in message
    assert "f32[1]" not in message  # the shapes of other tests are not this test's change
    assert "pad `x` to a fixed shape, or bucket it" in message
    assert "Over the whole session it compiled 21 times in 14 tests" in message  # 6 + 6 cases, 5 + 4 shapes
    assert f"{batches} (5 compiles), {more} (4 compiles)" in message
    assert not [f for f in recompiles if f["line"] == line_of(program, "call:param")]


def test_transfers_are_counted_per_test(tmp_path: Path):
    """Six parameterized cases each reading one value back are no loop (6 reads at that line over the session, 1
    per test, under a threshold of 5); twelve reads within one test are."""
    program = write(tmp_path, "test_prog.py", PER_TEST)
    report = tmp_path / "report.json"
    proc = _pytest(tmp_path, "--sharpbits", "--sharpbits-format", "json", "--sharpbits-output", str(report),
                   "--sharpbits-transfer-threshold", "5")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    transfers = by_code(json.loads(report.read_text(encoding="utf-8")), "SB604")
    assert [(f["line"], f["count"], f["tests"]) for f in transfers] == [
        (line_of(program, "read:loop"), 12, ["test_prog.py::test_a_read_in_a_loop"])]
    assert "seen 5 times or more in one test" in transfers[0]["message"]


def test_each_reason_for_a_recompile_within_a_test(tmp_path: Path):
    """With a threshold of 1, a second compile within a test is a finding: what changed, and how to avoid it."""
    program = write(tmp_path, "test_prog.py", PER_TEST)
    report = tmp_path / "report.json"
    proc = _pytest(tmp_path, "--sharpbits", "--sharpbits-format", "json", "--sharpbits-output", str(report),
                   "--sharpbits-threshold", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    by_line = {f["line"]: f for f in by_code(json.loads(report.read_text(encoding="utf-8")), "SB601")}
    weak = by_line[line_of(program, "call:weak")]["message"]
    assert "argument `s` was a weakly typed Python scalar in some calls and a typed array in others" in weak
    assert "jnp.asarray(value, jnp.float32)" in weak
    dtype = by_line[line_of(program, "call:dtype")]["message"]
    assert "argument `x` changed dtype (float32, int32)" in dtype and "cast `x` to one dtype" in dtype
    static = by_line[line_of(program, "call:static")]["message"]
    assert "static argument `n` took 2 values (2, 3)" in static
    hoist = by_line[line_of(program, "call:hoist")]["message"]
    assert "applied to 3 different function objects" in hoist and "hoist the `jax.jit` out of the loop" in hoist
    assert line_of(program, "call:param") not in by_line
