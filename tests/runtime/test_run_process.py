"""`sharpbits run` leaves the program alone: its stdout, stderr and exit status pass through unchanged, the report
goes elsewhere, and a program that crashes, calls os._exit or is interrupted still gets its findings. `check` never
runs code."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.runtime.helpers import by_code, env, line_of, sharpbits_run, write

REUSE = """
import sys
import jax
key = jax.random.PRNGKey(0)
jax.random.normal(key, (2,))
jax.random.normal(key, (2,))  # reuse
"""


def test_output_and_exit_status_pass_through_and_the_report_goes_to_its_file(tmp_path: Path):
    program = write(tmp_path, "prog.py", REUSE + """
print("to stdout")
print("to stderr", file=sys.stderr)
sys.exit(3)
""")
    plain = subprocess.run([sys.executable, program.name], cwd=tmp_path, env=env(), capture_output=True, text=True)
    proc, findings = sharpbits_run(tmp_path, program)
    assert (proc.returncode, proc.stdout, proc.stderr) == (plain.returncode, plain.stdout, plain.stderr) == \
        (3, "to stdout\n", "to stderr\n")
    assert [f["line"] for f in by_code(findings, "SB201")] == [line_of(program, "reuse")]


def test_without_output_file_the_report_follows_the_programs_stderr(tmp_path: Path):
    program = write(tmp_path, "prog.py", REUSE + 'print("program done")\n')
    proc = subprocess.run([sys.executable, "-m", "sharpbits", "run", "--", sys.executable, program.name],
                          cwd=tmp_path, env=env(), capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0 and proc.stdout == "program done\n"
    header = "---- sharpbits run: findings ----"
    assert header in proc.stderr
    report = proc.stderr.split(header, 1)[1]
    assert f"prog.py:{line_of(program, 'reuse')}:1: SB201 [prng-key-reuse]" in report


def test_a_crash_still_reports(tmp_path: Path):
    program = write(tmp_path, "prog.py", REUSE + 'raise RuntimeError("boom")\n')
    proc, findings = sharpbits_run(tmp_path, program)
    assert proc.returncode == 1 and "RuntimeError: boom" in proc.stderr
    assert by_code(findings, "SB201")


def test_os_exit_still_reports_with_its_status(tmp_path: Path):
    program = write(tmp_path, "prog.py", REUSE + "import os\nos._exit(5)\n")
    proc, findings = sharpbits_run(tmp_path, program)
    assert proc.returncode == 5
    assert by_code(findings, "SB201")


def _ctrl_c_as_in_a_terminal() -> None:
    """A shell without job control starts background commands with SIGINT ignored, and an ignored signal stays
    ignored across exec (Python then installs no KeyboardInterrupt handler): the test suite run as `make test &`
    would hand that to the program. A terminal's foreground job has the default, which is what this test is about."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_on_a_hanging_program_still_reports(tmp_path: Path):
    program = write(tmp_path, "prog.py", REUSE + """
import time
print("ready", flush=True)
while True:
    time.sleep(0.05)
""")
    report = tmp_path / "report.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "sharpbits", "run", "--format", "json", "-o", str(report), "--", sys.executable,
         program.name], cwd=tmp_path, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=_ctrl_c_as_in_a_terminal)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "ready\n"  # waits for the program to get there
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl+C does: the whole foreground group
        _, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, stderr
    assert "KeyboardInterrupt" in stderr
    findings = json.loads(report.read_text(encoding="utf-8"))
    assert [f["line"] for f in by_code(findings, "SB201")] == [line_of(program, "reuse")]


def test_check_never_runs_the_code(tmp_path: Path):
    marker = tmp_path / "ran"
    write(tmp_path, "prog.py", f"open({str(marker)!r}, 'w').close()\nimport jax\n")
    proc = subprocess.run([sys.executable, "-m", "sharpbits", "check", "--no-cache", "prog.py"], cwd=tmp_path,
                          env=env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    assert not marker.exists()
    # and `run` does run it: the marker proves the program was the one executed
    sharpbits_run(tmp_path, tmp_path / "prog.py")
    assert marker.exists()


def test_a_missing_command_says_so(tmp_path: Path):
    proc = subprocess.run([sys.executable, "-m", "sharpbits", "run", "--", "no-such-command-sharpbits"],
                          cwd=tmp_path, env=env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 127 and "command not found" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "sharpbits", "run"], cwd=tmp_path, env=env(), capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and "no command given" in proc.stderr
