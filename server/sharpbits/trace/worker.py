"""The sharpbits trace worker: runs in the user's interpreter (the one with their JAX), maybe on another host.

Standard library, NumPy and JAX only, never `import sharpbits` (the user's interpreter may have another version
of it, or none). The server sends protocol.py's source and then this file's over stdin to a tiny bootstrap
(`python -u -c BOOTSTRAP`, see client.py), which runs them as the modules `__sharpbits_protocol__` and
`__sharpbits_worker__`; from then on both ends speak protocol.py's records over the same pipes: 4-byte big-endian
length + UTF-8 JSON, requests on stdin, replies on a duplicate of the original stdout. Before any user code runs,
fd 0 becomes /dev/null and fds 1 and 2 point at a log (between requests) or a capture file (during a request), so
user prints, Python or C level, never reach the protocol channel; they come back in the result's "stdout".

Also runnable as a script for debugging: `python worker.py` (protocol.py beside it) reads the same frames from
stdin. The server's own process imports it too (`descendant_pids`), as sharpbits.trace.worker.
"""

import contextlib
import ctypes
import faulthandler
import inspect
import json
import linecache
import logging
import math
import os
import re
import signal
import sys
import tempfile
import time
import traceback
import types
from typing import TYPE_CHECKING

PROTOCOL_MODULE = "__sharpbits_protocol__"  # the name the bootstrap (or a script run) gives protocol.py


def _protocol_beside_this_file():
    """protocol.py from this file's folder (`python worker.py`), under the name the bootstrap would give it."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "protocol.py")
    spec = importlib.util.spec_from_file_location(PROTOCOL_MODULE, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[PROTOCOL_MODULE] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING or globals().get("__package__"):  # imported as sharpbits.trace.worker: its sibling module
    from . import protocol
else:  # shipped by the client (the bootstrap ran protocol.py first) or run as a script
    protocol = sys.modules.get(PROTOCOL_MODULE) or _protocol_beside_this_file()

WORKER_FILE = "<__sharpbits_worker__>"  # the bootstrap's file name for this source (kept out of JAX's locations)
MAX_CAPTURE = 256 * 1024
MODULE_NAME = "__sharpbits_trace__"  # not "__main__": the document's `if __name__ == "__main__":` block stays off
_MAIN_GUARD = re.compile(r"""^if\s+__name__\s*==\s*["']__main__["']\s*:""", re.M)


# ------------------------------------------------------------------------------------------------ framing


def write_frame(stream, message):
    protocol.write_frame(stream, message, default=_json_default)


def _json_default(o):
    try:
        import numpy as np

        if isinstance(o, np.generic):
            return o.item()
    except Exception:
        pass
    return str(o)


def read_frame(stream):
    """The next request, or None when the server closed the channel (also mid-frame: it is gone either way)."""
    try:
        return protocol.read_frame(stream)
    except protocol.ProtocolError:
        return None


# ------------------------------------------------------------------------------------------------ capture


# custom-call targets of matrix products and convolutions XLA hands to a library (cost analysis: 0 flops)
LIBRARY_PRODUCT_CALLS = ('"__cublas$', '"__cudnn$')


class Capture:
    """Points fds 1 and 2 (and sys.stdout/err) at a temporary file (outside any workspace) for one request."""

    def __init__(self):
        self.text = ""
        self.data = b""

    def offset(self):
        """How many bytes were captured so far (fds 1 and 2 share the file's offset)."""
        _flush_std()
        try:
            return os.lseek(1, 0, os.SEEK_CUR)
        except OSError:
            return None

    def between(self, start, end):
        """What was captured between two offsets (after the capture ended)."""
        if start is None or end is None:
            return ""
        data = self.data[start:end]
        if len(data) > MAX_CAPTURE:
            data = data[: MAX_CAPTURE // 2] + b"\n...[output truncated]...\n" + data[-MAX_CAPTURE // 2 :]
        return data.decode("utf-8", "replace")

    def __enter__(self):
        self.file = tempfile.TemporaryFile(prefix="sharpbits-capture-")
        self.saved = (os.dup(1), os.dup(2))
        _flush_std()
        os.dup2(self.file.fileno(), 1)
        os.dup2(self.file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        _flush_std()
        os.dup2(self.saved[0], 1)
        os.dup2(self.saved[1], 2)
        os.close(self.saved[0])
        os.close(self.saved[1])
        self.file.seek(0)
        data = self.file.read()
        self.file.close()
        self.data = data
        if len(data) > MAX_CAPTURE:
            data = data[: MAX_CAPTURE // 2] + b"\n...[output truncated]...\n" + data[-MAX_CAPTURE // 2 :]
        self.text = data.decode("utf-8", "replace")
        return False


def _flush_std():
    for s in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            s.flush()
    with contextlib.suppress(Exception):
        ctypes.CDLL(None).fflush(None)  # C-level stdio buffers (printf from extensions)


# ------------------------------------------------------------------------------------------------ state


class Worker:
    def __init__(self, config):
        self.config = config
        self.jax = None
        self.np = None
        self.cache_log = []
        self.log_cutoff = None
        self._cpu_peak = None

    # ---------------------------------------------------------------------------- start-up

    def start(self) -> "protocol.Hello":
        """Import jax for the configured platform. Returns the hello message."""
        platform = (self.config.get("platform") or "auto").lower()
        env_platform = {"cpu": "cpu", "cuda": "cuda", "rocm": "rocm", "tpu": "tpu"}.get(platform)
        if env_platform:
            os.environ["JAX_PLATFORMS"] = env_platform
        elif platform == "gpu":
            # JAX_PLATFORMS=gpu expands to cuda,rocm(,oneapi) and fails loudly unless every one of those plugins is
            # installed (seen on an H100 with jax 0.11.2: "Unable to initialize backend 'rocm'"). JAX left to choose
            # prefers a GPU; whether it found one is checked below.
            os.environ.pop("JAX_PLATFORMS", None)
        sys.dont_write_bytecode = True  # importing the user's modules must not write __pycache__ into the workspace
        hello: protocol.Hello = {
            "type": "hello", "protocol": protocol.VERSION, "pid": os.getpid(), "python": sys.version.split()[0],
            "executable": sys.executable, "platform_requested": platform}
        t0 = time.perf_counter()
        try:
            import jax
            import numpy as np
        except BaseException as exc:
            hello.update({"ok": False, "error": {
                "type": type(exc).__name__, "message": str(exc), "phase": "import",
                "hint": f"the interpreter {sys.executable} cannot import jax/numpy: install jax there or point "
                        "sharpbits at one that has it"}})
            return hello
        self.jax, self.np = jax, np
        hello["import_s"] = time.perf_counter() - t0
        try:
            devices = jax.devices()
        except BaseException as exc:
            hello.update({"ok": False, "jax": jax.__version__, "error": {
                "type": type(exc).__name__, "message": str(exc), "phase": "backend",
                "hint": f"JAX has no {platform!r} backend in {sys.executable} (JAX_PLATFORMS={env_platform}): "
                        f"install JAX's {platform} plugin there, pick another platform, or run the worker on such "
                        "a host with a launch prefix"}})
            return hello
        if platform == "gpu" and jax.default_backend() != "gpu":
            hello.update({"ok": False, "jax": jax.__version__, "error": {
                "type": "RuntimeError", "message": f"JAX found no GPU: its backend is {jax.default_backend()!r} "
                                                   f"({', '.join(sorted({d.platform for d in devices}))} devices)",
                "phase": "backend",
                "hint": f"JAX has no 'gpu' backend in {sys.executable}: install JAX's CUDA or ROCm plugin there, "
                        "pick another platform, or run the worker on such a host with a launch prefix"}})
            return hello
        try:
            from jax.extend import source_info_util

            source_info_util.register_exclusion(WORKER_FILE)
        except Exception:
            pass
        cache_dir = self.config.get("cache_dir")
        if cache_dir:
            try:
                os.makedirs(cache_dir, exist_ok=True)
                jax.config.update("jax_compilation_cache_dir", cache_dir)
                jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
                # The HLO views map ops to source lines through the executable's metadata: a cached executable
                # compiled from the same code at other lines (or in another file) would map them wrongly.
                with contextlib.suppress(Exception):  # older JAX has no such option
                    jax.config.update("jax_compilation_cache_include_metadata_in_key", True)
            except Exception as exc:
                hello["cache_warning"] = f"persistent cache disabled: {exc}"
        self._install_log_capture()
        if self.config.get("warmup", True):
            try:  # pay the one-time lowering/compile machinery cost now, in the background
                f = jax.jit(lambda x: x * 2 + 1)
                f.trace(jax.ShapeDtypeStruct((2,), np.float32)).lower().compile()
            except Exception:
                pass
        hello["memory_limit"] = self._set_memory_limit(self.config.get("memory_limit_mb"))
        d = devices[0]
        hello.update({"ok": True, "jax": jax.__version__, "numpy": np.__version__,
                      "device": {"platform": d.platform, "device_kind": d.device_kind, "count": len(devices)},
                      "ready_s": time.perf_counter() - t0})
        return hello

    def cpu_peak(self) -> "protocol.MeasuredPeak":
        """This CPU's attainable FLOP/s (a jitted f32 matmul) and bytes/s (jitted reads and writes of working
        sets from cache-sized to far past the last-level cache), best of a few runs. Measured once per host and
        device kind and kept in the cache folder (`sharpbits-peak-HOST-KIND.json`), under a lock, so every worker on
        the machine shows the same figures; delete the file to measure again."""
        if self._cpu_peak is not None:
            return self._cpu_peak
        jax = self.jax
        assert jax is not None  # started
        import socket

        host = socket.gethostname() or "localhost"
        kind = str(jax.devices()[0].device_kind)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{host}-{kind}")
        # next to JAX's compilation cache; without one (`--cache-dir none`), in the user's sharpbits cache folder
        cache_dir = self.config.get("cache_dir") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "sharpbits")
        cache_file = os.path.join(cache_dir, f"sharpbits-peak-{name}.json")
        lock = None
        with contextlib.suppress(OSError):
            os.makedirs(cache_dir, exist_ok=True)
            lock = open(cache_file + ".lock", "a+")  # noqa: SIM115  # held while measuring
            with contextlib.suppress(Exception):
                import fcntl

                fcntl.flock(lock.fileno(), fcntl.LOCK_EX)  # another worker measuring: wait for its figures
        try:
            cached = _read_peak(cache_file)
            if cached is not None:
                cached["cached"] = True
                self._cpu_peak = cached
                return cached
            peak = self._measure_peak(host, kind)
            peak["file"] = cache_file
            with contextlib.suppress(OSError):  # a read-only home: measured again by the next worker
                tmp = f"{cache_file}.{os.getpid()}.tmp"
                with open(tmp, "w", encoding="utf-8") as fh:
                    json.dump(peak, fh)
                os.replace(tmp, cache_file)
            peak["cached"] = False
            self._cpu_peak = peak
            return peak
        finally:
            if lock is not None:
                lock.close()  # (releases the flock)

    def _measure_peak(self, host, kind) -> "protocol.MeasuredPeak":
        jax, np = self.jax, self.np
        assert jax is not None and np is not None

        def best(call, args, repeats, budget):
            call(*args).block_until_ready()
            times: list = []
            deadline = time.perf_counter() + budget
            while len(times) < repeats or (time.perf_counter() < deadline and len(times) < 200):
                t = time.perf_counter()
                call(*args).block_until_ready()
                times.append(time.perf_counter() - t)
            return min(times)

        t0 = time.perf_counter()
        n = 1024
        a = jax.device_put(np.ones((n, n), np.float32))
        flops_per_s = 2.0 * n ** 3 / best(jax.jit(lambda x, y: x @ y), (a, a), 5, 0.3)
        del a
        llc = _last_level_cache_bytes()
        # working sets (bytes read + written by `x * 1.5`): cache-sized ones, then one far past the last-level
        # cache (at least 256 MiB, twice the cache where that is larger, at most 1 GiB)
        main_set = min(max(256 << 20, 2 * llc), 1 << 30)
        sizes = [256 << 10, 2 << 20, 16 << 20, main_set]
        scale = jax.jit(lambda x: x * 1.5)
        points: list = []
        for size in sizes:
            v = jax.device_put(np.ones((size // 8,), np.float32))  # size/2 bytes in, size/2 out
            budget = 0.3 if size < main_set else 0.5
            points.append({"working_set_bytes": size, "bytes_per_s": size / best(scale, (v,), 5, budget)})
            del v
        main = points[-1]["bytes_per_s"]
        for p in points:  # a bigger working set is never faster than main memory allows, a smaller never slower
            p["bytes_per_s"] = max(p["bytes_per_s"], main)
        peak: protocol.MeasuredPeak = {
            "flops_per_s": flops_per_s, "bytes_per_s": main, "bandwidth": points, "cache_bytes": llc,
            "host": host, "device_kind": kind, "measured_at": time.time(),
            "source": f"{host}: {_cpu_model()}, {os.cpu_count()} cores; best of a {n}x{n} f32 matmul, and of "
                      f"streaming {_mib(main_set)}",
            "measure_s": time.perf_counter() - t0}
        return peak

    def _set_memory_limit(self, mb) -> "protocol.MemoryLimit":
        """RLIMIT_DATA = mb MiB (None: half of this host's physical memory; 0: no limit).

        RLIMIT_DATA counts the heap and private writable mappings, i.e. what a trace allocates on the host. Not
        RLIMIT_AS: CUDA and other accelerator runtimes reserve address ranges far beyond physical memory, which
        an address-space limit would refuse; reservations without write access (PROT_NONE), shared mappings and
        device memory do not count against RLIMIT_DATA. Set by the worker itself, so it holds behind a launch
        prefix too; soft = hard, so user code cannot raise it again (unless it runs as root)."""
        try:
            import resource

            if mb is None:
                limit = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
                source = "default: half the physical memory"
            elif int(mb) <= 0:
                return {"off": True}
            else:
                limit = int(mb) * 1024 * 1024
                source = "setting"
            resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
            out: protocol.MemoryLimit = {"rlimit_data_bytes": limit, "source": source}
            in_use = _data_in_use()
            if in_use is not None:
                out["in_use_bytes"] = in_use
                if in_use >= limit:
                    out["warning"] = (f"the memory limit ({limit >> 20} MiB) is below what the worker already uses "
                                      f"({in_use >> 20} MiB): every allocation will fail; raise it")
            return out
        except Exception as exc:
            return {"error": str(exc)}

    def _install_log_capture(self):
        worker = self

        class Handler(logging.Handler):
            def emit(self, record):
                with contextlib.suppress(Exception):
                    worker.cache_log.append(record.getMessage())

        logger = logging.getLogger("jax")
        logger.addHandler(Handler(level=logging.WARNING))
        self.jax.config.update("jax_explain_cache_misses", True)  # type: ignore[union-attr]

    # ---------------------------------------------------------------------------- requests

    def handle(self, req) -> "protocol.WorkerResult":
        kind = req.get("type")
        if kind == "ping":
            return {"ok": True, "pid": os.getpid()}
        if kind == "trace":
            return self.trace(req)
        return {"ok": False, "error": {"type": "ProtocolError", "message": f"unknown request type {kind!r}"}}

    def trace(self, req: "protocol.TraceRequest") -> "protocol.WorkerResult":
        result: protocol.WorkerResult = {"ok": True, "timings": {}}
        capture = Capture()
        path = os.path.abspath(req["path"])
        added_path = []
        before_modules = set(sys.modules)
        self.cache_log.clear()
        self.log_cutoff = None  # set once this trace has traced (a failure before that keeps its whole log)
        old_cwd = os.getcwd()
        old_argv = sys.argv
        sys.argv = [path]
        config_before = _config_snapshot(self.jax)
        try:
            with capture:
                if req.get("cwd"):
                    with contextlib.suppress(OSError):
                        os.chdir(req["cwd"])
                for p in (req.get("root"), os.path.dirname(path)):
                    if p and p not in sys.path:
                        sys.path.insert(0, p)
                        added_path.append(p)
                try:
                    _Trace(self, req, path, result, capture).run()
                except BaseException as exc:
                    result["ok"] = False
                    error = describe_exception(exc, path, result.get("phase", "module"))
                    where = cell_of(req.get("cells"), error.get("line"))
                    if where is not None:  # a notebook: the cell and its line, as the user sees them
                        error["cell"], error["cell_line"] = where
                    result["error"] = error
        finally:
            sys.argv = old_argv
            # a document that sets jax_enable_x64 (or any flag) must not change the next document's trace
            restored = _config_restore(self.jax, config_before)
            if restored:
                result["config_restored"] = restored
            with contextlib.suppress(OSError):
                os.chdir(old_cwd)
            for p in added_path:
                with contextlib.suppress(ValueError):
                    sys.path.remove(p)
            self._forget_user_modules(before_modules, [path, req.get("root")])
        result["stdout"] = capture.text
        module_run = result.get("module")
        if module_run is not None:
            module_run["output"] = capture.between(*module_run.pop("_span", (None, None)))  # type: ignore[typeddict-item]
        # retraces the module and the trace itself caused (timing and eager runs would only add noise)
        result["retraces"] = summarize_cache_misses(self.cache_log[: self.log_cutoff], path)
        return result

    def _forget_user_modules(self, before, roots):
        """Modules the document imported from its own folder are re-imported next time (the user edits them)."""
        dirs = [os.path.dirname(roots[0])] + ([os.path.abspath(roots[1])] if roots[1] else [])
        for name in set(sys.modules) - before:
            mod = sys.modules.get(name)
            f = getattr(mod, "__file__", None) or ""
            if "site-packages" in f or "dist-packages" in f or f.startswith((sys.prefix, sys.base_prefix)):
                continue  # an installed library (jax's lazily imported parts): keep it, never import twice
            if name == MODULE_NAME or any(f.startswith(d + os.sep) for d in dirs if d):
                sys.modules.pop(name, None)


def _read_peak(path):
    """A kept peak measurement, or None (missing, unreadable, or from an older worker without the bandwidths)."""
    try:
        with open(path, encoding="utf-8") as fh:
            peak = json.load(fh)
    except (OSError, ValueError):
        return None
    if not isinstance(peak, dict) or not peak.get("bandwidth") or not peak.get("flops_per_s"):
        return None
    return peak


def _last_level_cache_bytes():
    """The largest CPU cache's size in bytes (Linux sysfs, else sysconf), 0 when unknown."""
    sizes = []
    base = "/sys/devices/system/cpu/cpu0/cache"
    with contextlib.suppress(OSError):
        for entry in os.listdir(base):
            with contextlib.suppress(OSError, ValueError), open(os.path.join(base, entry, "size")) as fh:
                text = fh.read().strip().upper()
                factor = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
                sizes.append(int(text.rstrip("KMG")) * factor)
    for name in ("SC_LEVEL3_CACHE_SIZE", "SC_LEVEL2_CACHE_SIZE"):
        with contextlib.suppress(ValueError, OSError, AttributeError):
            sizes.append(int(os.sysconf(name)))
    return max([s for s in sizes if s > 0], default=0)


def _cpu_model():
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as fh:
        for line in fh:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    import platform as _platform

    return _platform.processor() or _platform.machine() or "CPU"


def _mib(n):
    return f"{n / (1 << 20):.0f} MiB" if n >= 1 << 20 else f"{n / 1024:.0f} KiB"


def _data_in_use():
    """Bytes counted against RLIMIT_DATA now (VmData), where /proc says."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _config_snapshot(jax):
    try:
        return dict(jax.config.values)
    except Exception:
        return {}


def _config_restore(jax, before):
    """Undo jax.config changes made by user code; returns the names put back."""
    restored = []
    for name, value in _config_snapshot(jax).items():
        if name in before and before[name] != value:
            try:
                jax.config.update(name, before[name])
                restored.append(name)
            except Exception:
                pass
    return restored


def summarize_cache_misses(messages, path) -> "list[protocol.Retrace]":
    """`jax_explain_cache_misses` messages -> per function defined in the document: traces and why."""
    out: dict = {}
    for msg in messages:
        if "CACHE MISS" not in msg:
            continue
        m = re.search(r"(?:for|function:\s*\n\s*)\s*(\S+)(?: id=\d+)? defined at (.+?):(\d+)", msg)
        if not m or os.path.abspath(m.group(2)) != path:
            continue
        key = (m.group(1), int(m.group(3)))
        entry = out.setdefault(key, {"function": m.group(1), "line": key[1], "traces": 0, "reasons": []})
        entry["traces"] += 1
        call = re.search(r"CACHE MISS at (.+?):(\d+)(?::\d+)? \(", msg)
        body = msg.split("\n", 1)[1].strip() if "\n" in msg else msg
        if "never seen" not in body:
            reason: protocol.RetraceReason = {"text": body}
            if call and os.path.abspath(call.group(1)) == path:
                reason["line"] = int(call.group(2))
            entry["reasons"].append(reason)
    return sorted(out.values(), key=lambda e: e["line"])


# ------------------------------------------------------------------------------------------------ one trace


class _Trace:
    def __init__(self, worker, req, path, result, capture=None):
        self.w, self.req, self.path, self.result = worker, req, path, result
        self.capture = capture
        self.fn_lines = None  # (first, last): the traced function's lines in the document
        self.jax, self.np = worker.jax, worker.np
        self.show = set(req.get("show") or protocol.VIEWS)
        self.module = None  # the document, once executed (array specs may name its shardings)

    def phase(self, name):
        self.result["phase"] = name

    def run(self):
        jax, req, result = self.jax, self.req, self.result
        # -- the document, from the text the client sent (unsaved edits included), under its real path
        self.phase("module")
        text = req["text"]
        linecache.cache[self.path] = (len(text), None, text.splitlines(True), self.path)
        code = compile(text, self.path, "exec", dont_inherit=True)
        module = types.ModuleType(MODULE_NAME)
        module.__file__ = self.path
        sys.modules[MODULE_NAME] = module
        capture = self.capture
        module_run: protocol.ModuleRun = {"name": MODULE_NAME, "main_block": bool(_MAIN_GUARD.search(text))}
        result["module"] = module_run
        start = capture.offset() if capture is not None else None
        t = time.perf_counter()
        try:
            exec(code, module.__dict__)
        finally:
            module_run["seconds"] = result["timings"]["module_s"] = time.perf_counter() - t
            end = capture.offset() if capture is not None else None
            module_run["_span"] = (start, end)  # type: ignore[typeddict-unknown-key]  # Worker.trace reads it
        self.module = module

        self.phase("target")
        fn = module
        for part in req["function"].split("."):
            if not hasattr(fn, part):
                raise LookupError(f"{req['function']!r} is not defined at module level in {self.path}")
            fn = getattr(fn, part)
        if isinstance(fn, type) or not callable(fn):
            raise TypeError(f"{req['function']!r} is not a function")
        if "." in req["function"] and inspect.isfunction(fn):
            params = list(inspect.signature(fn).parameters)
            if params and params[0] == "self":
                owner = module
                for part in req["function"].split(".")[:-1]:
                    owner = getattr(owner, part)
                try:
                    instance = owner()
                except Exception as exc:
                    raise TypeError(f"{req['function']} is an instance method and {owner.__name__}() cannot be "
                                    f"built without arguments ({type(exc).__name__}: {exc}); trace a function or "
                                    "a @staticmethod instead") from None
                fn = getattr(instance, req["function"].split(".")[-1])
        result["target"] = {"function": req["function"], "line": _def_line(fn)}

        # -- example inputs
        self.phase("arguments")
        spec = req.get("spec") or {"args": [], "kwargs": {}}
        jit_info = getattr(fn, "_jit_info", None)
        is_jitted = hasattr(fn, "trace") and hasattr(fn, "lower")
        raw = getattr(fn, "__wrapped__", fn) if is_jitted else fn
        self.fn_lines = _source_lines(raw, self.path)
        try:
            sig = inspect.signature(raw)
            bound = sig.bind(*spec["args"], **spec["kwargs"])
            pos_specs, kw_specs = list(bound.args), dict(bound.kwargs)
            param_names = list(sig.parameters)
        except TypeError as exc:
            raise TypeError(f"the argument spec does not fit {req['function']}{_sig_text(raw)}: {exc}") from None
        except ValueError:
            pos_specs, kw_specs, param_names = list(spec["args"]), dict(spec["kwargs"]), []
        if is_jitted:
            static_nums = set(getattr(jit_info, "static_argnums", ()) or ())
            static_names = set(getattr(jit_info, "static_argnames", ()) or ())
            static_pos = {i for i in range(len(pos_specs))
                          if i in static_nums or (i < len(param_names) and param_names[i] in static_names)}
            static_kw = {k for k in kw_specs if k in static_names}
            jitted = fn
        else:
            static_pos = {i for i, s in enumerate(pos_specs) if not _has_array(s)}
            static_kw = {k for k, s in kw_specs.items() if not _has_array(s)}
            jitted = jax.jit(fn, static_argnums=tuple(sorted(static_pos)), static_argnames=tuple(sorted(static_kw)))
        result["arguments"] = (
            [{"name": param_names[i] if i < len(param_names) else f"arg{i}", "static": i in static_pos,
              "spec": _fmt(s)} for i, s in enumerate(pos_specs)]
            + [{"name": k, "static": k in static_kw, "spec": _fmt(s)} for k, s in kw_specs.items()]
        )
        result["jitted_by_user"] = is_jitted
        # static arguments must be hashable: a list literal becomes a tuple
        pos_specs = [_hashable_spec(s) if i in static_pos else s for i, s in enumerate(pos_specs)]
        kw_specs = {k: _hashable_spec(s) if k in static_kw else s for k, s in kw_specs.items()}
        abstract_pos = [self.abstract(s) for s in pos_specs]
        abstract_kw = {k: self.abstract(s) for k, s in kw_specs.items()}

        # -- trace
        self.phase("trace")
        t = time.perf_counter()
        traced = None
        if req.get("check_key_reuse", True):
            try:
                with _key_reuse_checks(jax):
                    traced = jitted.trace(*abstract_pos, **abstract_kw)
            except Exception as exc:
                if type(exc).__name__ != "KeyReuseError":
                    raise
                # a reused key is a finding at its line, not the end of the trace: trace again without the check
                info = describe_exception(exc, self.path, "trace")
                finding: protocol.TraceFinding = {
                    "code": "key-reuse", "type": info["type"], "message": info["message"],
                    "line": info.get("line"), "col": info.get("col")}
                where = cell_of(req.get("cells"), finding.get("line"))
                if where is not None:
                    finding["cell"], finding["cell_line"] = where
                result.setdefault("findings", []).append(finding)
        if traced is None:
            traced = jitted.trace(*abstract_pos, **abstract_kw)
        result["timings"]["trace_s"] = time.perf_counter() - t
        self.w.log_cutoff = len(self.w.cache_log)
        closed = traced.jaxpr
        if self.show & {"jaxpr", "lines"}:
            result["jaxpr"] = self.jaxpr_info(closed)
        need_lower = bool(self.show & {"stablehlo", "hlo", "cost", "timing", "lines", "sharding"})
        if not need_lower:
            return

        self.phase("lower")
        lower_for = req.get("lower_for")
        t = time.perf_counter()
        lowered = traced.lower(lowering_platforms=(lower_for,)) if lower_for else traced.lower()
        result["timings"]["lower_s"] = time.perf_counter() - t
        if self.show & {"stablehlo", "lines"}:
            result["stablehlo_debug_text"] = lowered.as_text(debug_info=True)
            if lower_for:
                result["lowered_for"] = lower_for
        if not self.show & {"hlo", "cost", "timing", "sharding"}:
            return
        if lower_for:  # StableHLO for another platform is portable text; compiling it needs that platform
            result.setdefault("notes", []).append(
                f"lowered for {lower_for}: optimized HLO, cost and timing need a {lower_for} worker "
                "(--platform, and --launch-prefix for a remote host)")
            return

        self.phase("compile")
        t = time.perf_counter()
        with _CompilerLog() as clog:
            compiled = lowered.compile()
        result["timings"]["compile_s"] = time.perf_counter() - t
        if clog.cache_state:
            result["timings"]["compile_cache"] = clog.cache_state  # "hit": compile_s is a cache read
        sharding = self.shardings(compiled, traced, pos_specs, kw_specs, static_pos, static_kw, param_names) \
            if "sharding" in self.show else None
        if sharding is not None:
            result["sharding"] = sharding
        if self.show & {"hlo", "lines"} or sharding is not None:  # the collectives are read from the HLO
            result["hlo_text"] = compiled.as_text()
        if "cost" in self.show:
            result["cost"] = self.cost(compiled, traced.jaxpr)
        if "timing" not in self.show:
            return

        self.phase("run")
        rng = self.np.random.default_rng(0)
        concrete_pos = [self.concrete(s, rng) for s in pos_specs]
        concrete_kw = {k: self.concrete(s, rng) for k, s in kw_specs.items()}
        dyn_pos = [a for i, a in enumerate(concrete_pos) if i not in static_pos]
        dyn_kw = {k: a for k, a in concrete_kw.items() if k not in static_kw}
        budget = float(req.get("time_budget_s", 1.0))
        result["timings"].update(self.time_calls(lambda: compiled(*dyn_pos, **dyn_kw), budget))
        if "cost" in self.show and self.jax.devices()[0].platform == "cpu":
            # the roofline's peak (accelerators: a table on the server side); measured once, after our own timing
            result["measured_peak"] = self.w.cpu_peak()
        if req.get("eager", True):
            self.phase("eager")
            result["timings"]["eager"] = self.time_eager(raw, concrete_pos, concrete_kw, budget / 2)
        self.phase("done")

    # ---------------------------------------------------------------------------- inputs

    def named_sharding(self, s):
        """The module-level Sharding an array spec names after '@' (None without one)."""
        name = s.get("sharding")
        if not name:
            return None
        obj = self.module
        for part in name.split("."):
            if not hasattr(obj, part):
                raise LookupError(f"the spec names the sharding {name!r}, which is not defined at module level")
            obj = getattr(obj, part)
        if not isinstance(obj, self.jax.sharding.Sharding):
            raise TypeError(f"{name!r} in the spec is a {type(obj).__name__}, not a jax.sharding.Sharding "
                            "(e.g. NamedSharding(mesh, P('x')))")
        return obj

    def shardings(self, compiled, traced, pos_specs, kw_specs, static_pos, static_kw,
                  param_names) -> "protocol.ShardingInfo | None":
        """Each dynamic argument's and result's sharding with its device grid; None when all sit on one device."""
        jax = self.jax
        tree = jax.tree_util
        in_pos, in_kw = compiled.input_shardings
        names = [param_names[i] if i < len(param_names) else f"arg{i}" for i in range(len(pos_specs))
                 if i not in static_pos]
        dyn_pos = [self.abstract(sp) for i, sp in enumerate(pos_specs) if i not in static_pos]
        args = []
        for name, sh, av in [*zip(names, in_pos, dyn_pos, strict=False),
                             *((k, in_kw[k], self.abstract(kw_specs[k])) for k in kw_specs if k not in static_kw)]:
            leaves = tree.tree_leaves_with_path(av)
            for (path, leaf), leaf_sh in zip(leaves, tree.tree_leaves(sh), strict=False):
                args.append(_sharded(name + tree.keystr(path), leaf.shape, leaf.dtype, leaf_sh))
        results = []
        outs = tree.tree_leaves(compiled.output_shardings)
        for i, (aval, sh) in enumerate(zip(traced.jaxpr.out_avals, outs, strict=False)):
            results.append(_sharded(f"result[{i}]" if len(outs) > 1 else "result", aval.shape, aval.dtype, sh))
        if all(v["devices"] <= 1 for v in args + results):
            return None
        return {"device_count": len(jax.devices()), "arguments": args, "results": results}

    def abstract(self, s):
        jax = self.jax
        kind = s["kind"]
        if kind == "array":
            sharding = self.named_sharding(s)
            if sharding is not None:
                return jax.ShapeDtypeStruct(tuple(s["shape"]), _dtype(s["dtype"]), sharding=sharding)
            return jax.ShapeDtypeStruct(tuple(s["shape"]), _dtype(s["dtype"]))
        if kind == "key":
            n = math.prod(s["shape"])
            if not s["shape"]:
                return jax.eval_shape(lambda: jax.random.key(0))
            return jax.eval_shape(lambda: jax.random.split(jax.random.key(0), n).reshape(tuple(s["shape"])))
        return self._container(s, self.abstract)

    def concrete(self, s, rng):
        jax, np = self.jax, self.np
        kind = s["kind"]
        if kind == "array":
            dt = np.dtype(_dtype(s["dtype"]))
            shape = tuple(s["shape"])
            if dt == np.bool_:
                v = rng.random(shape) < 0.5
            elif np.issubdtype(dt, np.integer):
                v = rng.integers(0, 10, size=shape)
            elif np.issubdtype(dt, np.complexfloating):
                v = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
            else:
                v = rng.standard_normal(shape, dtype=np.float32)
            return jax.device_put(np.asarray(v).astype(dt), self.named_sharding(s))
        if kind == "key":
            seed = int(rng.integers(0, 2**31 - 1))
            if not s["shape"]:
                return jax.random.key(seed)
            return jax.random.split(jax.random.key(seed), math.prod(s["shape"])).reshape(tuple(s["shape"]))
        return self._container(s, lambda v: self.concrete(v, rng))

    @staticmethod
    def _container(s, f):
        kind = s["kind"]
        if kind == "literal":
            return s["value"]
        if kind == "tuple":
            return tuple(f(i) for i in s["items"])
        if kind == "list":
            return [f(i) for i in s["items"]]
        if kind == "dict":
            return {k: f(v) for k, v in s["items"]}
        raise ValueError(f"unknown spec kind {kind!r}")

    # ---------------------------------------------------------------------------- jaxpr

    def jaxpr_info(self, closed) -> "protocol.JaxprInfo":
        """The jaxpr's text and its equations, each with its line in the document and the line of the traced
        function it counts at (see protocol.JaxprInfo: `eqns` is the one count every view shows)."""
        try:
            from jax.extend.core import jaxprs_in_params
        except ImportError:  # older jax
            from jax._src.core import jaxprs_in_params  # type: ignore
        equations: list[protocol.Equation] = []
        leaves = 0

        def walk(jaxpr, depth, parent):
            nonlocal leaves
            parent_eqn = equations[parent] if parent is not None else None
            for eqn in jaxpr.eqns:
                # library code (jnp.where's own jit) has no frame in the document: use its call site's line
                line, call_line = self.doc_lines(eqn.source_info)
                if parent_eqn is not None:
                    line = line or parent_eqn["line"]
                    call_line = call_line or parent_eqn.get("call_line")
                index = len(equations)
                equations.append({"primitive": eqn.primitive.name, "line": line, "depth": depth, "parent": parent,
                                  "call_line": call_line})
                subs = list(jaxprs_in_params(eqn.params))
                for sub in subs:
                    walk(getattr(sub, "jaxpr", sub), depth + 1, index)
                if not subs:
                    leaves += 1

        walk(closed.jaxpr, 0, None)
        raw_text = closed.pretty_print(source_info=True)
        lines, text_lines = [], []
        loc = re.compile(r"\s+#\s*(?:(?P<file>.+?):(?P<line>\d+):(?P<col>\d+) \((?P<fn>.*)\))?\s*$")
        for i, ln in enumerate(raw_text.splitlines(), 1):
            m = loc.search(ln)
            if m:
                if m.group("file") and os.path.abspath(m.group("file")) == self.path:
                    text_lines.append([i, int(m.group("line"))])
                ln = ln[: m.start()]
            lines.append(ln.rstrip())
        info: protocol.JaxprInfo = {
            "text": "\n".join(lines), "equations": equations, "text_lines": text_lines,
            "eqns_top_level": len(closed.jaxpr.eqns), "eqns_leaves": leaves}
        info.update(protocol.equation_counts(equations))
        if self.fn_lines is not None:
            info["function_lines"] = list(self.fn_lines)
        return info

    def doc_lines(self, source_info):
        """(the innermost frame in the document, the innermost frame inside the traced function's lines)."""
        tb = getattr(source_info, "traceback", None)
        if tb is None:
            return None, None
        line = call_line = None
        first, last = self.fn_lines or (0, -1)
        for frame in tb.frames:  # innermost first
            if frame.file_name == self.path:
                if line is None:
                    line = frame.line_num
                if first <= frame.line_num <= last:
                    call_line = frame.line_num
                    break
        return line, call_line

    # ---------------------------------------------------------------------------- cost, timing

    @staticmethod
    def matmul_flops(closed) -> float:
        """Floating-point operations of the jaxpr's matrix products and convolutions (2 per multiply-add), in
        every sub-jaxpr, a `scan` body counted `length` times and a `cond` by its largest branch (a `while` body
        once: a lower bound). XLA's GPU cost analysis counts a product it hands to cuBLAS/cuDNN as a custom call
        with 0 flops, which made a matmul-heavy function look memory-bound at a few percent of peak."""
        try:
            from jax.extend.core import jaxprs_in_params
        except ImportError:  # older jax
            from jax._src.core import jaxprs_in_params  # type: ignore

        def size(shape) -> float:
            n = 1.0
            for d in shape:
                n *= float(d) if isinstance(d, int) else 0.0  # a symbolic dimension: not counted
            return n

        def walk(jaxpr) -> float:
            total = 0.0
            for eqn in jaxpr.eqns:
                name = eqn.primitive.name
                try:
                    if name == "dot_general":
                        (contract, _), _batch = eqn.params["dimension_numbers"]
                        lhs = eqn.invars[0].aval.shape
                        total += 2.0 * size(eqn.outvars[0].aval.shape) * size(lhs[i] for i in contract)
                        continue
                    if name == "conv_general_dilated":
                        rhs = eqn.invars[1].aval.shape
                        # the kernel holds (input features / groups) x window for each output feature
                        out_features = rhs[eqn.params["dimension_numbers"].rhs_spec[0]]
                        per_output = size(rhs) / max(float(out_features), 1.0)
                        total += 2.0 * size(eqn.outvars[0].aval.shape) * per_output
                        continue
                except (AttributeError, IndexError, KeyError, TypeError, ValueError):
                    continue
                subs = [walk(getattr(sub, "jaxpr", sub)) for sub in jaxprs_in_params(eqn.params)]
                if not subs:
                    continue
                if name == "scan":
                    total += float(eqn.params.get("length", 1) or 1) * sum(subs)
                elif name == "cond":
                    total += max(subs)
                else:
                    total += sum(subs)
            return total

        try:
            return walk(closed.jaxpr)
        except Exception:  # a jaxpr of a form this walk does not know: XLA's figure stands alone
            return 0.0

    @classmethod
    def cost(cls, compiled, closed=None) -> "protocol.CostInfo":
        out: protocol.CostInfo = {}
        try:
            ca = compiled.cost_analysis()
            if isinstance(ca, (list, tuple)):
                ca = ca[0] if ca else {}
            ca = dict(ca or {})

            def known(key):  # XLA says -1 for what it could not count (a program that is one cuBLAS call)
                v = ca.get(key)
                return v if isinstance(v, (int, float)) and v >= 0 else None

            out.update({"flops": known("flops"), "transcendentals": known("transcendentals"),
                        "bytes_accessed": known("bytes accessed"),
                        "raw": {k: v for k, v in ca.items() if isinstance(v, (int, float))}})
            matmul = cls.matmul_flops(closed) if closed is not None else 0.0
            xla = out.get("flops")
            # only where XLA handed products to a library (cuBLAS/cuDNN custom calls, which its GPU cost analysis
            # counts as 0): elsewhere its figure is of the optimized program (a product hoisted out of a loop is
            # done once there, while the jaxpr counts it every iteration)
            handed_off = matmul > 0 and any(t in compiled.as_text() for t in LIBRARY_PRODUCT_CALLS)
            if handed_off and (xla is None or xla < matmul):
                # the products' flops XLA left out (cuBLAS custom calls): the jaxpr's count, XLA's kept beside it
                out["xla_flops"] = xla
                out["flops"] = matmul  # (XLA's figure may hold some products too: never count one twice)
                out["flops_source"] = "jaxpr"
            else:
                out["flops_source"] = "xla"
            out["matmul_flops"] = matmul
        except Exception as exc:
            out["cost_error"] = f"{type(exc).__name__}: {exc}"
        try:
            ma = compiled.memory_analysis()
            if ma is not None:
                mem: dict = {}  # MemoryInfo: memory_analysis()'s *_in_bytes fields, named *_bytes
                for name in ("argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes",
                             "temp_size_in_bytes", "generated_code_size_in_bytes", "peak_memory_in_bytes"):
                    v = getattr(ma, name, None)
                    if v is not None:
                        mem[name.replace("_in_bytes", "_bytes")] = int(v)
                if mem.get("peak_memory_bytes") == 0 and mem.get("argument_size_bytes", 0) + mem.get(
                        "output_size_bytes", 0) > 0:
                    # an executable read from the persistent cache on GPU reports a peak of 0 beside its arguments
                    # (seen on an H100, jax 0.11.2: "arguments 3.81 MiB · output 3.81 MiB · peak 0 B"): unknown
                    del mem["peak_memory_bytes"]
                out["memory"] = mem  # type: ignore[typeddict-item]
        except Exception as exc:
            out["memory_error"] = f"{type(exc).__name__}: {exc}"
        mem_info = out.get("memory") or {}
        if "argument_size_bytes" in mem_info and "output_size_bytes" in mem_info:
            # every argument read and every output written once is the traffic's floor. It stands in where XLA
            # could not count (-1), and where XLA handed products to cuBLAS/cuDNN: its byte count then leaves out
            # those calls' operands too (seen on an H100: 128 MiB for two f32 4096^3 products whose arguments
            # alone are 192 MiB, which overstated the arithmetic intensity twice)
            floor = float(mem_info["argument_size_bytes"] + mem_info["output_size_bytes"])
            counted = out.get("bytes_accessed")
            if counted is None or (out.get("flops_source") == "jaxpr" and counted < floor):
                out["bytes_accessed"] = floor
                out["bytes_source"] = "arguments+output"
        return out

    def time_calls(self, call, budget):
        block = self.jax.block_until_ready

        def once():
            t = time.perf_counter()
            block(call())
            return time.perf_counter() - t

        first = once()
        warm = [once() for _ in range(2)]
        per = max(min(warm), 1e-7)
        n = int(min(max(budget / per, 5), 10000))
        times = sorted(once() for _ in range(n))
        return {"first_call_s": first, "run": _stats(times)}

    def time_eager(self, raw, pos, kw, budget):
        eqns = (self.result.get("jaxpr") or {}).get("eqns_leaves", 0)
        if eqns > 20000:
            return {"skipped": f"{eqns} equations: too many ops to run one by one"}
        block = self.jax.block_until_ready
        t = time.perf_counter()
        block(raw(*pos, **kw))  # the first eager call compiles each primitive once
        first = time.perf_counter() - t
        if first > 20 * max(budget, 0.1):
            return {"first_call_s": first, "run": _stats([first]), "note": "one call only (slow)"}
        t = time.perf_counter()
        block(raw(*pos, **kw))
        second = time.perf_counter() - t
        if second > budget:
            return {"first_call_s": first, "run": _stats([second]), "note": "one warm call only (slow)"}
        times: list = [second]
        deadline = time.perf_counter() + budget
        while len(times) < 3 or (time.perf_counter() < deadline and len(times) < 1000):
            t = time.perf_counter()
            block(raw(*pos, **kw))
            times.append(time.perf_counter() - t)
        return {"first_call_s": first, "run": _stats(sorted(times))}


class _CompilerLog:
    """Listens to JAX's compiler logger during one compile: was it a persistent-cache hit or miss?"""

    def __init__(self):
        self.cache_state = None

    def __enter__(self):
        outer = self

        class Handler(logging.Handler):
            def emit(self, record):
                msg = record.getMessage()
                if "compilation cache hit" in msg.lower():
                    outer.cache_state = "hit"
                elif "COMPILATION CACHE MISS" in msg:
                    outer.cache_state = "miss"

        self.logger = logging.getLogger("jax._src.compiler")
        self.handler = Handler(level=logging.DEBUG)
        self.saved = (self.logger.level, self.logger.propagate)
        self.logger.addHandler(self.handler)
        self.logger.setLevel(logging.DEBUG)
        self.logger.propagate = False  # the debug chatter stays here
        return self

    def __exit__(self, *exc):
        self.logger.removeHandler(self.handler)
        self.logger.setLevel(self.saved[0])
        self.logger.propagate = self.saved[1]
        return False


class _key_reuse_checks:
    """jax.debug_key_reuse(True) around the trace, where this JAX has it: a reused key raises KeyReuseError."""

    def __init__(self, jax):
        try:
            self.ctx = jax.debug_key_reuse(True)
        except Exception:
            self.ctx = None

    def __enter__(self):
        if self.ctx is not None:
            self.ctx.__enter__()

    def __exit__(self, *exc):
        if self.ctx is not None:
            return self.ctx.__exit__(*exc)
        return False


def _source_lines(fn, path):
    """(first, last) line of a function's source in the document (decorators included), or None."""
    try:
        f = inspect.unwrap(fn)
        code = getattr(f, "__code__", None) or getattr(getattr(f, "__func__", None), "__code__", None)
        if code is None or os.path.abspath(code.co_filename) != path:
            return None
        source, first = inspect.getsourcelines(f)
        return first, first + len(source) - 1
    except Exception:
        return None


def _stats(sorted_times) -> "protocol.RunStats":
    n = len(sorted_times)

    def q(p):
        return sorted_times[min(n - 1, max(0, round(p * (n - 1))))]

    mean = sum(sorted_times) / n
    std = math.sqrt(sum((t - mean) ** 2 for t in sorted_times) / n)
    median = q(0.5)
    return {"n": n, "median_s": median, "p10_s": q(0.1), "p90_s": q(0.9), "min_s": sorted_times[0],
            "max_s": sorted_times[-1], "mean_s": mean, "std_s": std,
            "noisy": n >= 3 and q(0.9) - q(0.1) > 0.5 * median}


def _dtype(name):
    import numpy as np

    if name == "bfloat16":
        import jax.numpy as jnp

        return jnp.bfloat16
    return np.dtype(name)


def _hashable_spec(s):
    if s["kind"] in ("list", "tuple"):
        return {"kind": "tuple", "items": [_hashable_spec(i) for i in s["items"]]}
    return s


def _has_array(s):
    if s["kind"] in ("array", "key"):
        return True
    if s["kind"] in ("tuple", "list"):
        return any(_has_array(i) for i in s["items"])
    if s["kind"] == "dict":
        return any(_has_array(v) for _, v in s["items"])
    return False


_SHORT = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64", "int8": "i8", "int16": "i16",
          "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
          "bool": "bool", "complex64": "c64", "complex128": "c128"}


def _sharded(name, shape, dtype, sharding) -> "protocol.ShardedValue":
    """One value's sharding: its spec, how many devices hold it, and the device grid over its first two axes
    (what jax.debug.visualize_array_sharding draws): row and column ranges, and the device ids of each block."""
    shape = tuple(int(d) for d in shape)
    spec = getattr(sharding, "spec", None)
    out: protocol.ShardedValue = {
        "name": name, "shape": list(shape), "dtype": str(dtype), "sharding": type(sharding).__name__,
           "spec": str(spec) if spec is not None else None, "devices": len(sharding.device_set),
           "replicated": bool(sharding.is_fully_replicated)}
    try:
        index_map = sharding.devices_indices_map(shape)
    except Exception:
        return out

    def span(sl, n):
        start, stop, _ = sl.indices(n)
        return [start, stop]

    blocks: dict = {}
    for device, index in index_map.items():
        row = span(index[0], shape[0]) if len(shape) >= 1 else [0, 1]
        col = span(index[1], shape[1]) if len(shape) >= 2 else [0, 1]
        blocks.setdefault((tuple(row), tuple(col)), []).append(device.id)
    rows = sorted({r for r, _ in blocks})
    cols = sorted({c for _, c in blocks})
    out["grid"] = {"rows": [list(r) for r in rows], "cols": [list(c) for c in cols],
                   "cells": [[sorted(blocks.get((r, c), [])) for c in cols] for r in rows]}
    return out


def _fmt(s):
    kind = s["kind"]
    if kind == "array":
        sharded = f" @ {s['sharding']}" if s.get("sharding") else ""
        return f"{_SHORT.get(s['dtype'], s['dtype'])}[{','.join(map(str, s['shape']))}]{sharded}"
    if kind == "key":
        return "key" if not s["shape"] else f"key[{','.join(map(str, s['shape']))}]"
    if kind == "literal":
        return repr(s["value"])
    if kind == "tuple":
        return "(" + ", ".join(_fmt(i) for i in s["items"]) + ("," if len(s["items"]) == 1 else "") + ")"
    if kind == "list":
        return "[" + ", ".join(_fmt(i) for i in s["items"]) + "]"
    return "{" + ", ".join(f"{k!r}: {_fmt(v)}" for k, v in s["items"]) + "}"


def _def_line(fn):
    f = getattr(fn, "__wrapped__", fn)
    code = getattr(f, "__code__", None) or getattr(getattr(f, "__func__", None), "__code__", None)
    return code.co_firstlineno if code is not None else None


def _sig_text(fn):
    try:
        return str(inspect.signature(fn))
    except Exception:
        return "(...)"


def cell_of(cells, line):
    """A line of a notebook's program -> (cell, line in that cell), from the request's cell map; else None."""
    if not cells or not isinstance(line, int):
        return None
    for c in cells:
        if c["first_line"] <= line < c["first_line"] + c["line_count"]:
            return c["cell"], line - c["first_line"] + 1
    return None


def describe_exception(exc, path, phase) -> "protocol.ErrorInfo":
    """An exception as data: type, message, the innermost line in the document."""
    cls = type(exc)
    qualified = f"{cls.__module__}.{cls.__qualname__}"
    try:
        import jax.errors as jerr

        if getattr(jerr, cls.__name__, None) is cls:
            qualified = f"jax.errors.{cls.__name__}"
    except Exception:
        pass
    if cls.__module__ == "builtins":
        qualified = cls.__name__
    message = str(exc)
    if isinstance(exc, SystemExit):
        message = f"the code called sys.exit({exc.code!r}) while being traced"
    frames: list[protocol.Frame] = []
    seen = set()
    e = exc
    while e is not None and id(e) not in seen:  # the primary exception first, then what caused it
        seen.add(id(e))
        for fs in traceback.extract_tb(e.__traceback__):
            if fs.filename == path:
                frames.append({"line": fs.lineno, "function": fs.name,  # type: ignore[typeddict-item]
                               "col": getattr(fs, "colno", None)})
        if frames:
            break
        e = e.__cause__ or e.__context__
    line = frames[-1]["line"] if frames else None
    col = frames[-1].get("col") if frames else None
    if isinstance(exc, SyntaxError) and exc.filename == path:
        line, col = exc.lineno, exc.offset
    if line is None:  # e.g. UnexpectedTracerError: the message names a line in the document
        m = re.search(re.escape(path) + r":(\d+)", message)
        if m:
            line = int(m.group(1))
    tb_text = "".join(traceback.format_exception(cls, exc, exc.__traceback__, limit=30))
    return {"type": cls.__name__, "qualified_type": qualified, "message": message, "phase": phase, "line": line,
            "col": col, "frames": frames, "traceback": tb_text[-8000:]}


# ------------------------------------------------------------------------------------------------ main


def _exit_with_parent(poll_s=1.0):
    """A worker busy in user code (an endless loop) never reads its closed stdin: when the process that
    started it goes away (the server exited or was killed), end the worker too instead of spinning on, and
    the processes the user's code started (also those that left the worker's session with setsid)."""
    import threading

    parent = os.getppid()

    def watch():
        while True:
            time.sleep(poll_s)
            if os.getppid() != parent:
                for pid in descendant_pids(os.getpid()):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                os._exit(4)

    threading.Thread(target=watch, name="sharpbits-parent-watch", daemon=True).start()


def descendant_pids(root):
    """Every live process below `root` (Linux: from /proc's parent links; elsewhere none are found). A process
    that started its own session (setsid) is still found here, where killing the process group misses it."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read().decode("ascii", "replace")
        except OSError:
            continue
        ppid = int(stat[stat.rfind(")") + 2 :].split()[1])  # fields after the command's closing parenthesis
        children.setdefault(ppid, []).append(int(name))
    found, stack = [], [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def _become_subreaper():
    """Orphans of the user's code (a child that exits after starting a daemon) are re-parented to the worker,
    not to init, so they stay descendants the worker's cleanup can find (Linux prctl; no-op elsewhere)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def main(proto_in=None, proto_out=None):
    _exit_with_parent()
    _become_subreaper()
    # the protocol keeps private duplicates of the pipes; user code gets /dev/null in and our captures out
    if proto_in is None:
        proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
    if proto_out is None:
        proto_out = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # stray output between requests goes to the worker's stderr (the server logs it)
    with contextlib.suppress(Exception):
        sys.stdin = open(os.devnull)  # noqa: SIM115
    try:
        log = os.fdopen(os.dup(2), "w")
        faulthandler.enable(file=log, all_threads=False)  # crash dumps -> server's log
        import signal

        # on a time limit the server asks "where are you?" before killing: the dump names the document's line
        faulthandler.register(signal.SIGUSR1, file=log, all_threads=False)
    except Exception:
        pass
    config = read_frame(proto_in) or {}
    worker = Worker(config)
    hello = worker.start()
    write_frame(proto_out, hello)
    if not hello.get("ok"):
        return 3
    while True:
        req = read_frame(proto_in)
        if req is None or req.get("type") == "shutdown":
            return 0
        ack: protocol.Ack = {"type": "ack", "id": req.get("id")}
        write_frame(proto_out, ack)  # received: from here on, faults are ours
        reply: protocol.WorkerResult
        try:
            reply = worker.handle(req)
        except BaseException as exc:
            reply = {"ok": False, "error": {"type": type(exc).__name__, "message": f"worker error: {exc}",
                                            "phase": "worker", "traceback": traceback.format_exc()[-4000:]}}
        reply["id"] = req.get("id")
        reply["type"] = "result"
        reply["protocol"] = protocol.VERSION
        try:
            write_frame(proto_out, reply)
        except (TypeError, ValueError) as exc:
            failed: protocol.WorkerResult = {
                "id": req.get("id"), "type": "result", "protocol": protocol.VERSION, "ok": False,
                "error": {"type": "ProtocolError", "message": f"unserialisable result: {exc}", "phase": "worker"}}
            write_frame(proto_out, failed)


if __name__ in ("__main__", "__sharpbits_worker__"):
    code = main()
    sys.stdout.flush()
    os._exit(code)  # skip interpreter teardown (JAX's atexit hooks can be slow); nothing is left to flush
