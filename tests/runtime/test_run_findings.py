"""Each runtime finding kind, through `sharpbits run` as a subprocess: one program holds them all (JAX's start-up is
paid once), then a program without any sharp bit must give no finding."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.runtime.helpers import by_code, line_of, sharpbits_run, write

PROGRAM = """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(x, scale):  # def:step
    return (x * scale).sum()

for batch in (4, 8, 16, 32, 32, 8):
    print("loss", float(step(jnp.ones((batch, 3)), 2.0)))  # call:step

key = jax.random.PRNGKey(0)
a = jax.random.normal(key, (2,))  # eager:first
b = jax.random.uniform(key, (2,))  # eager:again

@jax.jit
def noisy(k, x):
    noise = jax.random.normal(k, x.shape)  # jit:first
    return x + noise + jax.random.uniform(k, x.shape)  # jit:again

noisy(jax.random.PRNGKey(1), jnp.ones(2))

@jax.jit
def draw(k):
    return jax.random.normal(k, (3,))

loop_key = jax.random.PRNGKey(2)
for _ in range(3):
    draw(loop_key)  # boundary:again

@jax.jit
def log_loss(x):
    y = jnp.log(x)  # nan:origin
    return (y * 2).sum()

print("nan loss", log_loss(jnp.array([1.0, -1.0])))

saved = []

@jax.jit
def leaky(x):
    y = x * 2  # leak:created
    saved.append(y)
    return y + 1

leaky(jnp.ones(2))
try:
    saved[0] + 1  # leak:used
except Exception as exc:
    print("leak error:", type(exc).__name__)

@jax.jit
def update(w, batch):
    return w - 0.1 * (batch * w).mean()

w = jnp.ones(3)
host_batch = np.ones((3,), np.float32)
for i in range(12):
    w = update(w, host_batch)  # transfer:h2d
    last = float(w.sum())  # transfer:d2h
print("end", last)

for _ in range(5):
    jax.jit(lambda v: v + 1)(jnp.ones(2))  # call:lambda
"""


@pytest.fixture(scope="module")
def kitchen_sink(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any, list[dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("run")
    program = write(folder, "train.py", PROGRAM)
    proc, findings = sharpbits_run(folder, program, "--nans")
    assert proc.returncode == 0, proc.stderr
    return program, proc, findings


def test_recompile_from_a_changing_batch_shape(kitchen_sink):
    program, _, findings = kitchen_sink
    [finding] = [f for f in by_code(findings, "SB601") if f["line"] == line_of(program, "call:step")]
    assert finding["count"] == 4  # batch sizes 4, 8, 16, 32: the repeated 32 and 8 reuse their compiles
    assert "argument `x` changed shape" in finding["message"]
    assert "f32[4,3], f32[8,3], f32[16,3], f32[32,3]" in finding["message"]
    assert "pad" in finding["message"] and "bucket" in finding["message"]
    assert any(r["line"] == line_of(program, "def:step") for r in finding["related"])
    assert finding["static"] == []  # static analysis cannot see the shapes change


def test_recompile_from_jit_applied_in_a_loop(kitchen_sink):
    program, _, findings = kitchen_sink
    [finding] = [f for f in by_code(findings, "SB601") if f["line"] == line_of(program, "call:lambda")]
    assert finding["count"] == 5
    assert "applied to 5 different function objects" in finding["message"]
    assert "SB303 jit-in-loop" in finding["static"]  # static analysis flags this one too


def _reuse_at(findings, program, again, first):
    matches = [f for f in by_code(findings, "SB201") if f["line"] == line_of(program, again)]
    assert matches, [(f["line"], f["message"]) for f in by_code(findings, "SB201")]
    [finding] = matches
    assert any(r["line"] == line_of(program, first) for r in finding["related"]), finding
    return finding


def test_raw_prngkey_reuse_eagerly_has_both_call_sites(kitchen_sink):
    program, _, findings = kitchen_sink
    finding = _reuse_at(findings, program, "eager:again", "eager:first")
    assert "raw PRNGKey array" in finding["message"]
    assert "`jax.random.normal`" in finding["message"] and "`jax.random.uniform`" in finding["message"]
    assert finding["static"] == ["SB201 prng-key-reuse"]  # static analysis sees this one too


def test_raw_prngkey_reuse_under_jit_has_both_call_sites(kitchen_sink):
    program, _, findings = kitchen_sink
    finding = _reuse_at(findings, program, "jit:again", "jit:first")
    assert "while tracing `noisy`" in finding["message"]


def test_a_key_passed_again_to_a_jitted_function_that_consumes_it(kitchen_sink):
    program, _, findings = kitchen_sink
    [finding] = [f for f in by_code(findings, "SB201") if f["line"] == line_of(program, "boundary:again")]
    assert finding["count"] == 2  # three calls with one key: two reuses
    assert "`draw` (jitted; it consumes its argument `k`)" in finding["message"]


def test_nan_origin_is_the_operation_inside_the_jitted_function(kitchen_sink):
    program, proc, findings = kitchen_sink
    [finding] = by_code(findings, "SB602")
    assert finding["line"] == line_of(program, "nan:origin")
    assert "`log`" in finding["message"] and finding["severity"] == "error"
    assert "nan loss nan" in proc.stdout  # the program ran on as it would have: the check only records
    assert "Invalid nan value" not in proc.stdout  # JAX's own debug_nans print does not reach the program's output


def test_tracer_leak_where_created_and_where_used(kitchen_sink):
    program, proc, findings = kitchen_sink
    [finding] = by_code(findings, "SB603")
    assert finding["line"] == line_of(program, "leak:created")
    assert [r["line"] for r in finding["related"]] == [line_of(program, "leak:used")]
    assert "leak error: UnexpectedTracerError" in proc.stdout


def test_implicit_transfers_in_a_loop_both_directions(kitchen_sink):
    program, _, findings = kitchen_sink
    transfers = {f["line"]: f for f in by_code(findings, "SB604")}
    assert set(transfers) == {line_of(program, "transfer:h2d"), line_of(program, "transfer:d2h")}
    h2d, d2h = transfers[line_of(program, "transfer:h2d")], transfers[line_of(program, "transfer:d2h")]
    assert "host-to-device" in h2d["message"] and "NumPy array (float32[3])" in h2d["message"]
    assert "device-to-host" in d2h["message"]
    assert h2d["count"] == d2h["count"] == 12


def test_every_finding_is_at_the_users_file(kitchen_sink):
    _, _, findings = kitchen_sink
    assert findings and {f["path"] for f in findings} == {"train.py"}
    assert all(f["runtime"] is True for f in findings)


CLEAN = """
import jax
import jax.numpy as jnp

@jax.jit
def step(params, key, x):
    key, sub = jax.random.split(key)
    noise = jax.random.normal(sub, x.shape)
    return params + (x + noise).mean(), key

params = jnp.zeros(())
key = jax.random.PRNGKey(0)
base = jax.random.PRNGKey(1)
for i in range(5):
    params, key = step(params, key, jnp.ones((8, 3)))  # one shape: one compile
    jax.random.normal(jax.random.fold_in(base, i), (2,))  # fold_in does not consume `base`

def body(carry, k):
    return carry + jax.random.normal(k, ()), None

keys = jax.random.split(jax.random.PRNGKey(3), 4)
total, _ = jax.lax.scan(body, 0.0, keys)
print("ok", jax.device_get(params), jax.device_get(total))
"""


def test_a_program_without_sharp_bits_has_no_findings(tmp_path: Path):
    program = write(tmp_path, "clean.py", CLEAN)
    proc, findings = sharpbits_run(tmp_path, program)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok ")
    assert findings == []


def test_a_key_closed_over_by_a_scan_body_is_consumed_in_every_iteration(tmp_path: Path):
    program = write(tmp_path, "scan.py", """
        import jax
        import jax.numpy as jnp

        key = jax.random.PRNGKey(0)

        @jax.jit
        def run(k):
            def body(carry, _):
                return carry + jax.random.normal(k, ()), None  # scan:body
            return jax.lax.scan(body, 0.0, None, length=5)[0]

        print(run(key))
    """)
    proc, findings = sharpbits_run(tmp_path, program, "--no-transfers")
    assert proc.returncode == 0, proc.stderr
    [finding] = by_code(findings, "SB201")
    assert finding["line"] == line_of(program, "scan:body")
    assert "next iteration of the loop" in finding["message"]
