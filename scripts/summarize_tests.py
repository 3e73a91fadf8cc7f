"""Sums JUnit XML reports from every suite into one closing line: `N passed, N failed, N skipped`.

Usage: python scripts/summarize_tests.py REPORT.xml... ; exits 1 if any test failed or errored, or if a
suite that was expected wrote no report (pass --expect NAME for each).
"""

from __future__ import annotations

import argparse
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


# Characters XML 1.0 does not allow (a failing test's message can carry terminal colour codes: ESC [ ... m)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def count(path: Path) -> tuple[int, int, int]:
    passed = failed = skipped = 0
    text = _NOT_XML.sub("", path.read_text(encoding="utf-8", errors="replace"))
    root = ET.fromstring(text)
    for case in root.iter("testcase"):
        tags = {child.tag for child in case}
        if tags & {"failure", "error"}:
            failed += 1
        elif "skipped" in tags:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("reports", nargs="*", type=Path)
    parser.add_argument("--expect", action="append", default=[], help="suite name whose report must exist")
    args = parser.parse_args()
    total = [0, 0, 0]
    missing = 0
    seen = {p.stem for p in args.reports if p.exists()}
    for name in args.expect:
        if name not in seen:
            print(f"suite {name!r} wrote no report (it crashed or did not run)", file=sys.stderr)
            missing += 1
    for path in args.reports:
        if not path.exists():
            continue
        try:
            p, f, s = count(path)
        except ET.ParseError as exc:
            print(f"{path}: unreadable report: {exc}", file=sys.stderr)
            missing += 1
            continue
        print(f"  {path.stem:<12} {p} passed, {f} failed, {s} skipped")
        total = [total[0] + p, total[1] + f, total[2] + s]
    failed = total[1] + missing
    line = f"{total[0]} passed, {failed} failed"
    if total[2]:
        line += f", {total[2]} skipped"
    print(line)
    return 1 if failed or total[0] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
