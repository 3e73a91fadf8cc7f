"""A document's analysis in a process of its own, stopped for real when it overruns its budget (issue 24, item 5).

The language server analyses in a thread (lsp/language_server.py): fast, and the document's incremental state
is reused from version to version. A thread cannot be killed, though, and a pathological file (one function of
thousands of statements, a generated module) can keep a rule busy for seconds while it holds the interpreter.
So an analysis that overruns a short in-thread limit is stopped there (an asynchronous exception in its thread,
`stop_thread`) and done again here, in a child process that the server kills when the document's budget
(`sharpbits.analysisBudgetMs`) runs out:

- the child is started isolated: `python -I` (no PYTHON* variables, no user site, and neither the working
  directory nor the script's folder on `sys.path`), in a neutral working directory (the file system's root), with
  only the sharpbits package's own folder put on its path. It reads one JSON request (the text, its path, the
  rule selection, and the project: its roots and the editor's texts of the open documents) on stdin and never
  imports or runs anything of the workspace: like the server's own analysis (and `sharpbits check`), it reads
  the source text of the project's modules a call leads to (`project_record`: the project index,
  analysis/project_index.py), so a finding that depends on another module is the same as in the server's thread;
- it runs the model and then each rule in turn, and writes one JSON line per rule as soon as that rule is done.
  When the budget runs out the server kills the child: the rules that finished keep their findings, the rule that
  was running is named in a diagnostic on line 1 and in the log, and the rules after it run in a new child with a
  budget of their own (each stopped rule is left out of the next try);
- the server applies severities, suppressions (with the rules that ran) and the order as `engine.analyze_parsed`
  does, so a run that nothing stopped gives the findings `analyze` gives (tests/lsp/test_analysis_budget.py).

A fix is built from the model, which stays in the child; so a finding that comes back from a child says only that
it has one (`fixable`), and its fix is built on demand, when a code action asks for it (`ChildFixes`): in another
isolated child, started the same way and killed at the same budget, that parses the text again, runs only the rules
whose findings are fixable and writes each fix as JSON (`Fix` is plain data). The fix asked for is built first and
returned as soon as it arrives; the same child goes on with every other fixable finding of that text (fix-all and
the next quick fix then need no child of their own).

A notebook is analysed the same way (lsp/notebooks.py): its program (the code cells concatenated) is the text, with
its `%timeit` regions (`timed_regions`), and findings are mapped back to cells by the adapter.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import ctypes
import json
import logging
import os
import queue
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sharpbits.analysis import engine, suppressions
from sharpbits.analysis.engine import AnalysisResult, Selection, TracedFunction
from sharpbits.analysis.model import ModuleModel
from sharpbits.analysis.parsing import TargetVersion, parse_module
from sharpbits.analysis.project_index import ProjectIndex
from sharpbits.analysis.rules import lookup
from sharpbits.analysis.rules.base import RuleContext, TimedRegion
from sharpbits.findings import Finding, Fix, TextEdit
from sharpbits.source import SourceText

log = logging.getLogger("sharpbits.lsp")

START_S = 60.0  # for a child to start (import the analysis) before its budget counts: a loaded machine is slow
# Fault injection for the tests (tests/lsp/test_analysis_budget.py), as engine.STALL_RULE: when set, a child that
# builds fixes spins before it builds any for a text holding engine.STALL_MARK (a fix that takes the whole budget).
STALL_FIXES = bool(os.environ.get("SHARPBITS_DEBUG_STALL_FIXES"))
MODEL = "the model"  # what `Outcome.stopped` names when the child was stopped before any rule ran
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding the sharpbits package
CHILD_CODE = ("import sys; sys.path.insert(0, sys.argv[1]); "
              "from sharpbits.lsp.analysis_process import child_main; child_main()")


def child_command() -> list[str]:
    """The child's command line: isolated (`-I`), with only our package's folder added to its path."""
    return [sys.executable, "-I", "-c", CHILD_CODE, PACKAGE_ROOT]


def neutral_cwd() -> str:
    return os.path.abspath(os.sep)


# ---- the child ---------------------------------------------------------------------------------------------------


def child_main() -> None:
    """Says {"ready": true} once imported, reads one request on stdin, writes one JSON line per step on stdout
    (see `run_rules`)."""
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    out = sys.stdout
    out.write('{"ready": true}\n')
    out.flush()
    request = json.loads(sys.stdin.buffer.read())

    def emit(record: dict[str, Any]) -> None:
        out.write(json.dumps(record) + "\n")
        out.flush()

    try:
        if "fixes" in request:
            build_fixes(request, emit)
        else:
            run_rules(request, emit)
    except Exception as exc:  # a bug of ours: the server logs it
        emit({"failed": f"{type(exc).__name__}: {exc}"})


def _exit_with_parent(parent: int, every_s: float = 0.5) -> None:
    """Ends the child when the server that started it is gone (killed, crashed): the server kills a child at the
    budget, and a child that outlived it would otherwise run, spinning on a hostile text, for ever. (POSIX: the
    orphan's parent changes; on Windows the parent id stays, and the child ends at the end of its work.)"""
    while os.getppid() == parent:
        time.sleep(every_s)
    os._exit(1)


def run_rules(request: dict[str, Any], emit: Callable[[dict[str, Any]], None]) -> None:
    """The engine's steps (analyze_parsed) one at a time: {"model": s}, then {"rule": name, "findings": [...]} for
    each rule in `request["rules"]` order, then {"functions": [...]}; {"syntax_error": finding} when the text does
    not parse or is nested too deeply to analyse."""
    source = SourceText(request["path"], request["text"])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = parse_module(source.text, filename=source.path)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        error = engine.unparsable(source, exc).syntax_error
        emit({"syntax_error": error.to_json(with_fix=False) if error else None})
        return
    try:
        started = time.perf_counter()
        model = _model(tree, source, project_from(request))
        emit({"model": time.perf_counter() - started})
        for name in request["rules"]:
            rule_cls = lookup(name)
            if rule_cls is None:
                continue
            engine.stall_if_asked(name, source.text)
            ctx = RuleContext(source, tree, model, rule_cls(), timed_regions=regions_from(request),
                              target=target_from(request))
            ctx.rule.check(ctx)
            emit({"rule": name, "findings": [finding_record(f) for f in ctx.found]})
        functions = engine._traced_functions(model, source)
    except RecursionError:
        error = engine.unparsable(source, SyntaxError("the code is nested too deeply to analyse")).syntax_error
        emit({"syntax_error": error.to_json(with_fix=False) if error else None})
        return
    emit({"functions": [function_record(fn) for fn in functions]})


def build_fixes(request: dict[str, Any], emit: Callable[[dict[str, Any]], None]) -> None:
    """The fixes of findings an earlier child reported for the same text: `request["fixes"]` is a list of
    [rule, index among that rule's findings] in the order wanted. Writes {"model": s}, then {"fix_of": [rule,
    index], "fix": fix or null} for each, as soon as it is built (`Finding.fix`: checked to parse)."""
    source = SourceText(request["path"], request["text"])
    while STALL_FIXES and engine.STALL_MARK in source.text:
        pass
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = parse_module(source.text, filename=source.path)
    started = time.perf_counter()
    model = _model(tree, source, project_from(request))
    emit({"model": time.perf_counter() - started})
    found: dict[str, list[Finding]] = {}
    for name, index in request["fixes"]:
        if name not in found:
            rule_cls = lookup(name)
            if rule_cls is None:
                found[name] = []
            else:
                ctx = RuleContext(source, tree, model, rule_cls(), timed_regions=regions_from(request))
                ctx.rule.check(ctx)
                found[name] = ctx.found
        findings = found[name]
        fix = findings[index].fix() if 0 <= index < len(findings) else None
        emit({"fix_of": [name, index], "fix": fix.to_json() if fix is not None else None})


def project_record(index: ProjectIndex | None, documents: Iterable[tuple[str, str]]) -> dict[str, Any] | None:
    """What a child needs to build the server's project index again: its roots and the texts it was fed (the
    open documents, (path, text): the editor's text, maybe unsaved); the rest it reads from disk, as the server's
    index does. None without an index."""
    if index is None:
        return None
    return {"roots": [str(root) for root in list(index.roots)], "fed": [[path, text] for path, text in documents]}


def project_from(request: dict[str, Any]) -> ProjectIndex | None:
    record = request.get("project")
    if not isinstance(record, dict):
        return None
    index = ProjectIndex(Path(root) for root in record["roots"])
    for path, text in record["fed"]:
        index.update(path, text, lazy=True)
    return index


def _model(tree: ast.Module, source: SourceText, project: ProjectIndex | None) -> ModuleModel:
    return ModuleModel(tree, None, project.view(source.path, tree) if project is not None else None)


def regions_from(request: dict[str, Any]) -> tuple[TimedRegion, ...]:
    return tuple(TimedRegion(a, b, timer) for a, b, timer in request.get("timed_regions") or ())


def regions_record(regions: Iterable[TimedRegion]) -> list[list[Any]]:
    return [[r.first_line, r.last_line, r.timer] for r in regions]


def target_from(request: dict[str, Any]) -> TargetVersion | None:
    record = request.get("target")
    return TargetVersion(*record) if record else None


def target_record(target: TargetVersion | None) -> list[Any] | None:
    return [target.major, target.minor, target.source] if target is not None else None


def finding_record(finding: Finding) -> dict[str, Any]:
    return {**finding.to_json(with_fix=False), "fix_title": finding.fix_title, "fixable": finding.fixable}


def finding_from(record: dict[str, Any], text: str, fix_builder: Callable[[], Fix | None] | None = None) -> Finding:
    """A finding a child wrote; `fix_builder`: how its fix is built here (ChildFixes), None when it has none."""
    return Finding(path=record["path"], line=record["line"], column=record["column"], end_line=record["end_line"],
                   end_column=record["end_column"], code=record["code"], rule=record["rule"],
                   severity=record["severity"], message=record["message"], url=record["url"], cell=record["cell"],
                   fix_title=record.get("fix_title") or "", source_text=text, fix_builder=fix_builder,
                   builder_checks_fix=fix_builder is not None)  # the child checked it parses, on the same text


def fix_from(record: dict[str, Any]) -> Fix:
    return Fix(bool(record["safe"]), str(record["description"]), tuple(
        TextEdit(e["line"], e["column"], e["end_line"], e["end_column"], e["new_text"], e.get("cell"))
        for e in record["edits"]))


def function_record(fn: TracedFunction) -> dict[str, Any]:
    return {"qualname": fn.qualname, "line": fn.line, "column": fn.column, "end_column": fn.end_column,
            "end_line": fn.end_line, "reason": fn.reason, "loops": [list(span) for span in fn.loops]}


def function_from(record: dict[str, Any]) -> TracedFunction:
    return TracedFunction(record["qualname"], record["line"], record["column"], record["end_column"],
                          record["end_line"], record["reason"], tuple((a, b) for a, b in record["loops"]))


# ---- the server's side -------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What the child processes gave for one document version."""

    result: AnalysisResult
    stopped: list[str] = field(default_factory=list)  # rules (or MODEL) stopped at the budget, in order
    not_run: list[str] = field(default_factory=list)  # rules never started (the model itself overran)
    seconds: float = 0.0
    fixes: ChildFixes | None = None  # builds the fixes of `result`'s findings (None for a text that did not parse)


class Killed(Exception):
    """The run was abandoned (a newer version of the document, or the document closed): its child is killed."""


class IsolatedRun:
    """One document version analysed in child processes; `kill()` (from the event loop) ends it at once."""

    def __init__(self) -> None:
        self._proc: asyncio.subprocess.Process | None = None
        self.killed = False

    def kill(self) -> None:
        self.killed = True
        if self._proc is not None and self._proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._proc.kill()

    async def analyse(self, text: str, path: str, selection: Selection, budget_s: float,
                      timed_regions: tuple[TimedRegion, ...] = (), project: dict[str, Any] | None = None) -> Outcome:
        """Every selected rule, each child process getting `budget_s` (see the module docstring). `timed_regions`:
        as for `engine.analyze` (a notebook's `%timeit` lines). `project`: `project_record` of the server's index
        (None: calls into other modules stay unknown)."""
        started = time.monotonic()
        pending = [rule.name for rule in selection.rules()]
        findings: list[Finding] = []
        ran: set[str] = set()
        stopped: list[str] = []
        functions: list[TracedFunction] = []
        fixes = ChildFixes(text, path, timed_regions, budget_s, project)
        while True:
            records, finished = await self._child(text, path, pending, budget_s, timed_regions, project,
                                                  selection.target)
            for record in records:
                if "syntax_error" in record:
                    error = record["syntax_error"]
                    return Outcome(AnalysisResult([], finding_from(error, text) if error else None),
                                   seconds=time.monotonic() - started)
                if "failed" in record:
                    raise RuntimeError(f"the analysis process failed: {record['failed']}")
                if "rule" in record:
                    name = record["rule"]
                    ran.add(name)
                    findings += [finding_from(r, text, fixes.builder(name, i) if r.get("fixable") else None)
                                 for i, r in enumerate(record["findings"])]
                    pending.remove(name)
                if "functions" in record:
                    functions = [function_from(r) for r in record["functions"]]
            if finished:
                break
            if not any("model" in r for r in records):
                stopped.append(MODEL)  # the model alone overran: no rule can run
                break
            stopped.append(pending.pop(0))
            if not pending:
                break
        for f in findings:
            if f.rule in selection.severities:
                f.severity = selection.severities[f.rule]
        findings = suppressions.apply(findings, SourceText(path, text), ran, selection.severities)
        findings.sort(key=lambda f: (f.line, f.column, f.code))
        not_run = pending if stopped and stopped[-1] == MODEL else []
        return Outcome(AnalysisResult(findings, functions=functions), stopped, not_run, time.monotonic() - started,
                       fixes)

    async def _child(self, text: str, path: str, rules: list[str], budget_s: float,
                     timed_regions: tuple[TimedRegion, ...] = (), project: dict[str, Any] | None = None,
                     target: TargetVersion | None = None,
                     ) -> tuple[list[dict[str, Any]], bool]:
        """(the records one child wrote, whether it finished) for `rules`; killed at `budget_s`."""
        if self.killed:
            raise Killed
        proc = self._proc = await asyncio.create_subprocess_exec(
            *child_command(), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, cwd=neutral_cwd(), limit=1 << 30)  # one rule's findings: one line
        assert proc.stdin is not None and proc.stdout is not None
        records: list[dict[str, Any]] = []
        try:
            proc.stdin.write(json.dumps({"text": text, "path": path, "rules": rules, "project": project,
                                         "timed_regions": regions_record(timed_regions),
                                         "target": target_record(target)}).encode())
            with contextlib.suppress(ConnectionError):
                await proc.stdin.drain()
            proc.stdin.close()
            try:  # the budget counts from when the child is ready: its start-up is not the document's doing
                ready = await asyncio.wait_for(proc.stdout.readline(), START_S)
            except asyncio.TimeoutError:
                ready = b""
            if json.loads(ready or "{}").get("ready") is not True:
                if self.killed:
                    raise Killed
                raise RuntimeError("the analysis process did not start")
            deadline = time.monotonic() + budget_s
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return records, False
                try:
                    line = await asyncio.wait_for(proc.stdout.readline(), left)
                except asyncio.TimeoutError:
                    return records, False
                if not line:
                    if self.killed:
                        raise Killed
                    if not any("functions" in r or "syntax_error" in r or "failed" in r for r in records):
                        raise RuntimeError(f"the analysis process ended early (exit status {await proc.wait()})")
                    return records, True
                records.append(json.loads(line))
        finally:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
            await proc.wait()
            self._proc = None


class ChildFixes:
    """The fixes of the findings child processes reported for one text, built on demand in a child of their own
    (`build_fixes`), killed at the budget. Blocking: called from `Finding.fix`, off the event loop (code actions
    build and resolve fixes in the analysis pool). The fix asked for is built first and returned as soon as it
    arrives; the same child goes on (in a thread of its own) with every other fixable finding's, which later calls
    wait for. A fix the budget cut off is tried again when it is asked for itself, once."""

    def __init__(self, text: str, path: str, timed_regions: tuple[TimedRegion, ...], budget_s: float,
                 project: dict[str, Any] | None = None) -> None:
        self.text, self.path, self.timed_regions, self.budget_s = text, path, timed_regions, budget_s
        self.project = project
        self._changed = threading.Condition()
        self._wanted: list[tuple[str, int]] = []  # every fixable finding, as (rule, index among its findings)
        self._built: dict[tuple[str, int], Fix | None] = {}
        self._coming: set[tuple[str, int]] = set()  # asked of a child that is still running
        self._asked: set[tuple[str, int]] = set()  # asked for itself: not tried again
        self.children = 0  # how many fix children were started (for the tests)

    def builder(self, rule: str, index: int) -> Callable[[], Fix | None]:
        self._wanted.append((rule, index))
        return lambda: self.fix(rule, index)

    def fix(self, rule: str, index: int) -> Fix | None:
        origin = (rule, index)
        with self._changed:
            while True:
                if origin in self._built:
                    return self._built[origin]
                if origin in self._coming:
                    self._changed.wait()
                elif origin in self._asked:
                    return None  # its child ended (the budget, a failure) before it came
                else:
                    self._asked.add(origin)
                    batch = [origin] + [o for o in self._wanted if o != origin and o not in self._built
                                        and o not in self._coming]
                    self._coming.update(batch)
                    self.children += 1
                    threading.Thread(target=self._build, args=(batch,), daemon=True,
                                     name="sharpbits-fixes").start()

    def _build(self, batch: list[tuple[str, int]]) -> None:
        try:
            self._run_child(batch)
        except Exception:  # a bug of ours: no fix rather than a failed code action
            log.exception("building fixes in a child process failed")
        finally:
            with self._changed:
                self._coming.difference_update(batch)
                self._changed.notify_all()

    def _run_child(self, batch: list[tuple[str, int]]) -> None:
        request = json.dumps({"text": self.text, "path": self.path, "fixes": batch, "project": self.project,
                              "timed_regions": regions_record(self.timed_regions)}).encode()
        proc = subprocess.Popen(child_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, cwd=neutral_cwd())
        lines: queue.Queue[bytes] = queue.Queue()

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line)
            lines.put(b"")

        def write() -> None:
            assert proc.stdin is not None
            with contextlib.suppress(OSError):
                proc.stdin.write(request)
                proc.stdin.close()

        threads = [threading.Thread(target=read, daemon=True), threading.Thread(target=write, daemon=True)]
        for thread in threads:
            thread.start()
        try:
            deadline = time.monotonic() + START_S  # the budget counts from when the child is ready
            while True:
                try:
                    line = lines.get(timeout=max(deadline - time.monotonic(), 0.0))
                except queue.Empty:
                    return
                if not line:
                    return
                record = json.loads(line)
                if record.get("ready"):
                    deadline = time.monotonic() + self.budget_s
                elif "fix_of" in record:
                    rule, index = record["fix_of"]
                    with self._changed:
                        self._built[(rule, index)] = fix_from(record["fix"]) if record["fix"] else None
                        self._coming.discard((rule, index))
                        self._changed.notify_all()
                elif "failed" in record:
                    raise RuntimeError(f"the fix process failed: {record['failed']}")
        finally:
            if proc.poll() is None:
                with contextlib.suppress(OSError):
                    proc.kill()
            proc.wait()
            for thread in threads:
                thread.join(5)
            if proc.stdout is not None:
                proc.stdout.close()


# ---- stopping an analysis thread ---------------------------------------------------------------------------------


class Stopped(BaseException):
    """Raised inside an analysis thread that overran its in-thread limit (`ThreadStop.stop`). A BaseException, so
    that no `except Exception` of the analysis swallows it."""


class ThreadStop:
    """Lets the event loop stop the analysis running in one thread, at the thread's next bytecode: `enter()` and
    `leave()` bracket the analysis in the thread; `stop()` raises Stopped there only between the two (never in
    the pool's own code after it), and `leave()` withdraws a stop that was sent but not yet delivered."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: int | None = None
        self._sent = False
        self.stopped = False

    def enter(self) -> None:
        with self._lock:
            self._thread = threading.get_ident()

    def leave(self) -> None:
        with self._lock:
            if self._sent and self._thread is not None:
                _async_raise(self._thread, None)  # withdraws it when not delivered yet
            self._thread = None

    def stop(self) -> bool:
        """Stops the analysis if it is still running in its thread (True), else does nothing (False). May be sent
        again while it runs: an exception raised inside a finalizer (`__del__`, a weakref callback) is swallowed
        there, and the analysis would go on."""
        with self._lock:
            if self._thread is None:
                return False
            self._sent = self.stopped = True
            _async_raise(self._thread, Stopped)
            return True


# How long an analysis may run in its thread before it is stopped there and done again in a child process: the
# longest of IN_THREAD_S, IN_THREAD_S_PER_LINE for each line (a big ordinary text is slow, not hostile), 4 times its
# last analysis in a thread and 3 times its last in a child; never more than the budget. (The same rule as the
# language server's for text documents, lsp/language_server.py; the notebook adapter uses this one.)
IN_THREAD_S = 1.0
IN_THREAD_S_PER_LINE = 0.0004


def in_thread_limit(budget_s: float, lines: int, last_in_thread_s: float, last_isolated_s: float) -> float:
    return min(budget_s, max(IN_THREAD_S, IN_THREAD_S_PER_LINE * lines, 4 * last_in_thread_s, 3 * last_isolated_s))


def run_stoppable(stop: ThreadStop, fn: Callable[..., Any], *args: Any) -> Any:
    """`fn(*args)` in an analysis thread, between `stop.enter()` and `stop.leave()`: the event loop may stop it."""
    stop.enter()
    try:
        return fn(*args)
    finally:
        stop.leave()


def keep_stopping(stop: ThreadStop, future: asyncio.Future[Any], every_s: float = 0.5) -> None:
    """Stops the analysis in its thread now and again every `every_s` until it has left (see ThreadStop.stop), and
    takes its outcome (Stopped, or a result that beat the stop) off the future, so that asyncio does not log it."""
    def again() -> None:
        if not future.done() and stop.stop():
            asyncio.get_running_loop().call_later(every_s, again)

    def retrieve(done: asyncio.Future[Any]) -> None:
        if not done.cancelled():
            with contextlib.suppress(BaseException):
                done.result()

    future.add_done_callback(retrieve)
    if stop.stop():
        asyncio.get_running_loop().call_later(every_s, again)


def _async_raise(thread: int, exc: type[BaseException] | None) -> None:
    what = ctypes.py_object(exc) if exc is not None else ctypes.c_void_p(None)  # NULL withdraws a pending one
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), what)
