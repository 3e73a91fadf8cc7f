"""Finding reports for people and tools: text (ruff-like), json (the stable schema), sarif 2.1.0 (code-scanning
UIs), github (workflow command annotations).

A file's name, a symlink's target and a message can hold any character. None may start a line of its own in a
log: CI runners read `::command::` lines from both streams, and a terminal obeys escape sequences. So every text
a report or a message on stderr prints goes through `printable` (control characters, line and paragraph
separators and bidirectional overrides become `\n`, `\x1b`, `\u2028` ...), and JSON / SARIF write those
characters as JSON escapes (the data itself stays exact).
"""

from __future__ import annotations

import json
import re
from typing import Any, TextIO

from sharpbits import __version__
from sharpbits.findings import Finding

FORMATS = ("text", "json", "sarif", "github")
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}


# C0 and C1 controls, DEL, line / paragraph separators, bidirectional embeddings, overrides and isolates
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match[0])
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(match[0])
    return named or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def printable(text: object) -> str:
    """`text` on one line, with nothing a terminal or a CI runner would act on: unprintable characters are
    written as Python escapes."""
    return _UNPRINTABLE.sub(_escape_char, str(text))


_UNPRINTABLE_IN_JSON = re.compile(_UNPRINTABLE.pattern.replace("\x00-\x1f", ""))  # JSON escapes those itself


def _json_text(value: Any) -> str:
    """JSON with every character `printable` escapes written as a JSON escape (still the same data): they occur
    only inside strings, where `\\uXXXX` is the same character."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return _UNPRINTABLE_IN_JSON.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def write_text(out: TextIO, findings: list[Finding], checked: int, fixed: int = 0, unsafe: bool = False) -> None:
    """Ruff-like lines. `[*]` marks a finding whose fix `--fix` applies: a safe one (with `unsafe`, the run's
    `--unsafe-fixes`, any); the summary counts those and, apart, the unsafe fixes only `--unsafe-fixes` applies."""
    applicable = hidden = 0
    for f in findings:
        fix = f.fix() if f.fixable else None
        applies = fix is not None and (fix.safe or unsafe)
        applicable += applies
        hidden += fix is not None and not applies
        mark = " [*]" if applies else ""
        cell = f"cell {f.cell}:" if f.cell is not None else ""
        out.write(f"{printable(f.path)}:{cell}{f.line}:{f.column}: {f.code} [{f.rule}] {printable(f.message)}{mark}\n")
    files = "file" if checked == 1 else "files"
    if fixed:
        out.write(f"Fixed {fixed} finding{'s' if fixed != 1 else ''}.\n")
    if not findings:
        out.write(f"All checks passed ({checked} {files} checked).\n")
        return
    word = "finding" if len(findings) == 1 else "findings"
    line = f"Found {len(findings)} {word} in {checked} {files} checked"
    notes = []
    if applicable:
        notes.append(f"{applicable} fixable with --fix, marked [*]")
    if hidden:
        notes.append(f"{hidden} unsafe fix{'es' if hidden != 1 else ''} with --fix --unsafe-fixes")
    if notes:
        line += f" ({'; '.join(notes)})"
    out.write(line + ".\n")


def write_json(out: TextIO, findings: list[Finding]) -> None:
    out.write(_json_text([f.to_json() for f in findings]) + "\n")


def write_sarif(out: TextIO, findings: list[Finding]) -> None:
    from sharpbits.analysis.rules import ALL_RULES

    rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": r.why.strip()},
            **({"helpUri": r.url()} if r.url() else {}),  # only a configured address: the page itself is in `help`
            "help": {"text": r.summary, "markdown": r.documentation()},
            "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
        }
        for r in ALL_RULES
    ]
    index = {r.code: i for i, r in enumerate(ALL_RULES)}
    results = []
    for f in findings:
        result: dict[str, Any] = {
            "ruleId": f.code,
            "level": _SARIF_LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": f.path.replace("\\", "/")},
                    "region": {"startLine": f.line, "startColumn": f.column, "endLine": f.end_line,
                               "endColumn": f.end_column},
                }
            }],
        }
        if f.cell is not None:  # a notebook: the region is where the cell's lines are in the .ipynb file
            result["locations"][0]["physicalLocation"]["region"] = {
                "startLine": f.file_line or 1, "endLine": f.file_end_line or f.file_line or 1}
            result["properties"] = {"cell": f.cell, "cellRegion": {
                "startLine": f.line, "startColumn": f.column, "endLine": f.end_line, "endColumn": f.end_column}}
        if f.code in index:
            result["ruleIndex"] = index[f.code]
        results.append(result)
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "sharpbits", "version": __version__, "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    out.write(_json_text(log) + "\n")


def _escape_data(text: str) -> str:
    # GitHub's own escapes first (a runner decodes them in what it shows), then every other control character
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def write_github(out: TextIO, findings: list[Finding]) -> None:
    for f in findings:
        if f.cell is not None:  # a notebook: annotate the .ipynb file's lines, name the cell in the title
            title = f"{f.code} {f.rule} (cell {f.cell}, line {f.line}, column {f.column})"
            props = (f"file={_escape_property(f.path)},line={f.file_line or 1},endLine={f.file_end_line or f.file_line or 1},"
                     f"title={_escape_property(title)}")
            out.write(f"::{_GITHUB_LEVEL[f.severity]} {props}::{_escape_data(f.message)}\n")
            continue
        props = (f"file={_escape_property(f.path)},line={f.line},col={f.column},endLine={f.end_line},"
                 f"endColumn={f.end_column},title={_escape_property(f'{f.code} {f.rule}')}")
        out.write(f"::{_GITHUB_LEVEL[f.severity]} {props}::{_escape_data(f.message)}\n")
