"""Each fault user code can cause becomes a clear error, and the next trace works."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fault_document import FAULTS  # tests/trace is on sys.path (pytest's rootdir-relative import)
from sharpbits.trace import protocol
from sharpbits.trace.client import Ticket, TraceClient, WorkerConfig
from sharpbits.trace.specs import parse_spec


@pytest.fixture
def doc(make_doc):
    return make_doc(FAULTS, name="faults.py")


def assert_next_trace_works(client, doc):
    r = doc.trace(client, "ok", "x=f32[4]", show=["jaxpr"])
    assert r["ok"], r.get("error")
    assert "sin" in r["jaxpr"]["text"]


@pytest.mark.parametrize("function", ["hang", "sleeps"])
def test_time_limit_kills_and_restarts(client, doc, function):
    r = doc.trace(client, function, "x=f32[4]", show=["jaxpr"], timeout=2)
    assert not r["ok"]
    assert r["error"]["type"] == "Timeout" and "2 s" in r["error"]["message"]
    expected = {doc.line_of("while True"), doc.line_of("pass")} if function == "hang" else {
        doc.line_of("time.sleep(1000)")}
    assert r["error"]["line"] in expected  # where it was stuck, from a faulthandler dump before the kill
    assert_next_trace_works(client, doc)


def test_os_exit(client, doc):
    r = doc.trace(client, "hard_exit", "x=f32[4]", show=["jaxpr"])
    assert r["error"]["type"] == "WorkerCrashed"
    assert r["error"]["exit_code"] == 7 and "exited with code 7" in r["error"]["message"]
    assert_next_trace_works(client, doc)


def test_segfault(client, doc):
    r = doc.trace(client, "segfault", "x=f32[4]", show=["jaxpr"])
    err = r["error"]
    assert err["type"] == "WorkerCrashed" and "SIGSEGV" in err["message"]
    assert err.get("line") == doc.line_of("ctypes.string_at(0)")  # from faulthandler's dump
    assert_next_trace_works(client, doc)


def test_sys_exit_is_an_error_not_a_crash(client, doc):
    pid = client.ping()["pid"]
    r = doc.trace(client, "calls_exit", "x=f32[4]", show=["jaxpr"])
    assert r["error"]["type"] == "SystemExit" and "sys.exit(3)" in r["error"]["message"]
    assert r["error"]["line"] == doc.line_of("sys.exit(3)")
    assert client.ping()["pid"] == pid  # the same worker carries on
    assert_next_trace_works(client, doc)


def test_memory_error_under_the_memory_limit(jax_cache, doc):
    limited = TraceClient(WorkerConfig(cache_dir=jax_cache, memory_limit_mb=2048, warmup=False))
    try:
        r = doc.trace(limited, "hog", "x=f32[4]", show=["jaxpr"])  # 8 GiB of float64
        assert r["error"]["type"] == "MemoryError", r["error"]
        assert r["error"]["line"] == doc.line_of("np.ones((1 << 30,)")
        status = limited.status()
        assert status["state"] == "ready"
        assert status["memory_limit"]["rlimit_data_bytes"] == 2048 << 20
        assert status["memory_limit"]["source"] == "setting"
        assert_next_trace_works(limited, doc)
    finally:
        limited.stop()


def test_the_default_memory_limit_is_half_the_physical_memory(client, doc):
    assert_next_trace_works(client, doc)  # the worker is up
    limit = client.status()["memory_limit"]
    assert limit["rlimit_data_bytes"] == os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    assert limit["source"].startswith("default") and 0 < limit["in_use_bytes"] < limit["rlimit_data_bytes"]
    # the limit holds for the worker's process (and for user code in it): read it from outside
    soft = Path(f"/proc/{client.ping()['pid']}/limits").read_text()
    assert any(line.startswith("Max data size") and str(limit["rlimit_data_bytes"]) in line for line in soft.splitlines())


def test_memory_limit_0_is_no_limit(jax_cache, doc):
    unlimited = TraceClient(WorkerConfig(cache_dir=jax_cache, memory_limit_mb=0, warmup=False))
    try:
        assert_next_trace_works(unlimited, doc)
        assert unlimited.status()["memory_limit"] == {"off": True}
        limits = Path(f"/proc/{unlimited.ping()['pid']}/limits").read_text()
        assert any(line.startswith("Max data size") and "unlimited" in line for line in limits.splitlines())
    finally:
        unlimited.stop()


def test_import_error_in_user_module(client, make_doc, doc):
    bad = make_doc("import jax\nfrom not_installed_pkg import thing\n\ndef f(x):\n    return x\n", name="bad.py")
    r = bad.trace(client, "f", "x=f32[4]", show=["jaxpr"])
    assert r["error"]["type"] == "ModuleNotFoundError" and "not_installed_pkg" in r["error"]["message"]
    assert r["error"]["line"] == 2
    assert_next_trace_works(client, doc)


def test_worker_killed_between_traces(client, doc):
    pid = client.ping()["pid"]
    os.kill(pid, signal.SIGKILL)
    assert_next_trace_works(client, doc)
    assert client.ping()["pid"] != pid


def test_worker_dying_as_the_request_is_written(client, doc, monkeypatch):
    """The worker was alive when the client looked and gone when the request was written (a kill between traces,
    a moment later): the request never reached it, so it goes to a fresh worker instead of failing."""
    assert_next_trace_works(client, doc)
    proc = client._proc
    pid = proc.popen.pid

    def dies_then_breaks(message):
        proc.popen.kill()
        proc.popen.wait()
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(proc, "send", dies_then_breaks)
    assert_next_trace_works(client, doc)
    assert client.ping()["pid"] != pid


@pytest.fixture(scope="module")
def python_without_jax(tmp_path_factory):
    env_dir = tmp_path_factory.mktemp("nojax") / "venv"
    base = getattr(sys, "_base_executable", None) or sys.executable
    subprocess.run([base, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    py = env_dir / "bin" / "python"
    assert subprocess.run([str(py), "-c", "import jax"], capture_output=True).returncode != 0
    return str(py)


def test_interpreter_without_jax(python_without_jax, client, doc):
    c = TraceClient(WorkerConfig(interpreter=python_without_jax, cache_dir=None))
    try:
        r = doc.trace(c, "ok", "x=f32[4]", show=["jaxpr"])
        err = r["error"]
        assert err["type"] == "WorkerStartError"
        assert python_without_jax in err["message"] and ("jax" in err["message"] or "numpy" in err["message"])
        assert c.status()["state"] == "failed" and "error" in c.status()
        r = doc.trace(c, "ok", "x=f32[4]", show=["jaxpr"])  # asked again: the same clear answer, no hang
        assert r["error"]["type"] == "WorkerStartError"
    finally:
        c.stop()
    assert_next_trace_works(client, doc)  # the other worker is unaffected


def test_interpreter_that_does_not_exist(doc):
    c = TraceClient(WorkerConfig(interpreter="/nonexistent/python3", cache_dir=None))
    r = doc.trace(c, "ok", "x=f32[4]", show=["jaxpr"])
    assert r["error"]["type"] == "WorkerStartError" and "/nonexistent/python3" in r["error"]["message"]


def test_launch_prefix_runs_the_worker(jax_cache, doc):
    # any command that execs its arguments works as a prefix (ssh HOST does the same over the network)
    c = TraceClient(WorkerConfig(launch_prefix=["env", "SHARPBITS_VIA_PREFIX=1"], cache_dir=jax_cache,
                                 warmup=False))
    try:
        r = doc.trace(c, "ok", "x=f32[4]", show=["jaxpr"])
        assert r["ok"], r.get("error")
    finally:
        c.stop()


def test_ssh_prefix_quotes_the_bootstrap():
    argv = WorkerConfig(interpreter="python3", launch_prefix=["ssh", "gpu-box"]).argv()
    assert argv[:2] == ["ssh", "gpu-box"] and len(argv) == 3
    import shlex

    assert shlex.split(argv[2])[:3] == ["python3", "-u", "-c"]


def test_background_start_and_status(jax_cache, doc):
    c = TraceClient(WorkerConfig(cache_dir=jax_cache, warmup=False))
    assert c.status()["state"] == "stopped"
    c.start(background=True)
    assert c.status()["state"] in ("starting", "ready")
    try:
        assert_next_trace_works(c, doc)
        st = c.status()
        assert st["state"] == "ready" and st["device"]["platform"] == "cpu" and st["jax"]
    finally:
        c.stop()
    assert c.status()["state"] == "stopped"


def test_spec_round_trip_through_worker_protocol(client, doc):
    r = client.trace(path=str(doc.path), function="ok", spec=parse_spec("f32[2]"), show=["jaxpr"])
    assert r["ok"] and r["protocol"] == protocol.VERSION


def test_ssh_style_prefix_end_to_end(tmp_path, jax_cache, doc):
    # a stand-in for `ssh HOST`: like ssh, it joins its arguments into one shell command line
    fake = tmp_path / "bin" / "ssh"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\nshift\nexec sh -c "$*"\n')
    fake.chmod(0o755)
    c = TraceClient(WorkerConfig(launch_prefix=[str(fake), "gpu-box"], cache_dir=jax_cache, warmup=False))
    try:
        r = doc.trace(c, "ok", "x=f32[4]", show=["jaxpr"])
        assert r["ok"], r.get("error")
    finally:
        c.stop()


def test_cancel_from_another_thread(client, doc):
    import threading

    out = {}
    ticket = Ticket()
    t = threading.Thread(target=lambda: out.update(r=doc.trace(client, "hang", "x=f32[4]", show=["jaxpr"],
                                                                marker=ticket)))
    t.start()
    assert ticket.acked.wait(60)  # the worker read the request: the endless loop runs (or is about to)
    assert client.status()["state"] == "busy"
    assert client.cancel()
    t.join(30)
    assert out["r"]["error"]["type"] == "Cancelled"
    assert not client.cancel()  # nothing in flight now
    assert_next_trace_works(client, doc)


def test_cancel_one_request_leaves_the_other(client, doc):
    import threading

    running, queued, out = Ticket(), Ticket(), {}

    def go(name, function, marker):
        out[name] = client.trace(path=str(doc.path), text=doc.text, function=function,
                                 spec=parse_spec("x=f32[4]"), show=["jaxpr"], marker=marker)

    a = threading.Thread(target=go, args=("a", "hang", running))
    a.start()
    assert running.acked.wait(60)  # the worker runs the endless loop: everything else waits behind it
    b = threading.Thread(target=go, args=("b", "ok", queued))
    b.start()
    assert queued.queued.wait(30)
    assert client.cancel(queued)  # still waiting for the worker: it never runs
    assert client.cancel(running)
    a.join(30)
    b.join(30)
    assert out["a"]["error"]["type"] == "Cancelled" and out["b"]["error"]["type"] == "Cancelled"
    assert "before it started" in out["b"]["error"]["message"]
    assert not queued.acked.is_set()  # the worker never saw it
    assert_next_trace_works(client, doc)
