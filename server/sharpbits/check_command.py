"""`sharpbits check` and `sharpbits rule`: the command-line consumers of the engine."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sharpbits.analysis.engine import AnalysisResult, Selection, analyze
from sharpbits.findings import SEVERITY_RANK, Finding
from sharpbits.source import UnreadableSource, decode_source

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
MAX_FILE_BYTES = 20 * 1024 * 1024  # beyond this a "Python file" is data; say so instead of stalling


def check_file(path: Path, selection: Selection) -> tuple[AnalysisResult | None, str | None]:
    """Analyses one file; returns (result, None) or (None, reason it was skipped)."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, f"skipped: {size // (1024 * 1024)} MB is too large to be source code"
        data = path.read_bytes()
        text = decode_source(data)
    except UnreadableSource as exc:
        return None, f"skipped: {exc}"
    except OSError as exc:
        return None, f"skipped: cannot read: {exc.strerror or exc}"
    return analyze(text, str(path), selection), None


def _selection(args: argparse.Namespace) -> Selection:
    return Selection(select=Selection.parse_names(args.select), ignore=Selection.parse_names(args.ignore) or frozenset())


def run_check(args: argparse.Namespace) -> int:
    from sharpbits.files import iter_python_files

    try:
        selection = _selection(args)
        files = list(iter_python_files(args.paths, use_excludes=not args.no_exclude))
    except (ValueError, FileNotFoundError) as exc:
        print(f"sharpbits: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    findings: list[Finding] = []
    skipped: list[tuple[Path, str]] = []
    for path in files:
        result, reason = check_file(path, selection)
        if result is None:
            skipped.append((path, reason or "skipped"))
            continue
        if result.syntax_error is not None:
            findings.append(result.syntax_error)
        findings.extend(result.findings)
    for path, reason in skipped:
        print(f"{path}: {reason}", file=sys.stderr)
    if args.format == "json":
        json.dump([f.to_json() for f in findings], sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        _print_text(findings, len(files) - len(skipped))
    serious = any(SEVERITY_RANK[f.severity] <= SEVERITY_RANK["warning"] for f in findings)
    return EXIT_FINDINGS if serious else EXIT_OK


def _print_text(findings: list[Finding], checked: int) -> None:
    out = sys.stdout
    for f in findings:
        mark = " [*]" if f.fixable else ""
        out.write(f"{f.path}:{f.line}:{f.column}: {f.code} [{f.rule}] {f.message}{mark}\n")
    files = "file" if checked == 1 else "files"
    if not findings:
        out.write(f"All checks passed ({checked} {files} checked).\n")
        return
    fixable = sum(1 for f in findings if f.fixable)
    word = "finding" if len(findings) == 1 else "findings"
    line = f"Found {len(findings)} {word} in {checked} {files} checked"
    if fixable:
        line += f" ({fixable} fixable, marked [*])"
    out.write(line + ".\n")


def run_rule(args: argparse.Namespace) -> int:
    from sharpbits.analysis.rules import ALL_RULES, lookup

    if args.rule is None:
        for rule in ALL_RULES:
            print(f"{rule.code}  {rule.name:<26} {rule.severity:<8} {rule.summary}")
        return EXIT_OK
    found = lookup(args.rule)
    if found is None:
        print(f"sharpbits: error: unknown rule {args.rule!r} (run `sharpbits rule` for the list)", file=sys.stderr)
        return EXIT_ERROR
    print(found.documentation())
    return EXIT_OK
