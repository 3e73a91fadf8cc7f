"""A worker stuck in user code does not outlive the process that started it."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil


def test_a_hung_worker_exits_when_its_parent_dies(tmp_path: Path):
    doc = tmp_path / "spin.py"
    doc.write_text("def f(x):\n    while True:\n        pass\n")
    parent = textwrap.dedent(f"""
        import sys, threading
        import time
        from sharpbits.trace.client import TraceClient, WorkerConfig
        from sharpbits.trace.specs import resolve_spec
        text = open({str(doc)!r}).read()
        client = TraceClient(WorkerConfig(interpreter=sys.executable, platform="cpu"))
        client.start()
        while "pid" not in client.status():
            time.sleep(0.1)
        print(client.status()["pid"], flush=True)
        spec = resolve_spec(text, "f", "x=f32[2]").spec
        threading.Thread(target=lambda: client.trace(path={str(doc)!r}, text=text, function="f", spec=spec,
                         show=["jaxpr"], timeout=600), daemon=True).start()
        import time; time.sleep(600)
    """)
    proc = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE, text=True)
    worker_pid = int(proc.stdout.readline())
    worker = psutil.Process(worker_pid)
    time.sleep(3)  # the worker is now spinning in user code
    assert worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE
    os.kill(proc.pid, signal.SIGKILL)  # the server dies without a word
    proc.wait()
    try:
        worker.wait(timeout=10)
    except psutil.TimeoutExpired:
        worker.kill()
        raise AssertionError("the worker outlived its parent") from None
