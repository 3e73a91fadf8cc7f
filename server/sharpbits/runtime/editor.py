""""Run with sharpbits" for the language server: the run itself, and the findings of the last run as diagnostics.

- `run_program` runs the document (or a configured command) under `sharpbits run --format json`, in its own
  process group and session, stdin closed, in the workspace folder, with the trace settings' interpreter and
  launch prefix (the same as tracing's worker). A run past its time limit, or cancelled, gets SIGTERM (the agent
  then writes what it saw and `sharpbits run` reports it), SIGKILL a few seconds later.
- `RuntimeResults` keeps the last run's findings per file, each with the lines of the file as the run saw them.
  Whenever the file's diagnostics are published, the findings follow the edits (difflib): a finding whose line
  was edited, or deleted, is dropped for good; lines inserted or removed above it move it.

Nothing here imports jax; the diagnostics feature (lsp/features/diagnostics.py) adds `diagnostics(...)` to the
static ones, and lsp/features/runtime.py is the command.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import json
import os
import shlex
import signal
import sys
import tempfile
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path

from sharpbits.findings import Finding
from sharpbits.lsp.finding_diagnostic import SEVERITY
from sharpbits.lsp.positions import ClientColumns
from sharpbits.source import split_lines
from sharpbits.trace.protocol import RunCommandResult, RunCount

SOURCE = "sharpbits (runtime)"
DEFAULT_TIMEOUT_S = 900.0
TERM_GRACE_S = 5.0  # after SIGTERM, how long the run has to write its report before SIGKILL
OUTPUT_TAIL = 4000


@dataclass
class Seen:
    """One finding of the last run in one file: the report's JSON record, its lines as they are now."""

    record: dict[str, Any]
    line: int
    end_line: int


@dataclass
class FileSeen:
    lines: list[str]  # the file's lines as `seen` refers to them
    seen: list[Seen] = field(default_factory=list)

    def follow(self, now: list[str]) -> list[Seen]:
        """Moves the findings along the edits from `lines` to `now`; a finding on a changed line is dropped."""
        if now == self.lines:
            return self.seen
        moved: dict[int, int] = {}
        matcher = difflib.SequenceMatcher(None, self.lines, now, autojunk=False)
        for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
            if tag == "equal":
                for k in range(i2 - i1):
                    moved[i1 + k + 1] = j1 + k + 1
        kept = []
        for s in self.seen:
            if all(n in moved for n in range(s.line, s.end_line + 1)):
                kept.append(Seen(s.record, moved[s.line], moved[s.end_line]))
        self.lines, self.seen = list(now), kept
        return kept


class RuntimeResults:
    """The last run's findings, per file (absolute path)."""

    def __init__(self) -> None:
        self.files: dict[str, FileSeen] = {}

    def replace(self, by_path: dict[str, FileSeen]) -> set[str]:
        """The new run's findings; returns every path that had findings before or has them now."""
        touched = set(self.files) | set(by_path)
        self.files = by_path
        return touched

    def seen_in(self, path: str, lines: list[str]) -> list[Seen]:
        found = self.files.get(os.path.abspath(path))
        return [] if found is None else found.follow(lines)


_RESULTS: weakref.WeakKeyDictionary[object, RuntimeResults] = weakref.WeakKeyDictionary()


def results_of(server: object) -> RuntimeResults:
    """The runtime results of one language server (kept beside it, not in it)."""
    found = _RESULTS.get(server)
    if found is None:
        found = _RESULTS[server] = RuntimeResults()
    return found


def diagnostics(server: object, path: str | None, uri: str, lines: list[str],
                columns: ClientColumns) -> list[types.Diagnostic]:
    """The last run's findings in this document, as it is now."""
    if not path or server not in _RESULTS:
        return []
    return [to_diagnostic(s, uri, columns) for s in results_of(server).seen_in(path, lines)]


def to_diagnostic(s: Seen, uri: str, columns: ClientColumns) -> types.Diagnostic:
    r = s.record
    where = Finding(path="", line=s.line, column=int(r.get("column") or 1), end_line=s.end_line,
                    end_column=int(r.get("end_column") or 1), code="", rule="", severity="warning", message="", url="")
    related = []
    for other in r.get("related") or []:
        path, line = other.get("path"), other.get("line")
        if isinstance(path, str) and isinstance(line, int) and line >= 1:
            at = types.Position(line - 1, 0)
            related.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=from_fs_path(path) or path, range=types.Range(at, at)),
                message=str(other.get("message") or "")))
    url = r.get("url")
    return types.Diagnostic(
        range=columns.range(where),
        severity=SEVERITY.get(str(r.get("severity")), types.DiagnosticSeverity.Warning),
        code=r.get("code"),
        code_description=types.CodeDescription(href=url) if isinstance(url, str) and url else None,
        source=SOURCE,
        message=f"{r.get('message', '')} [{r.get('rule', 'runtime')}]",
        related_information=related or None,
        data={"rule": r.get("rule"), "fixable": False,
              "runtime": {"count": r.get("count", 1), "static": r.get("static")}},
    )


def group_by_file(findings: list[dict[str, Any]], cwd: str) -> dict[str, FileSeen]:
    """The report's findings per file (absolute paths; the report's are relative to where the run ran), each file
    with its lines as they are on disk now, right after the run. Findings in files that cannot be read are left
    out (there is nothing to show them on)."""
    out: dict[str, FileSeen] = {}
    for record in findings:
        raw = record.get("path")
        if not isinstance(raw, str) or not raw:
            continue
        path = os.path.abspath(os.path.join(cwd, raw))
        record = {**record, "path": path,
                  "related": [{**r, "path": os.path.abspath(os.path.join(cwd, str(r.get("path"))))}
                              for r in record.get("related") or [] if isinstance(r, dict) and r.get("path")]}
        entry = out.get(path)
        if entry is None:
            try:
                text = Path(path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            entry = out[path] = FileSeen(split_lines(text.removeprefix("\ufeff")))
        line = max(int(record.get("line") or 1), 1)
        end_line = max(int(record.get("end_line") or line), line)
        if line <= len(entry.lines):
            entry.seen.append(Seen(record, line, min(end_line, len(entry.lines))))
    return out


def counts(findings: list[dict[str, Any]]) -> list[RunCount]:
    by_code: dict[str, RunCount] = {}
    for f in findings:
        code = str(f.get("code"))
        entry = by_code.setdefault(code, {"code": code, "rule": str(f.get("rule")), "findings": 0, "seen": 0})
        entry["findings"] += 1
        entry["seen"] += int(f.get("count") or 1)
    return sorted(by_code.values(), key=lambda c: c["code"])


def summary(findings: list[dict[str, Any]], exit_code: int, seconds: float) -> str:
    parts = ", ".join(f"{c['code']}: {c['findings']}" for c in counts(findings))
    word = "finding" if len(findings) == 1 else "findings"
    head = f"{len(findings)} runtime {word}" + (f" ({parts})" if parts else "")
    return f"{head} · exit {exit_code} · {seconds:.1f} s"


@dataclass(frozen=True)
class RunPlan:
    """What to run: `sharpbits run`'s options and the program's argv, where."""

    argv: list[str]
    cwd: str
    launch_prefix: str | None
    interpreter: str | None
    timeout_s: float
    env: dict[str, str] = field(default_factory=dict)


PLATFORMS = ("cpu", "gpu", "cuda", "rocm", "tpu")  # the trace setting's platforms that set JAX_PLATFORMS


def plan(path: str, command: Sequence[str] | None, root: str | None, interpreter: str | None,
         launch_prefix: str | Sequence[str] | None, timeout_s: float | None, platform: str | None = None) -> RunPlan:
    """The document run with the trace interpreter, or `command` with `${file}` replaced by its path; the trace
    setting's platform as JAX_PLATFORMS (behind a prefix, where the environment does not travel, through `env`)."""
    python = interpreter or sys.executable
    argv = [a.replace("${file}", path) for a in command] if command else [python, path]
    prefix = launch_prefix if isinstance(launch_prefix, str) else shlex.join(launch_prefix or ())
    cwd = root if root and os.path.isdir(root) else os.path.dirname(path)
    env: dict[str, str] = {}
    if platform and platform.lower() == "gpu":
        # JAX_PLATFORMS=gpu fails unless the CUDA, ROCm and oneAPI plugins are all installed (jax expands the alias
        # and fails loudly on each one missing); JAX left to choose prefers a GPU
        platform = None
    if platform and platform.lower() in PLATFORMS:
        if prefix:
            argv = ["env", f"JAX_PLATFORMS={platform.lower()}", *argv]
        else:
            env["JAX_PLATFORMS"] = platform.lower()
    return RunPlan(argv, cwd, prefix or None, python if prefix else None, timeout_s or DEFAULT_TIMEOUT_S, env)


def _kill(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


async def run_program(p: RunPlan) -> tuple[RunCommandResult, list[dict[str, Any]]]:
    """Runs the plan under `sharpbits run`; the reply (without `files`) and the report's findings. Cancelling the
    awaiting task stops the run (its process group) too."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sharpbits-editor-run-") as folder:
        report = os.path.join(folder, "report.json")
        cmd = [sys.executable, "-m", "sharpbits", "run", "--format", "json", "-o", report]
        if p.launch_prefix:
            cmd += ["--launch-prefix", p.launch_prefix]
            if p.interpreter:
                cmd += ["--interpreter", p.interpreter]
        cmd += ["--", *p.argv]
        env = dict(os.environ)
        env.pop("SHARPBITS_RUNTIME_OPTIONS", None)
        env.update(p.env)
        try:
            proc = await asyncio.create_subprocess_exec(
                *cmd, cwd=p.cwd, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT, start_new_session=True)
        except OSError as exc:
            return {"ok": False, "error": {"type": "RunStartError", "message": f"cannot start sharpbits run: {exc}"}}, []
        output = bytearray()

        async def read() -> None:
            assert proc.stdout is not None
            while chunk := await proc.stdout.read(65536):
                output.extend(chunk)
                del output[:-OUTPUT_TAIL * 4]

        reader = asyncio.ensure_future(read())
        timed_out = False
        try:
            try:
                await asyncio.wait_for(asyncio.shield(reader), p.timeout_s)
            except TimeoutError:
                timed_out = True
                await _stop(proc, reader)
            code = await proc.wait()
        except asyncio.CancelledError:
            await _stop(proc, reader)
            raise
        seconds = time.monotonic() - started
        findings: list[dict[str, Any]] = []
        with contextlib.suppress(OSError, ValueError):
            loaded = json.loads(Path(report).read_text(encoding="utf-8"))
            findings = [f for f in loaded if isinstance(f, dict)] if isinstance(loaded, list) else []
    text = output.decode("utf-8", "replace")[-OUTPUT_TAIL:]
    notes = [line.split("note: ", 1)[1] for line in text.splitlines() if line.startswith("sharpbits run: note: ")]
    result: RunCommandResult = {"ok": not timed_out, "exitCode": code, "findings": len(findings),
                                "counts": counts(findings), "summary": summary(findings, code, seconds),
                                "notes": notes, "output": text, "seconds": seconds}
    if timed_out:
        result["error"] = {"type": "Timeout", "message": f"the run did not finish within {p.timeout_s:g} s: it was "
                                                         "stopped (what it saw until then is shown)"}
    return result, findings


async def _stop(proc: asyncio.subprocess.Process, reader: asyncio.Future[None]) -> None:
    """SIGTERM to the run's process group (the agent writes its records, `sharpbits run` its report), SIGKILL if
    it has not ended after TERM_GRACE_S."""
    _kill(proc.pid, signal.SIGTERM)
    try:
        await asyncio.wait_for(proc.wait(), TERM_GRACE_S)
    except TimeoutError:
        _kill(proc.pid, signal.SIGKILL)
        await proc.wait()
    with contextlib.suppress(TimeoutError, asyncio.CancelledError):
        await asyncio.wait_for(reader, TERM_GRACE_S)
