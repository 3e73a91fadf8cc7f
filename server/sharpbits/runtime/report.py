"""From the agent's records to findings: the same Finding objects, codes and output formats as `check`, plus how
many times each was seen at run time and whether static analysis flagged the same line."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sharpbits.findings import SEVERITIES, Finding, Severity

# Codes only running can produce (documented in docs/runtime.md); key reuse is the static rule's own SB201.
RUNTIME_RULES: dict[str, tuple[str, str]] = {
    "SB601": ("recompilation", "a jitted function compiled more times than the threshold, and what changed"),
    "SB602": ("nan-origin", "the first operation that produced a NaN or Inf"),
    "SB603": ("tracer-leak", "a traced value that escaped its transformation"),
    "SB604": ("implicit-transfer", "implicit host-to-device or device-to-host copies, many times at one line"),
}


@dataclass
class RuntimeFinding(Finding):
    """A finding seen at run time: `count` occurrences; `static_codes` the static findings on the same line
    (empty: static analysis did not flag it); `related` other places (the first use of a reused key, the
    function's definition...); `tests` the tests it was seen in (pytest plugin); `compiles_per_test` for a recompile
    under the pytest plugin, how many times the function compiled within each test that went past the threshold."""

    count: int = 1
    static_codes: tuple[str, ...] = ()
    static_checked: bool = False
    related: list[dict[str, Any]] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)
    compiles_per_test: dict[str, int] = field(default_factory=dict)

    def to_json(self, with_fix: bool = True) -> dict[str, Any]:
        out = super().to_json(with_fix)
        out["runtime"] = True
        out["count"] = self.count
        out["static"] = list(self.static_codes) if self.static_checked else None
        out["related"] = self.related
        if self.tests:
            out["tests"] = self.tests
        if self.compiles_per_test:
            out["compiles_per_test"] = self.compiles_per_test
        return out


def read_records(folder: Path) -> list[dict[str, Any]]:
    """The records of every process that wrote to `folder`: the last line per key in each file, counts summed
    over processes (a recompile's is the most compiles in one process: each compiles for itself). A truncated last line (a process killed mid-write) is skipped."""
    merged: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("records-*.jsonl")):
        last: dict[str, dict[str, Any]] = {}
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and isinstance(record.get("key"), str):
                last[record["key"]] = record
        for key, record in last.items():
            if key in merged and key.startswith("recompile:"):  # compiles are per process (and per test): the most
                if int(record.get("count", 1)) > int(merged[key].get("count", 1)):
                    record = dict(record, tests=merged[key].get("tests", []),
                                  compiles_per_test=merged[key].get("compiles_per_test", {}))
                    merged[key], record = record, merged[key]
                merged[key].setdefault("compiles_per_test", {}).update(
                    {t: n for t, n in (record.get("compiles_per_test") or {}).items()
                     if t not in merged[key]["compiles_per_test"]})
                for test in record.get("tests", []):
                    if test not in merged[key].setdefault("tests", []):
                        merged[key]["tests"].append(test)
            elif key in merged:
                merged[key]["count"] = int(merged[key].get("count", 1)) + int(record.get("count", 1))
                for test in record.get("tests", []):
                    if test not in merged[key].setdefault("tests", []):
                        merged[key]["tests"].append(test)
            else:
                merged[key] = record
    return list(merged.values())


def _display(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


def _url(code: str, rule: str) -> str:
    """The finding's page where SHARPBITS_DOCS_URL says the pages are published, else "" (no made-up address:
    the runtime rules are described in docs/runtime.md, the static ones by `sharpbits rule CODE`)."""
    from sharpbits.analysis.rules import lookup
    from sharpbits.analysis.rules.base import docs_url_for

    if code in RUNTIME_RULES:
        page = docs_url_for("runtime", code)
        return f"{page}#{code.lower()}-{rule}" if page else ""
    found = lookup(code)
    return found.url() if found is not None else ""


def findings_from_records(records: Iterable[dict[str, Any]], static: bool = True) -> tuple[list[RuntimeFinding], list[str]]:
    """(findings, notes): notes are the agent's own messages (a check JAX did not allow, ...)."""
    findings: list[RuntimeFinding] = []
    notes: list[str] = []
    for record in records:
        if record.get("kind") == "note":
            notes.append(str(record.get("message", "")))
            continue
        site = record.get("site")
        if not isinstance(site, dict) or not site.get("path"):
            continue
        severity: Severity = record.get("severity") if record.get("severity") in SEVERITIES else "warning"  # type: ignore[assignment]
        line = int(site.get("line") or 1)
        column = int(site.get("column") or 1)
        end_line = int(site.get("end_line") or line)
        end_column = int(site.get("end_column") or 0)
        if end_column <= 0 or (end_line == line and end_column <= column):
            end_line, end_column = line, column + 1
        code, rule = str(record.get("code", "SB600")), str(record.get("rule", "runtime"))
        related = [
            {"path": _display(str(r.get("path"))), "line": r.get("line"), "message": r.get("message", "")}
            for r in record.get("related", []) if isinstance(r, dict) and r.get("path")
        ]
        findings.append(RuntimeFinding(
            path=_display(str(site["path"])), line=line, column=column, end_line=end_line, end_column=end_column,
            code=code, rule=rule, severity=severity, message=str(record.get("message", "")), url=_url(code, rule),
            count=max(int(record.get("count", 1)), 1), related=related, tests=list(record.get("tests", [])),
            compiles_per_test=_per_test_counts(record.get("compiles_per_test"))))
        session_tests = record.get("session_tests")
        if code == "SB601" and isinstance(session_tests, int) and session_tests > 1:
            findings[-1].message += (f" Over the whole session it compiled {record.get('session_compiles')} times "
                                     f"in {session_tests} tests; each test is counted on its own.")
    if static:
        _mark_static(findings)
    for f in findings:
        f.message = _with_counts(f)
    findings.sort(key=lambda f: (f.path, f.line, f.column, f.code))
    return findings, notes


def _per_test_counts(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        return {}
    return {str(k): int(v) for k, v in value.items() if isinstance(v, int | float)}


def _mark_static(findings: list[RuntimeFinding]) -> None:
    """Which lines static analysis flags too: each file analysed once, with its project's configuration."""
    from sharpbits.analysis.engine import analyze
    from sharpbits.check_command import read_source
    from sharpbits.config import load_config

    by_path: dict[str, dict[int, list[str]] | None] = {}
    for f in findings:
        if f.path not in by_path:
            try:
                path = Path(f.path)
                source = read_source(path)
                selection = load_config(path.parent).selection_for(path)
                result = analyze(source.text, str(path), selection)
                lines: dict[int, list[str]] = {}
                for s in result.findings:
                    for line in range(s.line, s.end_line + 1):
                        lines.setdefault(line, []).append(f"{s.code} {s.rule}")
                by_path[f.path] = lines
            except Exception:  # unreadable, not Python, gone: say nothing about it
                by_path[f.path] = None
        lines_of = by_path[f.path]
        if lines_of is not None:
            f.static_checked = True
            f.static_codes = tuple(dict.fromkeys(lines_of.get(f.line, [])))


def _with_counts(f: RuntimeFinding) -> str:
    times = "once" if f.count == 1 else f"{f.count} times"
    if f.code == "SB601":
        times = f"{f.count} compiles"
    text = f"{f.message} [seen at runtime: {times}"
    if f.static_checked:
        text += "; static analysis: " + (f"also flagged this line ({', '.join(f.static_codes)})" if f.static_codes
                                          else "did not flag this line")
    if f.tests:
        shown = [f"{t} ({f.compiles_per_test[t]} compiles)" if t in f.compiles_per_test else t for t in f.tests[:3]]
        text += "; in " + ", ".join(shown) + (", ..." if len(f.tests) > 3 else "")
    text += "]"
    if f.related:
        text += " " + "; ".join(f"{r['path']}:{r['line']}: {r['message']}" for r in f.related[:3])
    return text


def write_report(out: Any, findings: list[RuntimeFinding], fmt: str, notes: list[str], programs: str = "program") -> None:
    """`check`'s writers; the text summary names the run instead of a count of files checked."""
    from sharpbits.output_formats import write_github, write_json, write_sarif

    if fmt == "json":
        write_json(out, findings)  # type: ignore[arg-type]
    elif fmt == "sarif":
        write_sarif(out, findings)  # type: ignore[arg-type]
    elif fmt == "github":
        write_github(out, findings)  # type: ignore[arg-type]
    else:
        for f in findings:
            out.write(f"{f.path}:{f.line}:{f.column}: {f.code} [{f.rule}] {f.message}\n")
        for note in notes:
            out.write(f"sharpbits run: note: {note}\n")
        if findings:
            word = "finding" if len(findings) == 1 else "findings"
            out.write(f"sharpbits: {len(findings)} runtime {word} in the {programs}.\n")
        else:
            out.write(f"sharpbits: no runtime findings in the {programs}.\n")
