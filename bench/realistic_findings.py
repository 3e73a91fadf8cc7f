"""Every finding `sharpbits check` reports on the realistic code base (tests/corpus/realistic/).

That code base is correct, idiomatic JAX, so each finding printed here is a candidate false alarm for a human
to judge. Runs the real command line (`sharpbits check --format json`), the way a user or CI would.

    .venv/bin/python bench/realistic_findings.py [--path DIR] [--quick]

To check with another checkout's rules: `PYTHONPATH=../main/server .venv/bin/python bench/realistic_findings.py`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REALISTIC = ROOT / "tests" / "corpus" / "realistic"


def sharpbits_command() -> list[str]:
    script = Path(sys.executable).with_name("sharpbits")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "sharpbits"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", type=Path, default=REALISTIC)
    parser.add_argument("--quick", action="store_true", help="accepted for symmetry with the other benches")
    args = parser.parse_args(argv)

    files = sorted(args.path.rglob("*.py"))
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in files)
    started = time.perf_counter()
    proc = subprocess.run([*sharpbits_command(), "check", "--format", "json", str(args.path)],
                          capture_output=True, text=True, timeout=600)
    elapsed = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        print(f"sharpbits check failed (exit {proc.returncode}):\n{proc.stderr}", file=sys.stderr)
        return 2
    findings = json.loads(proc.stdout or "[]")
    print(f"realistic code base: {len(files)} files, {lines} lines, checked in {elapsed:.2f} s (exit {proc.returncode})")
    for f in findings:
        try:
            shown = Path(f["path"]).resolve().relative_to(args.path.resolve())
        except ValueError:
            shown = Path(f["path"])
        print(f"  {shown}:{f['line']}:{f['column']} {f['code']} {f['rule']} [{f['severity']}] {f['message']}")
    per_rule = Counter(f["rule"] for f in findings)
    summary = ", ".join(f"{rule}={n}" for rule, n in sorted(per_rule.items())) or "none"
    print(f"findings: {len(findings)} ({summary}); "
          f"{len(findings) / max(lines, 1) * 1000:.2f} per 1,000 lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
