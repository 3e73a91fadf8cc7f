"""The launch prefix through a real SSH server (conftest.py starts OpenSSH on 127.0.0.1): `sharpbits trace` runs its
worker behind `ssh -p PORT ... user@127.0.0.1`, and `sharpbits run --launch-prefix` runs the program there, its
stdin, stdout, stderr and exit status passing through and its findings coming back. Each test checks that the
code really ran in an SSH session (`SSH_CONNECTION` there, a login in the server's log)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.runtime.helpers import by_code, env, line_of, write
from tests.ssh.conftest import SshServer

TRACED = """
import os
import jax.numpy as jnp

print("ssh:", os.environ.get("SSH_CONNECTION", "none"))


def selu(x):
    return 1.05 * jnp.where(x > 0, x, 1.67 * jnp.expm1(x))  # body
"""

PROGRAM = """
import os
import sys

import jax
import jax.numpy as jnp

print("ssh:", os.environ.get("SSH_CONNECTION", "none"))


@jax.jit
def step(x, key):
    return x.sum() + jax.random.normal(key, ())


key = jax.random.PRNGKey(0)
for n in (1, 2, 3, 4, 5):
    step(jnp.ones((n, 3)), key)  # loop
jax.random.normal(key, (2,))  # again
print("stdin said:", sys.stdin.read().strip())
print("a line on stderr", file=sys.stderr)
sys.exit(3)
"""


def test_trace_runs_its_worker_behind_an_ssh_prefix(tmp_path: Path, ssh_server: SshServer):
    module = write(tmp_path, "model.py", TRACED)
    before = ssh_server.accepted()
    proc = subprocess.run(
        [sys.executable, "-m", "sharpbits", "trace", f"{module.name}::selu", "--args", "x=f32[64]",
         "--launch-prefix", ssh_server.prefix_text(), "--interpreter", sys.executable, "--platform", "cpu",
         "--show", "jaxpr,lines", "--no-eager", "--budget", "0.05", "--format", "json", "--cache-dir", "none"],
        cwd=tmp_path, env=env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["ok"] is True
    assert result["stdout"].startswith("ssh: 127.0.0.1 "), result["stdout"]  # the module ran in the SSH session
    assert result["device"]["platform"] == "cpu"
    body = line_of(module, "body")
    assert any(e.get("line") == body for e in result["jaxpr"]["equations"])  # lines map back to the local file
    assert ssh_server.accepted() > before


def test_run_runs_the_program_behind_an_ssh_prefix_and_its_findings_come_back(tmp_path: Path,
                                                                              ssh_server: SshServer):
    program = write(tmp_path, "train.py", PROGRAM)
    report = tmp_path / "report.json"
    before = ssh_server.accepted()
    proc = subprocess.run(
        [sys.executable, "-m", "sharpbits", "run", "--launch-prefix", ssh_server.prefix_text(),
         "--interpreter", sys.executable, "--format", "json", "-o", str(report),
         "--", "env", "JAX_PLATFORMS=cpu", sys.executable, program.name],
        cwd=tmp_path, env=env(), input="hello over ssh\n", capture_output=True, text=True, timeout=300)
    assert proc.returncode == 3, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("ssh: 127.0.0.1 ") and lines[1:] == ["stdin said: hello over ssh"]
    assert proc.stderr == "a line on stderr\n"  # the records block the launcher wrote last was taken out
    findings = json.loads(report.read_text(encoding="utf-8"))
    recompiles = by_code(findings, "SB601")
    assert [(f["path"], f["line"]) for f in recompiles] == [("train.py", line_of(program, "loop"))]
    assert "changed shape" in recompiles[0]["message"]
    reuses = sorted(f["line"] for f in by_code(findings, "SB201"))
    assert line_of(program, "again") in reuses  # the key the jitted step consumed, consumed again eagerly
    assert ssh_server.accepted() > before


def test_run_behind_a_prefix_that_cannot_start_the_launcher_says_so(tmp_path: Path, ssh_server: SshServer):
    program = write(tmp_path, "prog.py", 'print("never runs")\n')
    proc = subprocess.run(
        [sys.executable, "-m", "sharpbits", "run", "--launch-prefix", ssh_server.prefix_text(),
         "--interpreter", "/nonexistent/python3", "--", "python3", program.name],
        cwd=tmp_path, env=env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 127 and proc.stdout == ""
    assert "no records came back through the launch prefix" in proc.stderr
