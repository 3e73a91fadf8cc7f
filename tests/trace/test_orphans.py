"""A worker stuck in user code does not outlive the process that started it."""

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import psutil


def test_a_hung_worker_exits_when_its_parent_dies(tmp_path: Path):
    doc = tmp_path / "spin.py"
    doc.write_text("def f(x):\n    while True:\n        pass\n")
    parent = textwrap.dedent(f"""
        import sys, threading
        from sharpbits.trace.client import Ticket, TraceClient, WorkerConfig
        from sharpbits.trace.specs import resolve_spec
        text = open({str(doc)!r}).read()
        client = TraceClient(WorkerConfig(interpreter=sys.executable, platform="cpu"))
        client.start(background=False)
        print(client.status()["pid"], flush=True)
        spec = resolve_spec(text, "f", "x=f32[2]").spec
        ticket = Ticket()
        threading.Thread(target=lambda: client.trace(path={str(doc)!r}, text=text, function="f", spec=spec,
                         show=["jaxpr"], timeout=600, marker=ticket), daemon=True).start()
        ticket.acked.wait()
        print("running", flush=True)
        threading.Event().wait()  # until the test kills this process
    """)
    proc = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE, text=True)
    worker_pid = int(proc.stdout.readline())
    worker = psutil.Process(worker_pid)
    assert proc.stdout.readline() == "running\n"  # the worker read the trace: it spins in user code from here
    assert worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE
    os.kill(proc.pid, signal.SIGKILL)  # the server dies without a word
    proc.wait()
    try:
        worker.wait(timeout=10)
    except psutil.TimeoutExpired:
        worker.kill()
        raise AssertionError("the worker outlived its parent") from None


def test_processes_started_by_traced_code_end_with_the_worker(tmp_path: Path):
    """A traced function that starts a child in a new session (out of the worker's process group) does not
    leave it running after the worker is restarted."""
    from sharpbits.trace.client import TraceClient, WorkerConfig
    from sharpbits.trace.specs import resolve_spec

    pid_file = tmp_path / "child.pid"
    doc = tmp_path / "spawn.py"
    doc.write_text(textwrap.dedent(f"""
        import subprocess
        import jax

        CHILD = subprocess.Popen(["sleep", "300"], start_new_session=True)
        open({str(pid_file)!r}, "w").write(str(CHILD.pid))

        @jax.jit
        def f(x):
            return x + 1
    """))
    text = doc.read_text()
    client = TraceClient(WorkerConfig(interpreter=sys.executable, platform="cpu"))
    try:
        client.start(background=False)
        spec = resolve_spec(text, "f", "x=f32[2]").spec
        result = client.trace(path=str(doc), text=text, function="f", spec=spec, show=["jaxpr"], timeout=120)
        assert result.get("ok"), result
        child = psutil.Process(int(pid_file.read_text()))
        assert child.is_running() and os.getsid(child.pid) != os.getsid(client.status()["pid"])
        client.restart(background=False)
        try:
            child.wait(timeout=10)
        except psutil.TimeoutExpired:
            child.kill()
            raise AssertionError("a process started by the traced code outlived its worker") from None
    finally:
        client.stop()
