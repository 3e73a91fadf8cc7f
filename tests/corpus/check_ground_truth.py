"""Runs every labelled corpus file under JAX and shows the evidence that each label is true.

Not a unit test (it imports JAX ~80 times; a couple of minutes on two cores): run it by hand after adding
or changing corpus files:

    .venv/bin/python tests/corpus/check_ground_truth.py [-j 2] [--corpus DIR] [NAME-SUBSTRING ...]

`--corpus tests/corpus/heldout` checks the held-out files (bugs the rules still miss) the same way, and so does
`--corpus tests/corpus/heldout/recall28` for one held-out set, its project folders' scripts included.

A bug file must either fail with one of JAX's errors for that sharp bit (TypeError for in-place updates,
NonConcreteBooleanIndexError, TracerBoolConversionError, KeyReuseError, ...) or print a line starting with
"SHARP BIT:" that shows the silent misbehaviour (identical random numbers, a stale global, an unrolled
jaxpr's equation count). A clean file must run to completion (exit 0) and print no "SHARP BIT:" line.
Files whose evidence needs a human eye (e.g. numbers that should differ) are printed with their output.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent / "labelled"
ERRORS = ("TypeError", "NonConcreteBooleanIndexError", "TracerBoolConversionError", "KeyReuseError",
          "ConcretizationTypeError", "TracerIntegerConversionError", "TracerArrayConversionError",
          "Slice entries must be static",  # IndexError of x[:n] with a traced n (dynamic-shape)
          "Array has been deleted",  # RuntimeError of reading a donated buffer (donated-buffer-reuse)
          "Buffer has been deleted or donated",  # ValueError of passing it to a jitted call again
          "UnexpectedTracerError", "Non-hashable static arguments")
EXCEPTION_LINE = re.compile(r"^[\w.]*(Error|Exception)\b")


def run(path: Path) -> tuple[Path, int, str, str]:
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONWARNINGS="ignore")
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300, env=env,
                          cwd=path.parent)
    return path, proc.returncode, proc.stdout, proc.stderr


def verdict(path: Path, rc: int, out: str, err: str) -> tuple[bool, str]:
    # a project script may be a bug file whose label sits in the helper module it calls
    is_bug = "# expect:" in path.read_text() or not path.name.startswith("clean__")
    evidence = [line for line in out.splitlines() if line.startswith("SHARP BIT:")]
    last_err = next((line for line in reversed(err.splitlines()) if EXCEPTION_LINE.match(line)), "")
    if not is_bug:
        if rc == 0 and not evidence:
            return True, "runs cleanly"
        return False, f"clean file failed: rc={rc} {last_err or evidence}"
    if rc != 0:
        if any(name in last_err for name in ERRORS):
            return True, last_err[:160]
        return False, f"unexpected failure: {last_err[:160]}"
    if evidence:
        return True, evidence[-1][:160]
    caught = [line for line in out.splitlines() if any(name in line for name in ERRORS)]
    if caught:
        return True, caught[-1][:160]
    return False, "ran without error and printed no evidence:\n      " + "\n      ".join(out.splitlines()[-4:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("-j", type=int, default=max(1, (os.cpu_count() or 2)))
    parser.add_argument("--corpus", type=Path, default=HERE, help="folder of corpus files (default: labelled/)")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv)
    # project folders (a held-out set's `proj_*/`) are run too: each script beside its package, whose modules
    # (files in a folder with `__init__.py`) are helpers, not programs
    files = sorted(p for p in args.corpus.resolve().rglob("*.py")
                   if not (p.parent / "__init__.py").exists()
                   and (not args.names or any(n in p.name for n in args.names)))
    bad = 0
    with ThreadPoolExecutor(args.j) as pool:
        for path, rc, out, err in pool.map(run, files):
            ok, why = verdict(path, rc, out, err)
            bad += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {path.name}: {why}", flush=True)
    print(f"{len(files) - bad} of {len(files)} files confirmed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
