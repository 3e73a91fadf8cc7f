"""The sharpbits runtime agent: runs inside the user's own process (started by `sharpbits run` or the pytest
plugin) and records the sharp bits that only running shows.

Self-contained on purpose, like the trace worker: standard library, NumPy and JAX only, never `import sharpbits`
(the user's interpreter may not have it). It writes what it finds as JSON lines to a file of its own (never to the
program's stdout or stderr); the parent reads that file after the program ends. A record is written as soon as it
is found, so a program that crashes, is killed or calls `os._exit` still leaves what was seen so far.

What it watches (each can be turned off):
- recompiles: a `jax.monitoring` listener sees every trace and backend compile of a top-level jitted function; the
  signature of each trace (argument shapes, dtypes, weak types, static values, pytree structure) is read from
  JAX's own frame, so a function compiled more than `threshold` times gets one record saying what changed.
- PRNG key reuse, raw `PRNGKey` arrays and typed keys alike: the public `jax.random` samplers are wrapped (a
  concrete key array consumed twice, by identity), every compiled function's jaxpr is searched for a key consumed
  twice, and `jax.jit` is wrapped so that a key passed to a jitted function that consumes it counts as consumed.
- NaN/Inf origin (`jax_debug_nans`): the first operation producing the NaN, at the user's line.
- tracer leaks: where a leaked tracer was created and where it was used (and, with `leaks="strict"`,
  `jax_check_tracer_leaks`).
- implicit transfers: NumPy arrays passed to jitted functions or operations (host to device) and device arrays
  read back to the host by `float()`, `.item()`, `np.asarray()`, `print` (device to host), counted per line.

Not a public module: `install(options)` is its only entry point.
"""

import atexit
import contextlib
import functools
import json
import os
import signal
import sys
import sysconfig
import threading
import weakref
from typing import Any

AGENT_FILE = os.path.abspath(__file__)
RECORD_VERSION = 1

JAXPR_TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"
BACKEND_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"

# jax.random functions that do not consume their key argument (the rest, when given a key, consume it)
_NOT_CONSUMING = frozenset({
    "PRNGKey", "key", "key_data", "key_dtype", "key_impl", "wrap_key_data", "fold_in", "clone", "random_gamma_p",
})
# primitives that consume a key operand (as JAX's own key reuse checker: fold_in does not)
_CONSUMING_PRIMITIVES = frozenset({"random_bits", "random_split", "random_gamma"})
# primitives whose output is the same key (or key data) as their first operand
_SAME_KEY_PRIMITIVES = frozenset({"random_wrap", "random_unwrap", "copy", "copy_p", "reshape", "squeeze",
                                  "convert_element_type", "device_put", "optimization_barrier"})


class Options:
    def __init__(self, values=None):
        values = dict(values or {})
        # the folder for records files, one per process (None: kept in memory, for the pytest plugin)
        self.out_dir = values.get("out_dir")
        self.threshold = int(values.get("threshold", 3))
        self.keys = bool(values.get("keys", True))
        self.nans = bool(values.get("nans", False))
        self.leaks = values.get("leaks", "on")  # "on" | "strict" | "off"
        self.transfers = bool(values.get("transfers", True))
        self.transfer_threshold = int(values.get("transfer_threshold", 10))

    @staticmethod
    def from_environment():
        text = os.environ.get("SHARPBITS_RUNTIME_OPTIONS")
        if not text:
            return None
        try:
            values = json.loads(text)
        except ValueError:
            return None
        return Options(values) if isinstance(values, dict) else None


# ------------------------------------------------------------------------------------------------ user frames


class _UserCode:
    """Which files are the user's: not the standard library, not installed packages (site-packages), not JAX,
    jaxlib, NumPy or this agent, and not `<frozen ...>` / `<string>` pseudo-files."""

    def __init__(self):
        skip = set()
        for name in ("stdlib", "platstdlib", "purelib", "platlib"):
            path = sysconfig.get_paths().get(name)
            if path:
                skip.add(os.path.realpath(path))
        skip.add(os.path.dirname(AGENT_FILE))
        for module in ("jax", "jaxlib", "numpy"):
            found = sys.modules.get(module)
            file = getattr(found, "__file__", None) if found is not None else None
            if file:
                skip.add(os.path.dirname(os.path.realpath(file)))
        self._skip = tuple(p.rstrip(os.sep) + os.sep for p in skip)
        self._cache = {}

    def __call__(self, filename):
        known = self._cache.get(filename)
        if known is not None:
            return known
        if not filename or filename.startswith("<"):
            result = False
        else:
            real = os.path.realpath(filename)
            result = not (real.startswith(self._skip) or f"{os.sep}site-packages{os.sep}" in real
                          or f"{os.sep}dist-packages{os.sep}" in real)
        self._cache[filename] = result
        return result


_is_user: Any = None


_positions: Any = weakref.WeakKeyDictionary()  # code object -> its co_positions() list (built once per code)


def _frame_site(frame):
    """(path, line, column, end_line, end_column, function) of a frame's current position; columns 1-based."""
    code = frame.f_code
    line = frame.f_lineno
    column, end_line, end_column = 1, line, 0
    try:
        table = _positions.get(code)
        if table is None:
            table = _positions[code] = list(code.co_positions())
        positions = table[frame.f_lasti // 2]
        if positions[0] == line and positions[2] is not None and positions[3] is not None:
            end_line = positions[1] or line
            column, end_column = _char_column(code.co_filename, line, positions[2]) + 1, \
                _char_column(code.co_filename, end_line, positions[3]) + 1
    except (AttributeError, IndexError, TypeError, ValueError):
        pass
    return {"path": code.co_filename, "line": line, "column": column, "end_line": end_line,
            "end_column": end_column, "function": code.co_name}


def _char_column(filename, line, byte_offset):
    """co_positions counts UTF-8 bytes; findings count characters."""
    import linecache

    text = linecache.getline(filename, line)
    if not text or text.isascii():
        return byte_offset
    return len(text.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore"))


def user_site(frame=None):
    """The innermost frame of the user's code on the current stack (or from `frame` outward), as a site dict."""
    frame = frame if frame is not None else sys._getframe(1)
    while frame is not None:
        if _is_user(frame.f_code.co_filename):
            return _frame_site(frame)
        frame = frame.f_back
    return None


def traceback_user_site(tb):
    """The innermost frame of the user's code in an exception's traceback."""
    found = None
    while tb is not None:
        if _is_user(tb.tb_frame.f_code.co_filename):
            found = {"path": tb.tb_frame.f_code.co_filename, "line": tb.tb_lineno, "column": 1,
                     "end_line": tb.tb_lineno, "end_column": 0, "function": tb.tb_frame.f_code.co_name}
        tb = tb.tb_next
    return found


def _source_info_site(source_info):
    """The innermost user frame of a jaxpr equation's source_info (None when it has none)."""
    traceback = getattr(source_info, "traceback", None)
    if traceback is None:
        return None
    try:
        frames = traceback.frames
    except Exception:
        return None
    for frame in frames:  # innermost first
        if _is_user(frame.file_name):
            return {"path": frame.file_name, "line": frame.line_num, "column": 1, "end_line": frame.line_num,
                    "end_column": 0, "function": frame.function_name}
    return None


def _short(site):
    return f"{_display_path(site['path'])}:{site['line']}" if site else "an unknown place"


def _display_path(path):
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


def _safe_repr(value, limit=60):
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


# ------------------------------------------------------------------------------------------------ records


class Recorder:
    """Aggregates occurrences per key and writes records as JSON lines: a record is written the first time it is
    seen and again when its count reaches a power of two, and all changed counts at `flush()` (exit, `os._exit`,
    SIGTERM). The reader keeps the last line per key."""

    def __init__(self, path):
        self._path = path
        self._file = None
        self._lock = threading.RLock()
        self.records = {}  # key -> record (a dict)
        self._written = {}  # key -> count last written
        self.context = {}  # e.g. {"test": nodeid}, set by the pytest plugin
        if path is not None:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0), 0o600)
            self._file = os.fdopen(fd, "a", encoding="utf-8")

    def hit(self, key, make, write_at=1, n=1):
        """`n` more occurrences of `key`; `make()` builds the record the first time. Returns the record. The record
        is not written before its count reaches `write_at` (e.g. a transfer before it happened often enough)."""
        with self._lock:
            record = self.records.get(key)
            if record is None:
                record = make()
                if record is None:
                    return None
                record["key"] = key
                record["count"] = 0
                record["version"] = RECORD_VERSION
                record["pid"] = os.getpid()
                record["write_at"] = write_at
                self.records[key] = record
            before = record["count"]
            record["count"] += n
            test = self.context.get("test")
            if test is not None:
                tests = record.setdefault("tests", [])
                if test not in tests and len(tests) < 5:
                    tests.append(test)
            count = record["count"]
            # written when it first counts, then each time the count passes a power of two
            if count >= record["write_at"] and (before < record["write_at"]
                                                or before.bit_length() < count.bit_length()):
                self._write(record)
            return record

    def update(self, record):
        with self._lock:
            if record["count"] >= record["write_at"]:
                self._write(record)

    def _write(self, record):
        self._written[record["key"]] = record["count"]
        if self._file is None:
            return
        try:
            self._file.write(json.dumps(record, separators=(",", ":"), default=str) + "\n")
            self._file.flush()
        except (OSError, ValueError):
            pass

    def flush(self):
        with self._lock:
            for key, record in self.records.items():
                if record["count"] >= record["write_at"] and self._written.get(key) != record["count"]:
                    self._write(record)

    def reported(self):
        """The records that count (reached their `write_at`), for an in-process reader (the pytest plugin)."""
        with self._lock:
            return [dict(r) for r in self.records.values() if r["count"] >= r["write_at"]]

    def clear(self):
        with self._lock:
            self.records.clear()
            self._written.clear()


_recorder: Any = None
_options: Any = None
_installed = False
_guard = threading.local()  # re-entrancy: our own work never records itself


class _Quiet:
    def __enter__(self):
        self.was = getattr(_guard, "busy", False)
        _guard.busy = True
        return self

    def __exit__(self, *exc):
        _guard.busy = self.was
        return False


def _busy():
    return getattr(_guard, "busy", False)


def _finding(kind, code, rule, severity, site, message, related=()):
    return {"kind": kind, "code": code, "rule": rule, "severity": severity, "site": site, "message": message,
            "related": list(related)}


# ------------------------------------------------------------------------------------------------ recompiles


class _FunctionCompiles:
    __slots__ = (
        "call_sites",
        "compile_seconds",
        "compiles",
        "definition",
        "distinct_functions",
        "functions",
        "identity",
        "name",
        "record",
        "scope",
        "signatures",
    )

    def __init__(self, identity, definition, scope):
        self.identity = identity
        self.name = identity[2]
        self.definition = definition
        self.scope = scope  # the test these compiles happened in (None: the whole program)
        self.signatures = []  # one per trace: dict component -> text
        self.compiles = 0
        self.compile_seconds = 0.0
        self.functions: Any = weakref.WeakSet()  # the live function objects jitted under this definition
        self.distinct_functions = 0  # how many different ones were traced (dead ones included)
        self.record = None
        self.call_sites = []


# (function identity (file, line, qualname), scope) -> _FunctionCompiles. The scope is the current test under the
# pytest plugin (each test counts its own compiles: parameterized cases that each compile a function once for their
# own shapes are no recompile), None for a whole program under `sharpbits run`.
_compiles: dict[Any, Any] = {}
# per function identity, over the whole run: [traces, {scopes it was traced in}] (the finding's context)
_compile_totals: dict[Any, Any] = {}
_recompile_records: dict[Any, Any] = {}  # function identity -> its SB601 record, once it has one
# per-test counts of implicit transfers at a line (pytest plugin only): record key -> count in the current test
_transfer_counts: dict[str, int] = {}
_per_test = {"on": False}


def _scope():
    return _recorder.context.get("test") if _per_test["on"] else None


def begin_test(nodeid):
    """The pytest plugin, as each test starts: from now on compiles, transfers and key uses are counted within this
    test (`nodeid`), and the previous test's counts are dropped. Findings already made stay."""
    _per_test["on"] = True
    _consumed.clear()
    _compiles.clear()
    _transfer_counts.clear()
    _recorder.context["test"] = nodeid


def end_test():
    _recorder.context.pop("test", None)


def _underlying(fun):
    seen = 0
    while seen < 20:
        seen += 1
        if isinstance(fun, functools.partial):
            fun = fun.func
            continue
        wrapped = getattr(fun, "__wrapped__", None)
        if wrapped is not None and wrapped is not fun:
            fun = wrapped
            continue
        break
    return fun


def _function_identity(fun):
    base = _underlying(fun)
    code = getattr(base, "__code__", None)
    if code is None:
        call = type(base).__dict__.get("__call__")
        code = getattr(call, "__code__", None)
    if code is None:
        return None, None
    name = getattr(base, "__qualname__", None) or getattr(base, "__name__", None) or code.co_name
    return (code.co_filename, code.co_firstlineno, name), code


def _find_frame(name, start, depth=12):
    frame = start
    while frame is not None and depth > 0:
        if frame.f_code.co_name == name and "jax" in frame.f_code.co_filename:
            return frame
        frame = frame.f_back
        depth -= 1
    return None


def _aval_text(aval):
    try:
        text = aval.str_short(short_dtypes=True)
    except Exception:
        text = str(aval)
    return text


def _signature(locals_):
    """The parts of a jit trace's cache key a user controls, as {component: text}."""
    dbg, avals, ji = locals_.get("dbg"), locals_.get("avals"), locals_.get("ji")
    args, kwargs = locals_.get("args") or (), locals_.get("kwargs") or {}
    names = list(getattr(dbg, "arg_names", None) or ())
    avals = list(avals or ())
    if len(names) != len(avals):
        names = [f"argument {i}" for i in range(len(avals))]
    signature = {"structure": ",".join(names)}
    for name, aval in zip(names, avals, strict=False):
        signature[f"shape:{name}"] = str(tuple(getattr(aval, "shape", ())))
        signature[f"dtype:{name}"] = str(getattr(aval, "dtype", "?"))
        signature[f"weak:{name}"] = "weak" if getattr(aval, "weak_type", False) else "strong"
        signature[f"aval:{name}"] = _aval_text(aval)
    static_argnums = tuple(getattr(ji, "static_argnums", ()) or ())
    params = []
    try:
        params = list(getattr(ji, "fun_signature", None).parameters)  # type: ignore[union-attr]
    except Exception:
        params = []
    for index in static_argnums:
        if 0 <= index < len(args):
            label = params[index] if index < len(params) else f"argument {index}"
            signature[f"static:{label}"] = _safe_repr(args[index])
    for name in tuple(getattr(ji, "static_argnames", ()) or ()):
        if name in kwargs:
            signature[f"static:{name}"] = _safe_repr(kwargs[name])
    return signature


def _def_line(code):
    """The `def` line of a function (co_firstlineno is its first decorator's)."""
    import linecache

    for line in range(code.co_firstlineno, code.co_firstlineno + 30):
        text = linecache.getline(code.co_filename, line).lstrip()
        if not text:
            break
        if text.startswith(("def ", "async def ", "lambda")) or ("lambda" in text and not text.startswith("@")):
            return line
    return code.co_firstlineno


def _on_trace(frame):
    locals_ = frame.f_locals
    fun = locals_.get("fun")
    if fun is None:
        return
    identity, code = _function_identity(fun)
    if identity is None or not _is_user(code.co_filename):
        return  # JAX's own jitted helpers (eager operations compile too)
    scope = _scope()
    entry = _compiles.get((identity, scope))
    if entry is None:
        line = _def_line(code)
        definition = {"path": code.co_filename, "line": line, "column": 1, "end_line": line, "end_column": 0,
                      "function": identity[2]}
        entry = _compiles[(identity, scope)] = _FunctionCompiles(identity, definition, scope)
    total = _compile_totals.get(identity)
    if total is None:
        total = _compile_totals[identity] = [0, set()]
    total[0] += 1
    if len(total[1]) < 1000:
        total[1].add(scope)
    recorded = _recompile_records.get(identity)
    if recorded is not None and scope is not None:  # the session's totals, for the report (pytest plugin)
        recorded["session_compiles"], recorded["session_tests"] = total[0], len(total[1])
    try:
        entry.signatures.append(_signature(locals_))
    except Exception:
        entry.signatures.append({})
    with contextlib.suppress(TypeError):
        base = _underlying(fun)
        if base not in entry.functions:
            entry.functions.add(base)
            entry.distinct_functions += 1
    site = user_site(frame)
    if site is not None and len(entry.call_sites) < 20:
        entry.call_sites.append(site)
    if _options.keys:
        with contextlib.suppress(Exception):
            _analyse_compiled_keys(fun, locals_, site)
    if len(entry.signatures) > _options.threshold:
        _report_recompiles(entry, site, total)


def _on_backend_compile(frame, duration):
    pjit_frame = _find_frame("_run_python_pjit", frame, depth=10)
    if pjit_frame is None:
        return
    identity, _ = _function_identity(pjit_frame.f_locals.get("fun"))
    entry = _compiles.get((identity, _scope())) if identity is not None else None
    if entry is None:
        return
    entry.compiles += 1
    entry.compile_seconds += float(duration)
    if entry.record is not None:
        entry.record["compile_seconds"] = round(entry.compile_seconds, 3)


def _distinct(values):
    out = []
    for value in values:
        if value not in out:
            out.append(value)
    return out


def explain_recompiles(name, signatures, distinct_functions):
    """What changed between the signatures a function was traced with, and how to avoid it: (changes, advice)."""
    changes: list[str] = []
    advice: list[str] = []
    if not signatures:
        return changes, advice
    keys = _distinct(k for s in signatures for k in s)
    structures = _distinct(s.get("structure") for s in signatures)
    if len(structures) > 1:
        changes.append(f"the structure of its arguments changed ({len(structures)} different pytree structures)")
        advice.append("pass the same pytree structure on every call (same dict keys, same list lengths, None "
                      "in the same places); an argument that is configuration (a mode, a flag, None or a value) "
                      "can be marked static (`static_argnames`) so that each variant compiles once, on purpose")
    for kind in ("shape", "dtype", "weak", "static"):
        for key in keys:
            if not key.startswith(kind + ":"):
                continue
            label = key.split(":", 1)[1]
            values = _distinct(s[key] for s in signatures if key in s)
            if len(values) < 2:
                continue
            shown = ", ".join(values[:5]) + (", ..." if len(values) > 5 else "")
            if kind == "shape":
                avals = _distinct(s[f"aval:{label}"] for s in signatures if f"aval:{label}" in s)
                shown = ", ".join(avals[:5]) + (", ..." if len(avals) > 5 else "") if avals else shown
                changes.append(f"argument `{label}` changed shape ({len(values)} shapes: {shown})")
                advice.append(f"pad `{label}` to a fixed shape, or bucket it to a few sizes (e.g. powers of two); "
                              "for a last, smaller batch, drop it or pad it")
            elif kind == "dtype":
                changes.append(f"argument `{label}` changed dtype ({shown})")
                advice.append(f"cast `{label}` to one dtype before the call")
            elif kind == "weak":
                changes.append(f"argument `{label}` was a weakly typed Python scalar in some calls and a typed array "
                               "in others")
                advice.append(f"pass `{label}` the same way every time, e.g. `jnp.asarray(value, jnp.float32)`")
            else:
                changes.append(f"static argument `{label}` took {len(values)} values ({shown})")
                advice.append(f"each value of static `{label}` compiles anew: make it a traced (non-static) argument "
                              "if it is a number, or keep its values few")
    if distinct_functions > 1:
        changes.append(f"`jax.jit` was applied to {distinct_functions} different function objects defined at the "
                       "same place (a lambda or inner function created again on each call or loop iteration)")
        advice.append("hoist the `jax.jit` out of the loop (or the function called in it): create the jitted "
                      "function once and reuse it")
    if not changes:
        changes.append("its arguments' shapes, dtypes and static values did not change: the tracing context did "
                       "(a config option, a mesh, a default device) or its jit cache was cleared")
        advice.append("keep jax.config and context managers the same around calls of the function")
    return changes, advice


def _report_recompiles(entry, site, total):
    """One record per function (its definition), placed at the call that compiled it the most times within one
    scope: a test under the pytest plugin (the record lists each test where it went past the threshold, with its
    count there), the whole program under `sharpbits run`."""
    traces = len(entry.signatures)
    changes, advice = explain_recompiles(entry.name, entry.signatures, entry.distinct_functions)
    within = f" within test `{entry.scope}`" if entry.scope is not None else ""
    message = (f"`{entry.name}` compiled {traces} times{within} (more than {_options.threshold}): "
               + "; ".join(changes) + ". To avoid it: " + "; ".join(_distinct(advice)) + ".")
    related = [dict(entry.definition, message=f"`{entry.name}` is defined here")]
    for other in entry.call_sites:
        if (site is None or (other["path"], other["line"]) != (site["path"], site["line"])) and \
                all((r["path"], r["line"]) != (other["path"], other["line"]) for r in related):
            related.append(dict(other, message=f"`{entry.name}` was also compiled for a call here"))
        if len(related) >= 4:
            break
    key = "recompile:" + ":".join(str(p) for p in (entry.definition["path"], entry.definition["line"], entry.name))
    where = site or entry.definition
    if entry.record is None:  # this scope's first time past the threshold (the record may exist from another)

        def make():
            record = _finding("recompile", "SB601", "recompilation", "warning", where, message, related)
            record["function"] = entry.name
            record["compiles_per_test"] = {}
            return record

        entry.record = _recorder.hit(key, make)
        _recompile_records[entry.identity] = entry.record
    record = entry.record
    if entry.scope is not None:
        record["session_compiles"], record["session_tests"] = total[0], len(total[1])
        per_test = record.setdefault("compiles_per_test", {})
        if entry.scope in per_test or len(per_test) < 20:
            per_test[entry.scope] = traces
    if traces > record.get("worst", 0) or record.get("worst_scope", entry.scope) == entry.scope:
        # the finding tells the scope that compiled it the most (the first of equals)
        record["worst_scope"] = entry.scope
        record["worst"] = traces
        record["site"] = where
        record["message"] = message
        record["related"] = related
    record["count"] = record["worst"]
    record["compile_seconds"] = round(entry.compile_seconds, 3)
    _recorder.update(record)


def _monitoring_listener(event, duration, **kwargs):
    if _busy() or event not in (JAXPR_TRACE_EVENT, BACKEND_COMPILE_EVENT):
        return
    with _Quiet():
        try:
            caller = sys._getframe(1)
            if event == JAXPR_TRACE_EVENT:
                frame = _find_frame("_trace_for_jit", caller, depth=6)
                if frame is not None:
                    _on_trace(frame)
            else:
                _on_backend_compile(caller, duration)
        except Exception:
            pass  # the instrumentation never breaks the program


# ------------------------------------------------------------------------------------------------ key reuse


class _Consumed:
    __slots__ = ("ref", "site", "what")

    def __init__(self, ref, site, what):
        self.ref, self.site, self.what = ref, site, what


_consumed: dict[int, Any] = {}  # id(key array) -> _Consumed


def reset_keys():
    """Forget which keys were consumed (each test starts afresh; `begin_test` does it too)."""
    _consumed.clear()


def _forget_key(ident, _ref):
    _consumed.pop(ident, None)


def _key_kind(key):
    try:
        import jax

        if jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key):
            return "typed key"
    except Exception:
        pass
    return "raw PRNGKey array"


def _consume_concrete(key, site, what):
    """A concrete key array consumed at `site` by `what`; a second consumption of the same array is a reuse."""
    try:
        import jax

        if isinstance(key, jax.core.Tracer) or not isinstance(key, jax.Array):
            return
    except Exception:
        return
    ident = id(key)
    known = _consumed.get(ident)
    if known is not None and known.ref() is key:
        _report_key_reuse(known.site, known.what, site, what, _key_kind(key))
        return
    try:
        ref = weakref.ref(key, functools.partial(_forget_key, ident))
    except TypeError:
        return
    _consumed[ident] = _Consumed(ref, site, what)


def _report_key_reuse(first, first_what, again, again_what, kind, traced_in=None):
    if again is None:
        return
    where = f" while tracing `{traced_in}`" if traced_in else ""
    if not first:
        first_text = first_what
    elif first["path"] == again["path"]:  # the usual case: the path is the row's own, so the line says it
        first_text = f"{first_what} (line {first['line']})"
    else:
        first_text = f"{first_what} ({_short(first)})"
    message = (f"PRNG key reused{where}: {again_what} draws the same bits as {first_text} from this {kind}; "
               "split it: `key, subkey = jax.random.split(key)`")
    related = [dict(first, message=f"first consumed here, by {first_what}")] if first else []
    key = "key-reuse:" + ":".join(str(p) for p in (again["path"], again["line"], again["column"],
                                                  first and first["path"], first and first["line"]))
    _recorder.hit(key, lambda: _finding("key-reuse", "SB201", "prng-key-reuse", "warning", again, message, related))


def _wrap_sampler(fn, name):
    @functools.wraps(fn)
    def sampler(*args, **kwargs):
        key = args[0] if args else kwargs.get("key")
        if key is not None and not _busy():
            with _Quiet(), contextlib.suppress(Exception):
                _consume_concrete(key, user_site(sys._getframe(1)), f"`jax.random.{name}`")
        return fn(*args, **kwargs)

    sampler.__sharpbits_wrapped__ = fn  # type: ignore[attr-defined]
    return sampler


# the key arguments each jitted function consumes: underlying function -> ((position or name, leaf index, label), ...)
_jit_key_arguments: Any = weakref.WeakKeyDictionary()


def _overlaps(a, b):
    """Two key identities overlap when one is the other or a part (slice) of it."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return long_[:len(short)] == short


class _KeyFlow:
    """Key identities through a jaxpr: each variable holding key data maps to a token (the input it came from, plus
    static slices of it); consuming primitives record (token, site, what). Sub-jaxprs (nested jit, scan, while, cond,
    custom derivatives, remat) are followed with their inputs mapped; a key that is the same in every iteration of
    a scan or while loop (a loop constant) and consumed in its body is consumed again in each iteration."""

    LOOP = ("loop-invariant",)

    def __init__(self):
        self.reuses = []  # (first site, first what, again site, again what)

    def run(self, jaxpr, in_tokens, default_site, default_what):
        """The consumptions [(token, site, what)] in `jaxpr`, in order; reuses inside it go to self.reuses."""
        env = {}
        for var, token in zip(jaxpr.invars, in_tokens, strict=False):
            if token is not None:
                env[var] = token
        consumed: list[Any] = []

        def token_of(atom):
            try:
                return env.get(atom)
            except TypeError:  # an unhashable literal
                return None

        def consume(token, site, what):
            for earlier_token, earlier_site, earlier_what in consumed:
                if _overlaps(_strip_marks(earlier_token), _strip_marks(token)):
                    self.reuses.append((earlier_site, earlier_what, site, what))
                    return
            consumed.append((token, site, what))

        for eqn in jaxpr.eqns:
            name = eqn.primitive.name
            site = _source_info_site(eqn.source_info) or default_site
            params = eqn.params
            if name in _CONSUMING_PRIMITIVES:
                token = token_of(eqn.invars[0]) if eqn.invars else None
                if token is not None:
                    consume(token, site, default_what or f"`{name}`")
                continue
            if name in _SAME_KEY_PRIMITIVES:
                token = token_of(eqn.invars[0]) if eqn.invars else None
                if token is not None:
                    for out in eqn.outvars:
                        env[out] = token
                continue
            if name == "slice":
                token = token_of(eqn.invars[0])
                if token is not None:
                    env[eqn.outvars[0]] = (*token, ("slice", tuple(params.get("start_indices", ())), tuple(params.get("limit_indices", ()))))
                continue
            if name in ("dynamic_slice", "gather"):
                token = token_of(eqn.invars[0])
                if token is not None:
                    literal = [getattr(atom, "val", None) for atom in eqn.invars[1:]]
                    if name == "dynamic_slice" and literal and all(v is not None for v in literal):
                        env[eqn.outvars[0]] = (*token, ("dslice", tuple(_safe_repr(v) for v in literal)))
                    else:
                        env[eqn.outvars[0]] = (*token, ("part", id(eqn)))
                continue
            inner = self._sub_jaxprs(eqn, [token_of(v) for v in eqn.invars])
            if inner is None:
                continue
            sub_what = default_what
            if sub_what is None and name in ("jit", "pjit", "closed_call", "core_call"):
                callee = str(params.get("name", ""))
                if callee.startswith("_") and callee.lstrip("_"):
                    sub_what = f"`jax.random.{callee.lstrip('_')}`"
            if name == "cond":  # one branch runs: a key consumed in two branches is consumed once
                union: list[Any] = []
                for sub, tokens in inner:
                    for item in self.run(sub, tokens, site, sub_what):
                        if all(not _overlaps(_strip_marks(item[0]), _strip_marks(other[0])) for other in union):
                            union.append(item)
                for token, s, w in union:
                    consume(token, s, w)
                continue
            for sub, tokens in inner:
                for token, s, w in self.run(sub, tokens, site, sub_what):
                    if token and token[0] == self.LOOP:
                        self.reuses.append((s, w, s, f"{w or 'the same code'} in the next iteration of the loop"))
                    consume(_strip_marks(token), s, w)
        return consumed

    def _sub_jaxprs(self, eqn, tokens):
        """[(jaxpr, tokens for its invars)] for an equation with sub-jaxprs whose inputs map to its own, or None."""
        params = eqn.params
        name = eqn.primitive.name
        if not any(t is not None for t in tokens):
            return None
        if name == "scan":
            closed = params.get("jaxpr")
            if closed is None:
                return None
            jaxpr = getattr(closed, "jaxpr", closed)
            num_consts = params.get("num_consts", 0)
            looping = params.get("length", 2) > 1
            marked = [((self.LOOP, *t) if looping else t) if (t is not None and i < num_consts) else
                      (None if i >= num_consts else t) for i, t in enumerate(tokens)]
            # carried and scanned-over keys are not followed: each iteration may see a new one
            return [(jaxpr, marked)] if len(jaxpr.invars) == len(tokens) else None
        if name == "while":
            body = params.get("body_jaxpr")
            if body is None:
                return None
            jaxpr = getattr(body, "jaxpr", body)
            cond_n, body_n = params.get("cond_nconsts", 0), params.get("body_nconsts", 0)
            marked = [(self.LOOP, *t) if t is not None else None for t in tokens[cond_n:cond_n + body_n]]
            marked += [None] * (len(jaxpr.invars) - len(marked))
            return [(jaxpr, marked)] if len(jaxpr.invars) == len(marked) else None
        if name == "cond":
            out = []
            for branch in params.get("branches") or ():
                jaxpr = getattr(branch, "jaxpr", branch)
                if len(jaxpr.invars) != len(tokens) - 1:
                    return None
                out.append((jaxpr, tokens[1:]))
            return out or None
        for key in ("jaxpr", "call_jaxpr", "fun_jaxpr"):
            closed = params.get(key)
            if closed is None:
                continue
            jaxpr = getattr(closed, "jaxpr", closed)
            if hasattr(jaxpr, "eqns") and len(getattr(jaxpr, "invars", ())) == len(tokens):
                return [(jaxpr, tokens)]
        return None


def _strip_marks(token):
    while token and token[0] == _KeyFlow.LOOP:
        token = token[1:]
    return token


def _run_key_flow(closed_jaxpr, default_site):
    """(consumptions, reuses) of a top-level jaxpr whose inputs are the jitted function's flat arguments."""
    flow = _KeyFlow()
    jaxpr = getattr(closed_jaxpr, "jaxpr", closed_jaxpr)
    consumed = flow.run(jaxpr, [(("in", i),) for i in range(len(jaxpr.invars))], default_site, None)
    return consumed, flow.reuses


def _analyse_compiled_keys(fun, locals_, call_site):
    """At each trace of a top-level jitted function: keys consumed twice inside it (findings), and which of its
    arguments it consumes (so that a call with an already consumed key array is a reuse)."""
    closed = locals_.get("jaxpr")
    if closed is None:
        return
    jaxpr = getattr(closed, "jaxpr", closed)
    identity, _ = _function_identity(fun)
    name = identity[2] if identity else "the function"
    definition_site = call_site
    consumed, reuses = _run_key_flow(jaxpr, definition_site)
    for first_site, first_what, again_site, again_what in reuses:
        _report_key_reuse(first_site, first_what or "a sampler", again_site, again_what or "a sampler",
                          "key", traced_in=name)
    consumed_inputs = sorted({t[0][1] for t, _, _ in consumed if t and t[0][0] == "in"})
    selectors = _argument_selectors(locals_, consumed_inputs)
    with contextlib.suppress(TypeError):
        _jit_key_arguments[_underlying(fun)] = selectors


def _argument_selectors(locals_, flat_indices):
    """Map flat dynamic-argument indices to (position or keyword, leaf index within it, label)."""
    if not flat_indices:
        return ()
    import jax

    args, kwargs, ji, dbg = (locals_.get("args") or (), locals_.get("kwargs") or {}, locals_.get("ji"),
                             locals_.get("dbg"))
    static_nums = set(getattr(ji, "static_argnums", ()) or ())
    static_names = set(getattr(ji, "static_argnames", ()) or ())
    names = list(getattr(dbg, "arg_names", None) or ())
    layout = []  # (selector, number of leaves)
    for i, arg in enumerate(args):
        if i not in static_nums:
            layout.append((i, len(jax.tree_util.tree_leaves(arg))))
    for name in sorted(kwargs):
        if name not in static_names:
            layout.append((name, len(jax.tree_util.tree_leaves(kwargs[name]))))
    total = sum(n for _, n in layout)
    avals = locals_.get("avals") or ()
    if total != len(avals):
        return ()
    selectors = []
    for flat in flat_indices:
        start = 0
        for selector, count in layout:
            if start <= flat < start + count:
                label = names[flat] if flat < len(names) else str(selector)
                selectors.append((selector, flat - start, count, label))
                break
            start += count
    return tuple(selectors)


class _Jitted:
    """What the wrapped `jax.jit` returns: the jitted function, plus, at each call, NumPy arrays among its
    arguments count as implicit host-to-device transfers, and the key arguments the function consumes count as
    consumed (a key array passed twice to such a function is a reuse)."""

    __slots__ = ("__dict__", "__weakref__", "_fun", "_jitted")

    def __init__(self, jitted, fun):
        self._jitted = jitted
        self._fun = _underlying(fun)
        with contextlib.suppress(AttributeError, TypeError):
            functools.update_wrapper(self, jitted)

    def __call__(self, *args, **kwargs):
        if _transfers_on and not _busy():
            for value in args:
                if type(value) is _np_ndarray:
                    self._host_argument(value)
                    break
        out = self._jitted(*args, **kwargs)
        selectors = _jit_key_arguments.get(self._fun) if not _busy() else None
        if selectors:
            with _Quiet(), contextlib.suppress(Exception):
                self._consume_arguments(selectors, args, kwargs)
        return out

    def _host_argument(self, value):
        with _Quiet():
            try:
                site = user_site(sys._getframe(2))
                if site is not None:
                    name = getattr(self._fun, "__qualname__", "a jitted function")
                    _report_transfer("h2d", site, f"a NumPy array ({value.dtype}{list(value.shape)}) passed to "
                                                  f"jitted `{name}`")
            except Exception:
                pass

    def _consume_arguments(self, selectors, args, kwargs):
        import jax

        site = None
        for selector, leaf, count, label in selectors:
            value = args[selector] if isinstance(selector, int) and selector < len(args) else kwargs.get(selector)
            if value is None:
                continue
            if count == 1 and isinstance(value, jax.Array):
                key = value
            else:
                leaves = jax.tree_util.tree_leaves(value)
                if len(leaves) != count:
                    continue
                key = leaves[leaf]
            if site is None:
                site = user_site(sys._getframe(2))
            name = getattr(self._fun, "__qualname__", "the jitted function")
            _consume_concrete(key, site, f"`{name}` (jitted; it consumes its argument `{label}`)")

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return functools.partial(self.__call__, instance)

    def __getattr__(self, name):
        return getattr(self._jitted, name)

    def __repr__(self):
        return repr(self._jitted)


def _wrap_jit(jit):
    @functools.wraps(jit)
    def wrapped_jit(fun=None, *args, **kwargs):
        if fun is None:  # jax.jit(static_argnums=...) used as a decorator factory
            return lambda f: wrapped_jit(f, *args, **kwargs)
        jitted = jit(fun, *args, **kwargs)
        if not callable(fun):
            return jitted
        return _Jitted(jitted, fun)

    wrapped_jit.__sharpbits_wrapped__ = jit  # type: ignore[attr-defined]
    return wrapped_jit


# ------------------------------------------------------------------------------------------------ NaN / Inf


_nan_state = {"found": False, "rerunning": False}


def _install_nans(jax):
    """`jax_debug_nans` makes JAX check the outputs of every operation and jitted call; JAX then raises at the first
    NaN (and prints to stdout). Here the same checks only record: the program's behaviour, output and exit status
    stay as they were. A jitted function's NaN output is traced back, as JAX does, by running the function again
    op by op (with `jit` disabled, its output and any key use discarded) to find the first operation producing it.
    Only the first NaN is traced: later ones mostly follow from it, and the checks stop costing anything."""
    import contextlib
    import io

    from jax._src import api_util, dispatch

    jax.config.update("jax_debug_nans", True)
    original_check = dispatch._check_special

    def check_special(name, dtype, buf):
        if _nan_state["found"] and not _nan_state["rerunning"]:
            return
        try:
            original_check(name, dtype, buf)
        except api_util.InternalFloatingPointError as exc:
            with contextlib.suppress(Exception):
                _locate_nan(sys._getframe(1), name, exc.ty)

    def _locate_nan(frame, name, ty):
        pjit_frame = _find_frame("_run_python_pjit", frame, depth=12)
        fun = pjit_frame.f_locals.get("fun") if pjit_frame is not None else None
        if pjit_frame is None or getattr(fun, "_apply_primitive", False):  # an operation: this is the origin
            if not _nan_state["found"]:
                _nan_state["found"] = True
                with _Quiet():
                    shown = name[4:-1] if name.startswith("jit(") and name.endswith(")") else name
                    _report_nan(user_site(frame), ty, f"`{shown}`")
            return
        if _nan_state["rerunning"]:
            return  # a nested jitted function inside the re-run: its own operations are checked one by one
        site = user_site(frame)
        args, kwargs = pjit_frame.f_locals.get("args") or (), pjit_frame.f_locals.get("kwargs") or {}
        _nan_state["rerunning"] = True
        try:
            with _Quiet(), jax.disable_jit(), contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                fun(*args, **kwargs)  # type: ignore[misc]
        except Exception:
            pass
        finally:
            _nan_state["rerunning"] = False
        if not _nan_state["found"]:
            _nan_state["found"] = True
            with _Quiet():
                _report_nan(site, ty, f"`{getattr(fun, '__qualname__', 'the jitted function')}`", optimized_only=True)

    dispatch._check_special = check_special


def _report_nan(site, ty, where, optimized_only=False):
    if site is None:
        return
    word = "NaN" if ty == "nan" else "Inf"
    if optimized_only:
        message = (f"{word} in the output of jitted {where}, called here; run without `jit`, no single operation "
                   f"produced it (an effect of XLA's optimizations, or a {word} literal). Check the inputs, or run "
                   "the function without `jit` to narrow it down.")
    else:
        message = (f"first {word} produced here, by {where} (found by jax_debug_nans at the operation that made it). "
                   "Guard the operation's inputs (e.g. `jnp.where` before a `log`, `sqrt` or division, a small "
                   "epsilon, or clipping), and look at the values that reach this line.")
    key = f"nan:{site['path']}:{site['line']}:{site['column']}"
    _recorder.hit(key, lambda: _finding("nan", "SB602", "nan-origin", "error", site, message))


# ------------------------------------------------------------------------------------------------ tracer leaks


def _install_leaks(jax, strict):
    from jax._src import core

    if strict:
        jax.config.update("jax_check_tracer_leaks", True)
    original_escaped = core.escaped_tracer_error
    original_leaked = core.leaked_tracer_error

    def escaped_tracer_error(tracer, detail=None):
        error = original_escaped(tracer, detail)
        if not _busy():
            with _Quiet():
                try:
                    used = user_site(sys._getframe(1))
                    created = _tracer_origin(tracer)
                    _report_leak(created, used, tracer)
                except Exception:
                    pass
        return error

    def leaked_tracer_error(name, t, tracers):
        error = original_leaked(name, t, tracers)
        if not _busy():
            with _Quiet():
                try:
                    for tracer in tracers[:3]:
                        _report_leak(_tracer_origin(tracer), None, tracer)
                except Exception:
                    pass
        return error

    core.escaped_tracer_error = escaped_tracer_error
    core.leaked_tracer_error = leaked_tracer_error


def _tracer_origin(tracer):
    info = getattr(tracer, "_line_info", None)
    site = _source_info_site(info) if info is not None else None
    return site


def _report_leak(created, used, tracer):
    site = created or used
    if site is None:
        return
    try:
        aval = tracer.aval.str_short()
    except Exception:
        aval = "a value"
    dbg = getattr(tracer, "_debug_info", None)
    function = getattr(dbg, "func_name", None) if dbg is not None else None
    inside = f" inside `{function}` while it was being traced" if function else " while a function was traced"
    message = (f"tracer leak: a traced intermediate ({aval}) created here{inside} escaped the transformation "
               "(stored in a global, a list, an attribute or a closure) and was used after it ended. Return the "
               "value from the function instead of saving it.")
    related = [dict(used, message="the leaked tracer was used here")] if (used and created) else []
    key = f"leak:{site['path']}:{site['line']}"
    _recorder.hit(key, lambda: _finding("leak", "SB603", "tracer-leak", "error", site, message, related))


# ------------------------------------------------------------------------------------------------ transfers


_transfers_on = False
_np_ndarray: Any = None
_EXPLICIT_TRANSFER_FUNCTIONS = frozenset({
    "device_put", "_device_put_impl", "device_put_sharded", "device_put_replicated", "asarray", "array",
    "make_array_from_callback", "make_array_from_single_device_arrays", "device_get", "_check_special",
    "check_special", "check_special_array",
})


_REPR_NAMES = frozenset({"__repr__", "__str__", "__format__"})
_jax_dir = ""  # JAX's own package folder (set when the transfer hooks are installed)


def _transfer_site(frame):
    """The user's line behind a transfer, or None when it is explicit or made by JAX (or NumPy) for itself, or a
    jitted call's argument (counted by _Jitted). A value printed by JAX itself (a transformation's debug info
    reprs the arguments of a `functools.partial`: `jax.jacobian` of a jitted function did, once per call) is
    JAX's own read: a repr reached from JAX's code before any user frame."""
    in_repr = False
    while frame is not None:
        code = frame.f_code
        if code is _Jitted.__call__.__code__:
            return None
        if code.co_name in _EXPLICIT_TRANSFER_FUNCTIONS and not _is_user(code.co_filename):
            return None
        if _is_user(code.co_filename):
            return _frame_site(frame)
        if code.co_name in _REPR_NAMES:
            in_repr = True
        elif in_repr and _jax_dir and code.co_filename.startswith(_jax_dir):
            return None
        frame = frame.f_back
    return None


def _report_transfer(direction, site, detail):
    """Counted per line, over the whole program under `sharpbits run`; under the pytest plugin within each test
    (assertions once per parameterized case are no loop): a line reported when one test reaches the threshold, and
    its count is then the occurrences in the tests that did."""
    threshold = _options.transfer_threshold
    key = f"transfer:{direction}:{site['path']}:{site['line']}:{site['column']}"
    in_test = _per_test["on"] and _recorder.context.get("test") is not None
    if in_test:
        seen = _transfer_counts.get(key, 0) + 1
        _transfer_counts[key] = seen
        if seen < threshold:
            return
    within = "in one test" if in_test else "here"

    def make():
        if direction == "h2d":
            message = (f"implicit host-to-device transfer: {detail} is copied to the device on every call here "
                       f"(seen {threshold} times or more {within}, so it is in a loop). Move it to the device once, "
                       "before the loop, with `jax.device_put` (or build it with jax.numpy).")
        else:
            message = (f"implicit device-to-host transfer: {detail} waits for the device and copies the value to "
                       f"the host (seen {threshold} times or more {within}, so it is in a loop). Keep values on the device "
                       "inside the loop; fetch them every N steps, or once after the loop with `jax.device_get`.")
        return _finding("transfer", "SB604", "implicit-transfer", "warning", site, message)

    if in_test:  # this test's earlier occurrences count too, once it reaches the threshold
        _recorder.hit(key, make, n=threshold if seen == threshold else 1)
    else:
        _recorder.hit(key, make, write_at=threshold)


def _install_transfers(jax):
    import numpy as np
    from jax._src import array as array_module
    from jax._src.interpreters import pxla

    array_impl = array_module.ArrayImpl
    value_property = array_impl.__dict__.get("_value")
    if isinstance(value_property, property) and value_property.fget is not None:
        original_get = value_property.fget

        def _value(self):
            if getattr(self, "_npy_value", 1) is None and not _busy():
                with _Quiet():
                    try:
                        site = _transfer_site(sys._getframe(1))
                        if site is not None:
                            _report_transfer("d2h", site, f"reading a {self.dtype}{list(self.shape)} array")
                    except Exception:
                        pass
            return original_get(self)

        array_impl._value = property(_value, doc=value_property.__doc__)  # type: ignore[method-assign]

    global _transfers_on, _np_ndarray, _jax_dir
    _np_ndarray = np.ndarray
    _jax_dir = os.path.dirname(os.path.abspath(jax.__file__)) + os.sep
    _transfers_on = True
    handler = pxla.shard_arg_handlers.get(np.ndarray)
    if handler is not None:
        def shard_np_array(xs, *rest, **kwargs):
            if not _busy():
                with _Quiet():
                    try:
                        site = _transfer_site(sys._getframe(1))
                        if site is not None and xs:
                            first = xs[0]
                            _report_transfer("h2d", site, f"a NumPy array ({first.dtype}{list(first.shape)})")
                    except Exception:
                        pass
            return handler(xs, *rest, **kwargs)

        for kind, known in list(pxla.shard_arg_handlers.items()):  # every NumPy type JAX copies the same way
            if known is handler:
                pxla.shard_arg_handlers[kind] = shard_np_array


# ------------------------------------------------------------------------------------------------ install


def _instrument_jax():
    """Called once JAX is imported (now, or by the import hook)."""
    global _is_user
    import jax
    import jax.monitoring

    _is_user = _UserCode()  # now that jax's and numpy's folders are known
    jax.monitoring.register_event_duration_secs_listener(_monitoring_listener)  # type: ignore[arg-type]
    if _options.keys:
        import jax.random as random_module

        for name in dir(random_module):
            if name.startswith("_") or name in _NOT_CONSUMING:
                continue
            fn = getattr(random_module, name)
            if callable(fn) and not isinstance(fn, type) and not hasattr(fn, "__sharpbits_wrapped__"):
                setattr(random_module, name, _wrap_sampler(fn, name))
        if not hasattr(jax.jit, "__sharpbits_wrapped__"):
            jax.jit = _wrap_jit(jax.jit)
    for install, enabled in ((_install_nans, _options.nans), (_install_transfers, _options.transfers)):
        if enabled:
            try:
                install(jax)
            except Exception as exc:  # a JAX version without the hook: that check is off, the program runs
                _note(f"{install.__name__[9:]} check unavailable: {type(exc).__name__}: {exc}")
    if _options.leaks != "off":
        try:
            _install_leaks(jax, strict=_options.leaks == "strict")
        except Exception as exc:
            _note(f"leaks check unavailable: {type(exc).__name__}: {exc}")


def _note(text):
    _recorder.hit(f"note:{text}", lambda: {"kind": "note", "message": text})


class _JaxImportHook:
    """A meta path finder that instruments JAX right after `import jax` finishes (JAX is never imported for
    programs that do not use it)."""

    def find_spec(self, name, path=None, target=None):
        if name != "jax":
            return None
        import importlib.util

        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec("jax")
        finally:
            pass
        if spec is None or spec.loader is None:
            return None
        loader = spec.loader
        original_exec = loader.exec_module

        def exec_module(module):
            original_exec(module)
            try:
                _instrument_jax()
            except Exception as exc:
                _note(f"instrumentation failed: {type(exc).__name__}: {exc}")

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install(options):
    """Starts the agent in this process: records go to a file in `options.out_dir`. Idempotent."""
    global _recorder, _options, _installed, _is_user
    if _installed:
        return _recorder
    _installed = True
    _options = options
    path = os.path.join(options.out_dir, f"records-{os.getpid()}.jsonl") if options.out_dir else None
    _recorder = Recorder(path)
    _is_user = _UserCode()
    atexit.register(_recorder.flush)
    _patch_exit()
    if "jax" in sys.modules:
        _instrument_jax()
    else:
        sys.meta_path.insert(0, _JaxImportHook())
    return _recorder


def _patch_exit():
    original_exit = os._exit

    def _exit(status):
        with contextlib.suppress(Exception):
            _recorder.flush()
        original_exit(status)

    os._exit = _exit
    try:
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            def on_term(signum, frame):
                try:
                    _recorder.flush()
                finally:
                    signal.signal(signal.SIGTERM, signal.SIG_DFL)
                    os.kill(os.getpid(), signal.SIGTERM)

            signal.signal(signal.SIGTERM, on_term)
    except (ValueError, OSError):
        pass


def install_from_environment():
    options = Options.from_environment()
    if options is None:
        return None
    return install(options)
