"""The equality oracle for changes that must not change any finding: every finding at every severity, as a snapshot.

Runs `analyze` (every rule, default severities) over the labelled corpus (`tests/corpus/labelled`,
`tests/corpus/realistic`), `examples/`, and the real-code bench sources (`bench/realcode.py` downloads the pinned
libraries into `.cache/realcode/`), and writes one JSON line per finding: path, line, col, end line, end col,
code, severity, message, whether it has a fix and its title (for the corpus and the examples also the fix's edits,
built with libcst), and the functions the editor can trace. Syntax errors are findings too (SB000).

    .venv/bin/python bench/findings_diff.py --write SNAPSHOT [--packages a,b] [--no-realcode]
    .venv/bin/python bench/findings_diff.py --compare SNAPSHOT [--packages a,b] [--no-realcode]

`--compare` prints the difference between the snapshot and the findings now (`-` in the snapshot only, `+` now
only), then one summary line on stderr; the diff on stdout is empty when nothing changed, and the exit status is
1 when it is not empty. With `--packages`, only those real-code libraries are read (and compared: lines of the
snapshot for other libraries are ignored). The snapshot lives outside git: it is a measurement of one version.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from realcode import CACHE, PACKAGES, fetch  # noqa: E402
from sharpbits.analysis.engine import Selection, analyze  # noqa: E402

LOCAL_FOLDERS = ("tests/corpus/labelled", "tests/corpus/realistic", "examples")


def sources(packages: list[str], realcode: bool) -> Iterator[tuple[str, Path]]:
    """(label, file) for every .py file read: `local/<path from the root>` or `<package>/<path in package>`."""
    for folder in LOCAL_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield f"local/{path.relative_to(ROOT).as_posix()}", path
    if not realcode:
        return
    for name in packages:
        version, sdist = PACKAGES[name]
        unpacked = fetch(name, version, sdist, CACHE)
        for path in sorted(unpacked.rglob("*.py")):
            yield f"{name}/{path.relative_to(unpacked).as_posix()}", path


def findings_of(label: str, path: Path, build_fixes: bool) -> list[str]:
    """One JSON line per finding of the file (sorted keys: the lines compare as text). `build_fixes`: also the
    fix's edits (built with libcst: slow, so only for the corpus and the examples)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return [json.dumps({"path": label, "unreadable": "not UTF-8"}, sort_keys=True)]
    result = analyze(text, str(path), Selection())
    found = ([result.syntax_error] if result.syntax_error is not None else []) + result.findings
    out = []
    for f in found:
        row = {
            "path": label, "line": f.line, "col": f.column, "end_line": f.end_line, "end_col": f.end_column,
            "code": f.code, "severity": f.severity, "message": f.message,
            "fix": f.fixable, "fix_title": f.fix_title,
        }
        if build_fixes and f.fixable:
            built = f.fix()
            row["fix_edits"] = built.to_json() if built is not None else None
        out.append(json.dumps(row, sort_keys=True))
    functions = [f"{fn.qualname}:{fn.line}:{fn.column}-{fn.end_line}:{fn.end_column}:{fn.reason}"
                 for fn in result.functions]
    if functions:  # what the editor can trace, also part of the analysis result
        out.append(json.dumps({"path": label, "traced_functions": functions}, sort_keys=True))
    return out


def snapshot(packages: list[str], realcode: bool) -> tuple[list[str], int, float]:
    lines: list[str] = []
    files = 0
    started = time.perf_counter()
    for label, path in sources(packages, realcode):
        files += 1
        lines.extend(findings_of(label, path, build_fixes=label.startswith("local/")))
    return lines, files, time.perf_counter() - started


def package_of(line: str) -> str:
    return str(json.loads(line)["path"]).split("/", 1)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", type=Path, metavar="SNAPSHOT", help="write the findings now to SNAPSHOT")
    mode.add_argument("--compare", type=Path, metavar="SNAPSHOT", help="print the diff against SNAPSHOT")
    parser.add_argument("--packages", help="comma-separated subset of the real-code libraries (default: all)")
    parser.add_argument("--no-realcode", action="store_true", help="only the corpus and the examples")
    args = parser.parse_args(argv)

    packages = [p.strip() for p in args.packages.split(",") if p.strip()] if args.packages else list(PACKAGES)
    unknown = [p for p in packages if p not in PACKAGES]
    if unknown:
        print(f"unknown package(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    now, files, seconds = snapshot(packages, not args.no_realcode)
    if args.write is not None:
        args.write.write_text("".join(line + "\n" for line in now), encoding="utf-8")
        print(f"{len(now)} lines from {files} files in {seconds:.1f} s -> {args.write}", file=sys.stderr)
        return 0

    read = {"local", *packages} if not args.no_realcode else {"local"}
    before = [line for line in args.compare.read_text(encoding="utf-8").splitlines()
              if line and package_of(line) in read]
    counted_before, counted_now = Counter(before), Counter(now)  # a finding reported twice counts twice
    gone = list((counted_before - counted_now).elements())
    new = list((counted_now - counted_before).elements())
    for line in gone:
        print(f"- {line}")
    for line in new:
        print(f"+ {line}")
    print(f"{files} files in {seconds:.1f} s: {len(now)} lines now, {len(before)} in the snapshot, "
          f"{len(gone)} gone, {len(new)} new", file=sys.stderr)
    return 1 if gone or new else 0


if __name__ == "__main__":
    sys.exit(main())
