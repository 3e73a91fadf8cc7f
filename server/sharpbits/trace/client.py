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
from typing import Any, Literal, cast

from sharpbits.trace import protocol

WORKER_SOURCE = Path(__file__).with_name("worker.py")
PROTOCOL_SOURCE = Path(__file__).with_name("protocol.py")
# What the bootstrap runs, in order, as modules of these names: the worker imports the protocol's records from the
# first (worker.py's own header explains how it finds it), and the second's import is the worker's main loop.
SHIPPED = (("__sharpbits_protocol__", PROTOCOL_SOURCE), ("__sharpbits_worker__", WORKER_SOURCE))

# Reads modules from fd 0 unbuffered (each: a line `NAME LENGTH`, then LENGTH bytes of source) and runs each as the
# module NAME; the last one (the worker) never returns, so everything after it on stdin stays for the protocol.
# Its first line takes the working directory ("", which `-c` puts first on sys.path) off sys.path before anything
# is imported, so the worker's own `import json` can never pick up a json.py from wherever it was started (the
# shared temp folder used to be that place). Each trace then puts the project root and the document's folder on
# sys.path itself. No single quotes: it survives shlex.quote unchanged for ssh-style prefixes. Its first line is a
# comment that names it: a worker is the process whose command line holds BOOTSTRAP_MARK.
BOOTSTRAP_MARK = "# sharpbits trace worker"
BOOTSTRAP = (
    f"{BOOTSTRAP_MARK}\n"
    "import sys\n"
    "sys.path[:]=[p for p in sys.path if p]\n"
    "import os,types\n"
    "def r(n):\n"
    " s=b\"\"\n"
    " while len(s)<n:\n"
    "  c=os.read(0,n-len(s))\n"
    "  if not c:raise SystemExit(3)\n"
    "  s+=c\n"
    " return s\n"
    "while 1:\n"
    " h=b\"\"\n"
    " while not h.endswith(b\"\\n\"):h+=r(1)\n"
    " n,k=h.split()\n"
    " m=types.ModuleType(n.decode())\n"
    " sys.modules[m.__name__]=m\n"
    " exec(compile(r(int(k)),\"<\"+m.__name__+\">\",\"exec\"),m.__dict__)\n"
)


def shipped_source() -> bytes:
    """What the client writes to the bootstrap: the protocol module, then the worker."""
    out = b""
    for name, path in SHIPPED:
        source = path.read_bytes()
        out += f"{name} {len(source)}\n".encode() + source
    return out


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
    """The worker could not be started, died, ran out of time, was cancelled or spoke another protocol version:
    carries the ErrorInfo the caller's result says."""

    def __init__(self, error: protocol.ErrorInfo, died_idle: bool = False):
        super().__init__(error.get("message", "worker error"))
        self.error = error
        self.died_idle = died_idle  # it died before acking the request: sending it again is safe


class Ticket:
    """One request to the worker. Pass it to trace() to cancel just that request later (cancel(ticket)); its
    events say how far the request got, for whoever waits on it."""

    def __init__(self) -> None:
        self.queued = threading.Event()  # handed to the client (it may wait behind another request)
        self.acked = threading.Event()  # the worker read it: the traced code is running


@dataclass
class _Answer:
    """A worker's result to one request, the hello of the worker that answered, and the send-to-result time."""

    result: protocol.WorkerResult
    hello: protocol.Hello
    round_trip_s: float


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
        try:
            self.popen = subprocess.Popen(
                config.argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=_worker_cwd(config.cwd), env=env, start_new_session=True, bufsize=0,
            )
        except OSError as exc:
            raise WorkerError(protocol.client_error(
                "WorkerStartError", f"cannot run the trace worker's interpreter {config.argv()[0]!r}: "
                                    f"{exc.strerror or exc}", "start")) from None
        self.eof_at: float | None = None
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=400)
        # raw frames: JSON objects, checked against the records where they are read (_read_hello, _exchange)
        self.frames: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.hello: protocol.Hello | None = None
        self.cancelled = False
        self.start_error: protocol.ErrorInfo | None = None
        self.hello_lock = threading.Lock()
        threading.Thread(target=self._read_stdout, daemon=True, name="sharpbits-worker-out").start()
        threading.Thread(target=self._read_stderr, daemon=True, name="sharpbits-worker-err").start()
        start: protocol.ConfigMessage = {"type": "config", "platform": config.platform, "cache_dir": config.cache_dir,
                                         "memory_limit_mb": config.memory_limit_mb, "warmup": config.warmup}
        try:
            assert self.popen.stdin is not None
            self.popen.stdin.write(shipped_source())
            protocol.write_frame(self.popen.stdin, start)
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

    def send(self, message: protocol.TraceRequest | protocol.PingRequest | protocol.ShutdownRequest) -> None:
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

    def death_report(self, during: str, path: str | None = None) -> protocol.ErrorInfo:
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
        error = protocol.client_error("WorkerCrashed", f"the trace worker {how} during {during}; it will be restarted",
                                      during)
        error["exit_code"] = code
        error["stderr_tail"] = "\n".join(tail)
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


def _mismatch(said: object, what: str, phase: str) -> protocol.ErrorInfo:
    return protocol.client_error(
        "ProtocolMismatch",
        f"the trace worker's {what} speaks protocol {said!r}, this server speaks {protocol.VERSION}: sharpbits was "
        "updated on disk while the server ran (restart the language server, or rerun the command)", phase)


class TraceClient:
    """A long-lived worker behind a lock. Thread-safe; trace(), ping() and status() return records, never raise."""

    def __init__(self, config: WorkerConfig | None = None):
        self.config = config or WorkerConfig()
        self._lock = threading.RLock()
        self._proc: _Process | None = None
        self._start_error: protocol.ErrorInfo | None = None
        self._next_id = 0
        self._current: object | None = None  # the marker of the request in flight
        self._busy = False  # the request in flight was acked: the worker is running it
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
            threading.Thread(target=self._await_hello_quietly, daemon=True, name="sharpbits-worker-start").start()
        else:
            self._await_hello()

    def _await_hello_quietly(self) -> None:
        with contextlib.suppress(WorkerError):
            self._await_hello()

    def _await_hello(self) -> protocol.Hello:
        proc = self._proc
        if proc is None:
            raise WorkerError(protocol.client_error("WorkerStartError", "the worker is not running"))
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

    def _read_hello(self, proc: _Process) -> protocol.Hello:
        try:
            msg = proc.frames.get(timeout=self.config.start_timeout_s)
        except queue.Empty:
            proc.kill()
            raise WorkerError(protocol.client_error(
                "WorkerStartError", f"the trace worker did not start within {self.config.start_timeout_s:.0f} s "
                                    f"({' '.join(self.config.argv()[:-1])} ...)", "start")) from None
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
            raise WorkerError(_mismatch(msg.get("protocol"), "first message", "start"))
        hello = cast(protocol.Hello, msg)
        if not hello.get("ok"):
            proc.kill()
            e = hello.get("error") or {}
            error = protocol.client_error(
                "WorkerStartError", f"{e.get('hint') or 'the worker could not start'} ({e.get('type')}: "
                                    f"{e.get('message')})", e.get("phase", "start"))
            if e.get("type"):
                error["cause"] = e["type"]
            raise WorkerError(error)
        proc.hello = hello
        return hello

    def ensure_ready(self) -> protocol.Hello:
        with self._lock:
            proc = self._proc
            if proc is None or proc.start_error is not None or (
                proc.hello is not None and (not proc.alive() or proc.eof_at is not None)
            ):
                if proc is not None:
                    proc.kill()
                self._proc = None
                self.start(background=False)
                assert self._proc is not None and self._proc.hello is not None
                return self._proc.hello
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

    def status(self) -> protocol.WorkerStatus:
        proc = self._proc
        out: protocol.WorkerStatus = {"interpreter": self.config.interpreter, "platform": self.config.platform,
                                      "launch_prefix": self.config.launch_prefix, "restarts": self.restarts}
        state: Literal["stopped", "starting", "ready", "busy", "failed"] = "stopped"
        if proc is not None:
            if proc.start_error is not None:
                state = "failed"
            elif proc.hello is None:
                state = "starting" if proc.alive() else "failed"
            elif proc.hello.get("ok") and proc.alive():
                state = "busy" if self._busy else "ready"
                for name in ("pid", "jax", "device", "python", "ready_s", "memory_limit"):  # what the hello told
                    if name in proc.hello:
                        out[name] = proc.hello[name]
            else:
                state = "failed"
        if self._start_error and state in ("failed", "stopped"):
            out["error"] = self._start_error
        out["state"] = state
        return out

    # ---------------------------------------------------------------------------- requests

    def _request(self, message: protocol.TraceRequest | protocol.PingRequest, timeout: float | None,
                 path: str | None = None, marker: object | None = None) -> _Answer:
        """Send one request, wait for its result (and the hello of the worker that answered it). Time limit,
        crash, cancel -> WorkerError; the worker is restarted. A worker that died while idle (killed, OOM) is not
        the request's fault: that request is sent again once."""
        marker = marker if marker is not None else object()
        self._queued.add(marker)
        if isinstance(marker, Ticket):
            marker.queued.set()
        try:
            with self._lock:
                if marker in self._cancelled:
                    raise WorkerError(protocol.client_error(
                        "Cancelled", "the trace was cancelled before it started", message["type"]))
                self._current = marker
                try:
                    try:
                        return self._exchange(message, timeout, path, marker)
                    except WorkerError as exc:
                        if not exc.died_idle:
                            raise
                    return self._exchange(message, timeout, path, marker)
                finally:
                    self._current = None
                    self._busy = False
        finally:
            self._queued.discard(marker)
            self._cancelled.discard(marker)

    def _exchange(self, message: protocol.TraceRequest | protocol.PingRequest, timeout: float | None,
                  path: str | None, marker: object) -> _Answer:
        with self._lock:
            hello = self.ensure_ready()
            proc = self._proc
            assert proc is not None
            self._next_id += 1
            rid = self._next_id
            message["id"] = rid
            kind = message["type"]
            t0 = time.perf_counter()
            try:
                proc.send(message)
            except OSError:  # it died after ensure_ready saw it alive (killed while idle): the request never
                # reached it, so sending it again to a fresh worker is safe
                err = proc.death_report("the request", path)
                self.restart()
                raise WorkerError(err, died_idle=True) from None
            deadline = None if timeout is None else time.monotonic() + timeout
            acked = False
            while True:
                remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
                try:
                    frame = proc.frames.get(timeout=remaining)
                except queue.Empty:
                    line = proc.where_is_it(path)
                    proc.kill()
                    self.restart()
                    at = f" (it was running line {line})" if line else ""
                    error = protocol.client_error(
                        "Timeout", f"the trace did not finish within {timeout:g} s{at}: the worker was stopped "
                                   "and restarted (raise the limit with --timeout)", kind)
                    if line:
                        error["line"] = line
                    raise WorkerError(error) from None
                if frame is None:
                    if proc.cancelled:
                        self.restart()
                        raise WorkerError(protocol.client_error(
                            "Cancelled", "the trace was cancelled; the worker restarts", kind))
                    err = proc.death_report(kind, path)
                    self.restart()
                    # no ack: it died before reading the request (killed while idle), so sending it again is safe
                    raise WorkerError(err, died_idle=not acked)
                if frame.get("type") == "ack":
                    if frame.get("id") == rid and not acked:
                        acked = self._busy = True
                        if isinstance(marker, Ticket):
                            marker.acked.set()
                    continue
                if frame.get("id") != rid:
                    continue
                if frame.get("type") != "result" or frame.get("protocol") != protocol.VERSION:
                    proc.kill()
                    self.restart()
                    raise WorkerError(_mismatch(frame.get("protocol"), "result", kind))
                return _Answer(cast(protocol.WorkerResult, frame), hello, time.perf_counter() - t0)

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

    def ping(self, timeout: float = 10.0) -> protocol.PingResult:
        try:
            answer = self._request({"type": "ping", "id": 0}, timeout)
        except WorkerError as exc:
            return {"ok": False, "error": exc.error}
        out: protocol.PingResult = {"ok": bool(answer.result.get("ok")), "round_trip_s": answer.round_trip_s}
        if "pid" in answer.result:
            out["pid"] = answer.result["pid"]
        return out

    def trace(self, *, path: str, text: str | None = None, function: str, spec: dict[str, Any] | None,
              show: list[str] | None = None, timeout: float | None = 60.0, root: str | None = None,
              time_budget_s: float = 1.0, eager: bool = True, lower_for: str | None = None,
              marker: object | None = None, cells: list[protocol.CellRange] | None = None,
              check_key_reuse: bool = True) -> protocol.TraceResult:
        """Trace `function` of the document at `path` (its text as the editor has it). Never raises: a failure is
        a result with ok false and its ErrorInfo (CLIENT_ERRORS or the traced code's exception). `marker`: an
        object (a Ticket to follow it) to cancel this request with. `cells`: `text` is a notebook's program, made
        of these cells (see protocol.TraceRequest). `check_key_reuse`: trace under jax.debug_key_reuse; a reused
        key comes back in the result's `findings` (the trace goes on without the check)."""
        path = os.path.abspath(path)
        if text is None:
            text = Path(path).read_text(encoding="utf-8")
        msg: protocol.TraceRequest = {
            "type": "trace", "id": 0, "path": path, "text": text, "function": function, "spec": spec,
            "show": cast("list[protocol.View]", list(show)) if show else None, "root": root,
            "cwd": root or os.path.dirname(path), "time_budget_s": time_budget_s, "eager": eager,
            "lower_for": lower_for, "cells": cells, "check_key_reuse": check_key_reuse}
        try:
            answer = self._request(msg, timeout, path, marker)
        except WorkerError as exc:
            return {"ok": False, "error": exc.error}
        return to_result(answer.result, path, answer.hello, answer.round_trip_s)


# What a WorkerResult carries that TraceResult has too (the records the worker fills itself); the rest of the
# WorkerResult is what to_result derives the rest from, or the frame's own envelope.
SHARED_FIELDS = (frozenset(protocol.WorkerResult.__required_keys__ | protocol.WorkerResult.__optional_keys__)
                 & frozenset(protocol.TraceResult.__required_keys__ | protocol.TraceResult.__optional_keys__)
                 - {"protocol"})


def to_result(reply: protocol.WorkerResult, path: str, hello: protocol.Hello, round_trip_s: float) -> protocol.TraceResult:
    """The TraceResult of a worker's result: its records as they are, plus what is derived here so that the worker
    stays small (StableHLO and HLO texts mapped to the document's lines, the roofline, the collectives, the
    compile breakdown) and what the client knows (the worker, its device, the round trip)."""
    from sharpbits.trace import sourcemap
    from sharpbits.trace.roofline import roofline

    result = cast(protocol.TraceResult, {k: v for k, v in reply.items() if k in SHARED_FIELDS})
    result["protocol"] = protocol.VERSION
    result["round_trip_s"] = round_trip_s
    worker: protocol.WorkerInfo = {}
    if "pid" in hello:
        worker["pid"] = hello["pid"]
    if "jax" in hello:
        worker["jax"] = hello["jax"]
    if "python" in hello:
        worker["python"] = hello["python"]
    result["worker"] = worker
    if "device" in hello:
        result["device"] = hello["device"]
    if "stablehlo_debug_text" in reply:
        stablehlo = sourcemap.map_stablehlo(reply["stablehlo_debug_text"], path)
        if "lowered_for" in reply:
            stablehlo["lowered_for"] = reply["lowered_for"]
        result["stablehlo"] = stablehlo
    if "hlo_text" in reply:
        result["hlo"] = sourcemap.map_hlo(reply["hlo_text"], path)
    line = roofline(result, reply.get("measured_peak"))
    if line is not None:
        result["roofline"] = line
    if "sharding" in result and "hlo" in result:
        result["collectives"] = sourcemap.collectives(result["hlo"])
    breakdown = compile_breakdown(result)
    if breakdown is not None:
        result["compile"] = breakdown
    return result


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
    jaxpr = result.get("jaxpr") or {}
    if "eqns" in jaxpr:  # the one count, split over the traced function's lines as the inlay hints show it
        out["equations"] = jaxpr["eqns"]
        ranked = sorted(jaxpr.get("by_line") or [], key=lambda e: (-e["equations"], e["line"]))[:TOP_LINES]
        out["top_lines"] = [dict(e) for e in ranked]  # type: ignore[misc]
    return out
