"""Finding reports for people and tools: text (ruff-like), json (the stable schema), sarif 2.1.0 (code-scanning
UIs), github (workflow command annotations)."""

from __future__ import annotations

import json
from typing import Any, TextIO

from sharpbits import __version__
from sharpbits.findings import Finding

FORMATS = ("text", "json", "sarif", "github")
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}


def write_text(out: TextIO, findings: list[Finding], checked: int, fixed: int = 0) -> None:
    for f in findings:
        mark = " [*]" if f.fixable else ""
        cell = f"cell {f.cell}:" if f.cell is not None else ""
        out.write(f"{f.path}:{cell}{f.line}:{f.column}: {f.code} [{f.rule}] {f.message}{mark}\n")
    files = "file" if checked == 1 else "files"
    if fixed:
        out.write(f"Fixed {fixed} finding{'s' if fixed != 1 else ''}.\n")
    if not findings:
        out.write(f"All checks passed ({checked} {files} checked).\n")
        return
    fixable = sum(1 for f in findings if f.fixable)
    word = "finding" if len(findings) == 1 else "findings"
    line = f"Found {len(findings)} {word} in {checked} {files} checked"
    if fixable:
        line += f" ({fixable} fixable, marked [*]; apply safe fixes with --fix)"
    out.write(line + ".\n")


def write_json(out: TextIO, findings: list[Finding]) -> None:
    json.dump([f.to_json() for f in findings], out, indent=2, ensure_ascii=False)
    out.write("\n")


def write_sarif(out: TextIO, findings: list[Finding]) -> None:
    from sharpbits.analysis.rules import ALL_RULES

    rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": r.why.strip()},
            "helpUri": r.url(),
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
            "tool": {"driver": {"name": "sharpbits", "version": __version__, "informationUri": ALL_RULES[0].url().rsplit("/docs/", 1)[0], "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    json.dump(log, out, indent=2, ensure_ascii=False)
    out.write("\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


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
