"""Server side of tracing: start the worker in the user's interpreter, send traces, survive whatever user code does.

No jax here. The worker's source is shipped over stdin to a bootstrap one-liner, so the worker runs in any
interpreter that has NumPy and JAX (even on another host, behind a launch prefix such as `ssh gpu-box`) and nothing
is written anywhere: not into the workspace, not into the user's site-packages.

Faults become results: a trace over its time limit is killed (the whole process group) and the worker restarted;
a worker that dies (os._exit, a segfault, an abort, out of memory) yields an error naming the signal or exit code
and the last line in the document that faulthandler saw; the next trace starts a fresh worker.
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sharpbits.trace import protocol

WORKER_SOURCE = Path(__file__).with_name("worker.py")

# Reads the worker's source (a decimal length line, then the bytes) from fd 0 unbuffered, so everything after it on
# stdin stays for the protocol. No single quotes: it survives shlex.quote for ssh-style prefixes.
# Its first line takes the working directory ("", which `-c` puts first on sys.path) off sys.path before anything
# is imported, so the worker's own `import json` can never pick up a json.py from wherever it was started (the
# shared temp folder used to be that place). Each trace then puts the project root and the document's folder on
# sys.path itself.
BOOTSTRAP = (
    "import sys\n"
    "sys.path[:]=[p for p in sys.path if p]\n"
    "import os\n"
    "h=b''\n"
    "while not h.endswith(b'\\n'):\n"
    " c=os.read(0,1)\n"
    " if not c:raise SystemExit(3)\n"
    " h+=c\n"
    "n=int(h);s=b''\n"
    "while len(s)<n:\n"
    " c=os.read(0,n-len(s))\n"
    " if not c:raise SystemExit(3)\n"
    " s+=c\n"
    "exec(compile(s,'<sharpbits-trace-worker>','exec'),{'__name__':'__sharpbits_worker__'})\n"
)

PLATFORMS = ("auto", "cpu", "gpu", "cuda", "rocm", "tpu")


def default_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "sharpbits", "jax-cache")


@dataclass
class WorkerConfig:
    interpreter: str = field(default_factory=lambda: sys.executable)
    platform: str = "auto"
    launch_prefix: list[str] = field(default_factory=list)
    cache_dir: str | None = field(default_factory=lambda: os.environ.get("SHARPBITS_JAX_CACHE") or default_cache_dir())
    # the worker's memory limit in MiB (RLIMIT_DATA, set by the worker itself, so also behind a launch prefix):
    # None: half the physical memory of the worker's host; 0: no limit
    memory_limit_mb: int | None = None
    cwd: str | None = None  # the worker's working directory (the project root); None: the home folder
    warmup: bool = True
    start_timeout_s: float = 180.0
    env: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def from_settings(settings: dict[str, Any], cwd: str | None = None) -> WorkerConfig:
        """From the editor's `trace` settings: interpreter, platform, launchPrefix, cacheDir, memoryLimitMb."""
        prefix = settings.get("launchPrefix") or []
        if isinstance(prefix, str):
            prefix = shlex.split(prefix)
        cfg = WorkerConfig(interpreter=settings.get("interpreter") or sys.executable,
                           platform=settings.get("platform") or "auto", launch_prefix=list(prefix), cwd=cwd)
        if settings.get("cacheDir"):
            cfg.cache_dir = os.path.expanduser(settings["cacheDir"])
        limit = settings.get("memoryLimitMb")
        if isinstance(limit, int | float) and not isinstance(limit, bool) and limit >= 0:
            cfg.memory_limit_mb = int(limit)
        return cfg

    def argv(self) -> list[str]:
        cmd = [self.interpreter, "-u", "-c", BOOTSTRAP]
        if not self.launch_prefix:
            return cmd
        # ssh (and similar) join their arguments into one remote shell command: quote ours
        if os.path.basename(self.launch_prefix[0]) in ("ssh", "autossh", "gcloud"):
            return [*self.launch_prefix, " ".join(shlex.quote(c) for c in cmd)]
        return [*self.launch_prefix, *cmd]


def _worker_cwd(cwd: str | None) -> str:
    """The project root when there is one, else the home folder: never the shared temp folder."""
    return cwd if cwd and os.path.isdir(cwd) else os.path.expanduser("~")


class WorkerError(Exception):
    """The worker could not be started or died: carries an error dict for the result."""

    def __init__(self, error: dict[str, Any]):
        super().__init__(error.get("message", "worker error"))
        self.error = error


class _Process:
    """One running worker process and its reader threads."""

    def __init__(self, config: WorkerConfig):
        self.config = config
        env = dict(os.environ)
        env.update(config.env)
        env.setdefault("PYTHONUNBUFFERED", "1")
        env.pop("PYTHONSTARTUP", None)
        # TF/XLA chatter on start-up goes to stderr, which is only a log
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
        self.started = time.monotonic()
        try:
            self.popen = subprocess.Popen(
                config.argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=_worker_cwd(config.cwd), env=env, start_new_session=True, bufsize=0,
            )
        except OSError as exc:
            raise WorkerError({"type": "WorkerStartError", "phase": "start",
                               "message": f"cannot run the trace worker's interpreter {config.argv()[0]!r}: "
                                          f"{exc.strerror or exc}"}) from None
        self.eof_at: float | None = None
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=400)
        self.frames: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.hello: dict[str, Any] | None = None
        self.cancelled = False
        self.start_error: dict[str, Any] | None = None
        self.hello_lock = threading.Lock()
        threading.Thread(target=self._read_stdout, daemon=True, name="sharpbits-worker-out").start()
        threading.Thread(target=self._read_stderr, daemon=True, name="sharpbits-worker-err").start()
        source = WORKER_SOURCE.read_bytes()
        try:
            assert self.popen.stdin is not None
            self.popen.stdin.write(f"{len(source)}\n".encode() + source)
            protocol.write_frame(self.popen.stdin, {
                "type": "config", "platform": config.platform, "cache_dir": config.cache_dir,
                "memory_limit_mb": config.memory_limit_mb, "warmup": config.warmup,
            })
        except OSError:
            pass  # it died at once (bad interpreter path, ...): the reader sees EOF and we report the exit

    def _read_stdout(self) -> None:
        assert self.popen.stdout is not None
        try:
            while True:
                msg = protocol.read_frame(self.popen.stdout)
                if msg is None:
                    break
                self.frames.put(msg)
        except (protocol.ProtocolError, OSError, ValueError) as exc:
            self.stderr_tail.append(f"[sharpbits] protocol error: {exc}")
        self.eof_at = time.monotonic()
        self.frames.put(None)

    def _read_stderr(self) -> None:
        assert self.popen.stderr is not None
        for raw in iter(self.popen.stderr.readline, b""):
            self.stderr_tail.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        # what the user's code started first (also processes that left the worker's session with setsid and so
        # escape killpg), then the worker and its process group
        from sharpbits.trace.worker import descendant_pids  # stdlib only: importing it imports no JAX

        for pid in descendant_pids(self.popen.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            with contextlib.suppress(OSError):
                self.popen.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        for s in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            try:
                if s is not None:
                    s.close()
            except OSError:
                pass

    def send(self, message: dict[str, Any]) -> None:
        assert self.popen.stdin is not None
        protocol.write_frame(self.popen.stdin, message)

    def where_is_it(self, path: str | None) -> int | None:
        """Ask a running worker for a stack dump (faulthandler on SIGUSR1): the document's innermost line."""
        if not path or self.config.launch_prefix or not self.alive():
            return None  # behind a prefix the pid is ssh's, not the worker's
        mark = len(self.stderr_tail)
        try:
            os.kill(self.popen.pid, signal.SIGUSR1)
        except OSError:
            return None
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:
            time.sleep(0.02)
            lines = list(self.stderr_tail)[mark:] if len(self.stderr_tail) >= mark else list(self.stderr_tail)
            line = _doc_line_in_dump(lines, path)
            if line is not None:
                return line
        return None

    def death_report(self, during: str, path: str | None = None) -> dict[str, Any]:
        try:
            code = self.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        tail = list(self.stderr_tail)[-40:]
        if code is not None and code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            how = f"was killed by {name}"
            if name == "SIGSEGV":
                how += " (a segmentation fault: native code crashed)"
            elif name == "SIGKILL":
                how += " (out of memory? the kernel's OOM killer sends SIGKILL)"
            elif name == "SIGABRT":
                how += " (an abort in native code, e.g. an out-of-memory allocation failure)"
        elif code is None:
            how = "stopped answering"
        else:
            how = f"exited with code {code}"
            if code == 0 or during == "trace":
                how += " (the traced code called os._exit or a C-level exit)"
        error: dict[str, Any] = {"type": "WorkerCrashed", "phase": during, "exit_code": code,
                                 "message": f"the trace worker {how} during {during}; it will be restarted",
                                 "stderr_tail": "\n".join(tail)}
        if path:  # faulthandler's dump names the line of the document that was running
            line = _doc_line_in_dump(tail, path)
            if line is not None:
                error["line"] = line
        return error


def _doc_line_in_dump(lines: list[str], path: str) -> int | None:
    """The innermost frame of the document in a faulthandler dump (it prints the most recent call first)."""
    import re

    for ln in lines:
        m = re.search(r'File "(.+?)", line (\d+)', ln)
        if m and os.path.abspath(m.group(1)) == os.path.abspath(path):
            return int(m.group(2))
    return None


class TraceClient:
    """A long-lived worker behind a lock. Thread-safe; every call returns data rather than raising."""

    def __init__(self, config: WorkerConfig | None = None):
        self.config = config or WorkerConfig()
        self._lock = threading.RLock()
        self._proc: _Process | None = None
        self._start_error: dict[str, Any] | None = None
        self._next_id = 0
        self._starting: threading.Thread | None = None
        self._current: object | None = None  # the marker of the request in flight
        self._queued: set[object] = set()
        self._cancelled: set[object] = set()
        self.restarts = 0

    # ---------------------------------------------------------------------------- lifecycle

    def start(self, background: bool = True) -> None:
        """Spawn the worker (and `import jax` there) now; in the background, the first trace only waits the rest."""
        with self._lock:
            if self._proc is not None and self._proc.alive():
                return
            self._proc = None
            try:
                self._proc = _Process(self.config)
            except WorkerError as exc:
                self._start_error = exc.error
                if background:
                    return
                raise
            self._start_error = None
        if background:
            t = threading.Thread(target=self._await_hello_quietly, daemon=True, name="sharpbits-worker-start")
            self._starting = t
            t.start()
        else:
            self._await_hello()

    def _await_hello_quietly(self) -> None:
        with contextlib.suppress(WorkerError):
            self._await_hello()

    def _await_hello(self) -> dict[str, Any]:
        proc = self._proc
        if proc is None:
            raise WorkerError({"type": "WorkerStartError", "message": "the worker is not running"})
        with proc.hello_lock:  # one reader of the hello frame; everyone else sees its outcome
            if proc.hello is not None:
                return proc.hello
            if proc.start_error is not None:
                raise WorkerError(proc.start_error)
            try:
                return self._read_hello(proc)
            except WorkerError as exc:
                proc.start_error = exc.error
                self._start_error = exc.error
                raise

    def _read_hello(self, proc: _Process) -> dict[str, Any]:
        try:
            msg = proc.frames.get(timeout=self.config.start_timeout_s)
        except queue.Empty:
            proc.kill()
            raise WorkerError({
                "type": "WorkerStartError", "phase": "start",
                "message": f"the trace worker did not start within {self.config.start_timeout_s:.0f} s "
                           f"({' '.join(self.config.argv()[:-1])} ...)"}) from None
        if msg is None:
            err = proc.death_report("start-up")
            err["type"] = "WorkerStartError"
            tail = [ln for ln in err.get("stderr_tail", "").strip().splitlines() if ln.strip()]
            last = tail[-1] if tail else ""
            via = f" via {' '.join(self.config.launch_prefix)}" if self.config.launch_prefix else ""
            err["message"] = (f"could not start the trace worker with {self.config.interpreter!r}{via}: "
                              f"{last or err['message']}")
            raise WorkerError(err)
        if msg.get("type") != "hello" or msg.get("protocol") != protocol.VERSION:
            proc.kill()
            raise WorkerError({
                "type": "WorkerStartError", "phase": "start",
                "message": f"the worker speaks protocol {msg.get('protocol')!r}, expected {protocol.VERSION}"})
        if not msg.get("ok"):
            proc.kill()
            e = msg.get("error") or {}
            raise WorkerError({
                "type": "WorkerStartError", "phase": e.get("phase", "start"), "cause": e.get("type"),
                "message": f"{e.get('hint') or 'the worker could not start'} ({e.get('type')}: {e.get('message')})"})
        proc.hello = msg
        return msg

    def ensure_ready(self) -> dict[str, Any]:
        with self._lock:
            proc = self._proc
            if proc is None or proc.start_error is not None or (
                proc.hello is not None and (not proc.alive() or proc.eof_at is not None)
            ):
                if proc is not None:
                    proc.kill()
                self._proc = None
                self.start(background=False)
                assert self._proc is not None
                return self._proc.hello or {}
            return self._await_hello()

    def stop(self) -> None:
        with self._lock:
            proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            proc.send({"type": "shutdown"})
            proc.popen.wait(timeout=3)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            pass
        proc.kill()

    def restart(self, background: bool = True) -> None:
        with self._lock:
            if self._proc is not None:
                self._proc.kill()
            self._proc = None
            self.restarts += 1
            self.start(background=background)

    def status(self) -> dict[str, Any]:
        proc = self._proc
        state = "stopped"
        out: dict[str, Any] = {"interpreter": self.config.interpreter, "platform": self.config.platform,
                               "launch_prefix": self.config.launch_prefix, "restarts": self.restarts}
        if proc is not None:
            if proc.start_error is not None:
                state = "failed"
            elif proc.hello is None:
                state = "starting" if proc.alive() else "failed"
            elif proc.hello.get("ok") and proc.alive():
                state = "ready"
                out.update(pid=proc.hello.get("pid"), jax=proc.hello.get("jax"), device=proc.hello.get("device"),
                           python=proc.hello.get("python"), ready_s=proc.hello.get("ready_s"),
                           memory_limit=proc.hello.get("memory_limit"))
            else:
                state = "failed"
        if self._start_error and state in ("failed", "stopped"):
            out["error"] = self._start_error
        out["state"] = state
        return out

    # ---------------------------------------------------------------------------- requests

    def request(self, message: dict[str, Any], timeout: float | None, path: str | None = None,
                marker: object | None = None) -> dict[str, Any]:
        """Send one request, wait for its reply. Time limit and crashes -> an error reply; the worker is restarted.

        A worker that died while idle (killed, OOM) is not the request's fault: that request is sent again once."""
        marker = marker if marker is not None else object()
        self._queued.add(marker)
        try:
            with self._lock:
                if marker in self._cancelled:
                    return {"ok": False, "error": {"type": "Cancelled", "phase": message.get("type"),
                                                   "message": "the trace was cancelled before it started"}}
                self._current = marker
                try:
                    reply = self._request_once(message, timeout, path)
                    if reply.get("_died_idle"):
                        reply = self._request_once(message, timeout, path)
                finally:
                    self._current = None
        finally:
            self._queued.discard(marker)
            self._cancelled.discard(marker)
        reply.pop("_died_idle", None)
        return reply

    def _request_once(self, message: dict[str, Any], timeout: float | None, path: str | None) -> dict[str, Any]:
        with self._lock:
            try:
                hello = self.ensure_ready()
            except WorkerError as exc:
                return {"ok": False, "error": exc.error}
            proc = self._proc
            assert proc is not None
            self._next_id += 1
            rid = self._next_id
            message = dict(message, id=rid)
            t0 = time.perf_counter()
            try:
                proc.send(message)
            except OSError:
                err = proc.death_report("the request", path)
                self.restart()
                return {"ok": False, "error": err}
            deadline = None if timeout is None else time.monotonic() + timeout
            acked = False
            while True:
                remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
                try:
                    reply = proc.frames.get(timeout=remaining)
                except queue.Empty:
                    line = proc.where_is_it(path)
                    proc.kill()
                    self.restart()
                    at = f" (it was running line {line})" if line else ""
                    error = {"type": "Timeout", "phase": message.get("type"),
                             "message": f"the trace did not finish within {timeout:g} s{at}: the worker was stopped "
                                        "and restarted (raise the limit with --timeout)"}
                    if line:
                        error["line"] = line
                    return {"ok": False, "error": error}
                if reply is None:
                    if proc.cancelled:
                        self.restart()
                        return {"ok": False, "error": {"type": "Cancelled", "phase": message.get("type"),
                                                       "message": "the trace was cancelled; the worker restarts"}}
                    err = proc.death_report(message.get("type", "request"), path)
                    self.restart()
                    # no ack: it died before reading the request (killed while idle), so sending it again is safe
                    return {"ok": False, "error": err, "_died_idle": not acked}
                if reply.get("type") == "ack":
                    acked = acked or reply.get("id") == rid
                    continue
                if reply.get("id") == rid:
                    reply["round_trip_s"] = time.perf_counter() - t0
                    reply["worker"] = {"pid": hello.get("pid"), "jax": hello.get("jax"),
                                       "python": hello.get("python")}
                    reply["device"] = hello.get("device")
                    return reply

    def cancel(self, marker: object | None = None) -> bool:
        """Stop a request from another thread: its caller gets a `Cancelled` error. With a marker (passed to
        trace()), only that request: if it is still queued it never runs; if it is running the worker is
        killed and a fresh one starts. Returns whether something was cancelled."""
        if marker is not None and marker is not self._current:
            if marker in self._queued:
                self._cancelled.add(marker)
                return True
            return False
        proc = self._proc
        if proc is None or self._current is None:
            return False
        proc.cancelled = True
        proc.kill()
        return True

    def ping(self, timeout: float = 10.0) -> dict[str, Any]:
        return self.request({"type": "ping"}, timeout)

    def trace(self, *, path: str, text: str | None = None, function: str, spec: dict[str, Any] | None,
              show: list[str] | None = None, timeout: float | None = 60.0, root: str | None = None,
              time_budget_s: float = 1.0, eager: bool = True, lower_for: str | None = None,
              postprocess: bool = True, marker: object | None = None,
              cells: list[protocol.CellRange] | None = None) -> dict[str, Any]:
        """Trace `function` of the document at `path` (its text as the editor has it). Returns the result dict.
        `cells`: `text` is a notebook's program, made of these cells (see protocol.TraceRequest)."""
        path = os.path.abspath(path)
        if text is None:
            text = Path(path).read_text(encoding="utf-8")
        msg = {"type": "trace", "path": path, "text": text, "function": function, "spec": spec,
               "show": list(show) if show else None, "root": root, "cwd": root or os.path.dirname(path),
               "time_budget_s": time_budget_s, "eager": eager, "lower_for": lower_for, "cells": cells}
        reply = self.request(msg, timeout, path, marker)
        return finish_result(reply, path) if postprocess else reply


def finish_result(reply: dict[str, Any], path: str) -> dict[str, Any]:
    """Turn the worker's raw texts into text + source maps (done here so the worker stays small)."""
    from sharpbits.trace import sourcemap

    shlo = reply.get("stablehlo")
    if isinstance(shlo, dict) and "debug_text" in shlo:
        mapped = sourcemap.map_stablehlo(shlo.pop("debug_text"), path)
        mapped.update(shlo)  # lowered_for
        reply["stablehlo"] = mapped
    hlo = reply.get("hlo")
    if isinstance(hlo, dict) and "text" in hlo and "ops" not in hlo:
        reply["hlo"] = sourcemap.map_hlo(hlo["text"], path)
    measured_peak = reply.pop("measured_peak", None)
    from sharpbits.trace.roofline import roofline

    line = roofline(reply, measured_peak)  # type: ignore[arg-type]
    if line is not None:
        reply["roofline"] = line
    if "sharding" in reply and isinstance(reply.get("hlo"), dict):
        reply["collectives"] = sourcemap.collectives(reply["hlo"])
    breakdown = compile_breakdown(reply)  # type: ignore[arg-type]
    if breakdown is not None:
        reply["compile"] = breakdown
    reply.setdefault("protocol", protocol.VERSION)
    reply.pop("id", None)
    reply.pop("type", None)
    return reply


TOP_LINES = 5


def compile_breakdown(result: protocol.TraceResult) -> protocol.CompileBreakdown | None:
    """Tracing, lowering and XLA compile times, and the source lines with the most jaxpr equations."""
    timings = result.get("timings") or {}
    if "trace_s" not in timings:
        return None
    out: protocol.CompileBreakdown = {"trace_s": timings["trace_s"]}
    if "lower_s" in timings:
        out["lower_s"] = timings["lower_s"]
    if "compile_s" in timings:
        out["compile_s"] = timings["compile_s"]
    if "compile_cache" in timings:
        out["cache"] = timings["compile_cache"]
    out["total_s"] = timings["trace_s"] + timings.get("lower_s", 0.0) + timings.get("compile_s", 0.0)
    equations = (result.get("jaxpr") or {}).get("equations")
    if equations is not None:
        by_line: dict[int, dict[str, int]] = {}
        for eqn in equations:
            line = eqn.get("line")
            if isinstance(line, int):
                prims = by_line.setdefault(line, {})
                prims[eqn["primitive"]] = prims.get(eqn["primitive"], 0) + 1
        out["equations"] = len(equations)
        ranked = sorted(by_line.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))[:TOP_LINES]
        out["top_lines"] = [{"line": line, "equations": sum(prims.values()),
                             "primitives": dict(sorted(prims.items(), key=lambda kv: -kv[1]))}
                            for line, prims in ranked]
    return out
