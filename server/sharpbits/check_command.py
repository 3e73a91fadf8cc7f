"""`sharpbits check` and `sharpbits rule`: the command-line consumers of the engine."""

from __future__ import annotations

import argparse
import difflib
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from sharpbits.analysis.engine import AnalysisResult, Selection, analyze
from sharpbits.config import Config, load_config
from sharpbits.findings import SEVERITY_RANK, Finding, apply_edits, non_overlapping, parses_after
from sharpbits.source import UnreadableSource, decode_with_encoding

if TYPE_CHECKING:
    from sharpbits.notebooks import NotebookCheck

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
MAX_FILE_BYTES = 20 * 1024 * 1024  # beyond this a "Python file" is data; say so instead of stalling
MAX_FIX_PASSES = 5


@dataclass
class SourceFile:
    path: Path
    text: str
    encoding: str
    newline: str


def read_source(path: Path) -> SourceFile:
    """Reads and decodes a file; raises UnreadableSource / OSError with a clear message."""
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise UnreadableSource(f"{size // (1024 * 1024)} MB is too large to be source code")
    text, encoding = decode_with_encoding(path.read_bytes())
    newline = "\r\n" if "\r\n" in text[:10000] else "\n"
    return SourceFile(path, text, encoding, newline)


def fix_text(text: str, path: str, selection: Selection, unsafe: bool, newline: str = "\n") -> tuple[str, int, str | None]:
    """Applies fixes until none is left (or MAX_FIX_PASSES); returns (text, fixes applied, error or None).
    Every intermediate result must parse, or the pass is not applied."""
    applied = 0
    for _ in range(MAX_FIX_PASSES):
        result = analyze(text, path, selection)
        if result.syntax_error is not None:
            return text, applied, None
        fixes = non_overlapping([f.fix() for f in result.findings if f.fixable], safe_only=not unsafe)
        if not fixes:
            break
        if not parses_after(text, fixes):
            # one of them is broken (a bug of ours): keep the ones that parse on their own
            fixes = [fix for fix in fixes if parses_after(text, [fix])]
            if not fixes or not parses_after(text, fixes):
                return text, applied, "a fix produced code that does not parse; it was not applied"
        edits = [replace(e, new_text=e.new_text.replace("\n", newline)) for fix in fixes for e in fix.edits]
        text, applied = apply_edits(text, edits), applied + len(fixes)
    return text, applied, None


def run_check(args: argparse.Namespace) -> int:
    from sharpbits.files import iter_python_files
    from sharpbits.output_formats import write_github, write_json, write_sarif, write_text

    try:
        first = Path(args.paths[0]) if args.paths else Path(".")
        config = load_config(first if first.exists() else Path("."))
        cli = Config(select=Selection.parse_names(args.select), ignore=Selection.parse_names(args.ignore) or frozenset())
        config = config.merged(cli)
        files = list(iter_python_files(args.paths, use_excludes=not args.no_exclude, extra_excludes=config.exclude,
                                       excludes_root=config.root, include_notebooks=config.include_notebooks is not False))
    except (ValueError, FileNotFoundError) as exc:
        print(f"sharpbits: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    fixing = args.fix or args.diff
    findings: list[Finding] = []
    checked = fixed_count = 0
    changed_files = 0
    for path in files:
        if path.suffix == ".ipynb":  # notebooks: sharpbits.notebooks reads, checks and fixes them per cell
            notebook = _check_notebook(path, config.selection_for(path), args)
            if notebook is None:
                continue
            checked += 1
            changed_files += notebook.new_text is not None
            if notebook.new_text is not None and not args.diff:
                path.write_bytes(notebook.new_text.encode("utf-8"))
                fixed_count += notebook.fixed
            if not args.diff:
                findings.extend(notebook.findings)
            continue
        try:
            source = read_source(path)
        except UnreadableSource as exc:
            print(f"{path}: skipped: {exc}", file=sys.stderr)
            continue
        except OSError as exc:
            print(f"{path}: skipped: cannot read: {exc.strerror or exc}", file=sys.stderr)
            continue
        checked += 1
        selection = config.selection_for(path)
        text = source.text
        if fixing:
            new, applied, error = fix_text(text, str(path), selection, args.unsafe_fixes, source.newline)
            if error:
                print(f"{path}: {error}", file=sys.stderr)
            if new != text:
                changed_files += 1
                if args.diff:
                    sys.stdout.writelines(difflib.unified_diff(
                        text.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{path}", f"b/{path}"))
                else:
                    path.write_bytes(new.encode(source.encoding))
                    text = new
                    fixed_count += applied
        if args.diff:
            continue
        result: AnalysisResult = analyze(text, str(path), selection)
        if result.syntax_error is not None:
            findings.append(result.syntax_error)
        findings.extend(result.findings)
    if args.diff:
        print(f"{changed_files} file{'s' if changed_files != 1 else ''} would be changed.", file=sys.stderr)
        return EXIT_FINDINGS if changed_files else EXIT_OK
    if args.format == "json":
        write_json(sys.stdout, findings)
    elif args.format == "sarif":
        write_sarif(sys.stdout, findings)
    elif args.format == "github":
        write_github(sys.stdout, findings)
    else:
        write_text(sys.stdout, findings, checked, fixed_count)
    serious = any(SEVERITY_RANK[f.severity] <= SEVERITY_RANK["warning"] for f in findings)
    return EXIT_FINDINGS if serious else EXIT_OK


def _check_notebook(path: Path, selection: Selection, args: argparse.Namespace) -> NotebookCheck | None:
    """One .ipynb file (None when it was skipped, said on stderr); prints its diff with --diff."""
    from sharpbits.notebooks import check_notebook

    try:
        data = path.read_bytes()
    except OSError as exc:
        print(f"{path}: skipped: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return None
    outcome = check_notebook(str(path), data, selection, fix=args.fix or args.diff, unsafe=args.unsafe_fixes)
    if outcome.skipped:
        print(f"{path}: skipped: {outcome.skipped}", file=sys.stderr)
        return None
    if outcome.error:
        print(f"{path}: {outcome.error}", file=sys.stderr)
    if args.diff:
        sys.stdout.write(outcome.diff)
    return outcome


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


