"""Precision and recall of the rules on the labelled corpus (tests/corpus/labelled/).

A line that must be flagged ends with `# expect: RULE[, RULE...]`; every finding is compared with the labels
per (file, line, rule). A finding with no label on its line is a false positive (so is any finding in a file
with no label), a label with no finding a false negative. Labels for rules the engine does not know yet are
counted as false negatives and marked "not implemented".

    .venv/bin/python bench/precision_recall.py [--corpus DIR] [--min-severity info|warning|error] [--quick]

The engine is whichever `sharpbits` package Python imports (the editable install of this checkout); to
measure another checkout's rules, put its `server/` first: `PYTHONPATH=../main/server .venv/bin/python ...`.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
import tokenize
from collections import Counter
from pathlib import Path

import sharpbits
from sharpbits.analysis.engine import Selection, analyze
from sharpbits.analysis.project_index import ProjectIndex
from sharpbits.analysis.rules import ALL_RULES

ROOT = Path(__file__).resolve().parent.parent

CORPUS = ROOT / "tests" / "corpus" / "labelled"
SEVERITY_ORDER = ("hint", "info", "warning", "error")
RULES = ("in-place-update", "prng-key-reuse", "python-loop-in-jit", "boolean-indexing-in-jit",
         "global-captured-in-jit",
         "jit-in-loop", "side-effect-in-jit", "unblocked-timing")
MARK = "# expect:"


def labels_of(text: str) -> set[tuple[int, str]]:
    """(line, rule) pairs from `# expect:` comments (real comments only, found with tokenize)."""
    found: set[tuple[int, str]] = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT and tok.string.startswith(MARK):
            for rule in tok.string[len(MARK):].split(","):
                if rule.strip():
                    found.add((tok.start[0], rule.strip()))
    return found


def ratio(num: int, den: int) -> str:
    return f"{num / den:.3f}" if den else "  n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--min-severity", choices=SEVERITY_ORDER, default="hint",
                        help="ignore findings below this severity (default: count every finding)")
    parser.add_argument("--quick", action="store_true", help="accepted for symmetry with the other benches")
    args = parser.parse_args(argv)

    implemented = {r.name for r in ALL_RULES}
    # a held-out set may hold project folders (`proj_*/`: scripts beside a package of helper modules); every module
    # of them is fed to the one project index below and scored like any other file (labels may sit in a helper)
    files = sorted(args.corpus.rglob("*.py"))
    if not files:
        print(f"no corpus files in {args.corpus}", file=sys.stderr)
        return 2
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    fps: list[str] = []
    fns: list[str] = []
    clean_files = noisy_clean = 0
    started = time.perf_counter()
    # the project index of the corpus, as `sharpbits check DIR` builds it (every file fed before any is analysed):
    # a file may import another corpus file (a backend module that enables x64 at import)
    project = ProjectIndex()
    for path in files:
        project.update(path, path.read_text(encoding="utf-8"), lazy=True)
    for path in files:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(args.corpus).as_posix()
        expected = labels_of(text)
        result = analyze(text, str(path), Selection(), project=project)
        if result.syntax_error is not None:
            print(f"{name}: syntax error: {result.syntax_error.message}", file=sys.stderr)
        floor = SEVERITY_ORDER.index(args.min_severity)
        kept = [f for f in result.findings if SEVERITY_ORDER.index(f.severity) >= floor]
        got = {(f.line, f.rule) for f in kept}
        severity = {(f.line, f.rule): f.severity for f in kept}
        if not expected:
            clean_files += 1
            noisy_clean += bool(got)
        for _line, rule in sorted(got & expected):
            tp[rule] += 1
        for line, rule in sorted(got - expected):
            fp[rule] += 1
            fps.append(f"{name}:{line} {rule} [{severity[(line, rule)]}]")
        for line, rule in sorted(expected - got):
            fn[rule] += 1
            note = "" if rule in implemented else " (not implemented)"
            fns.append(f"{name}:{line} {rule}{note}")
    elapsed = time.perf_counter() - started

    rules = list(RULES) + sorted((set(tp) | set(fp) | set(fn)) - set(RULES))
    print(f"engine: {Path(sharpbits.__file__).parent}; rules: {len(implemented)}; "
          f"counting findings of severity >= {args.min_severity}")
    print(f"corpus: {len(files)} files ({len(files) - clean_files} with labels, {clean_files} clean), "
          f"analysed in {elapsed * 1000:.0f} ms")
    print(f"{'rule':<26} {'impl':<4} {'TP':>4} {'FP':>4} {'FN':>4} {'precision':>9} {'recall':>7}")
    for rule in rules:
        impl = "yes" if rule in implemented else "no"
        print(f"{rule:<26} {impl:<4} {tp[rule]:>4} {fp[rule]:>4} {fn[rule]:>4} "
              f"{ratio(tp[rule], tp[rule] + fp[rule]):>9} {ratio(tp[rule], tp[rule] + fn[rule]):>7}")
    t, p, n = sum(tp.values()), sum(fp.values()), sum(fn.values())
    print(f"{'overall':<26} {'':<4} {t:>4} {p:>4} {n:>4} {ratio(t, t + p):>9} {ratio(t, t + n):>7}")
    done = [r for r in rules if r in implemented]
    ti, pi, ni = (sum(c[r] for r in done) for c in (tp, fp, fn))
    print(f"overall (implemented rules only): TP={ti} FP={pi} FN={ni} "
          f"precision={ratio(ti, ti + pi).strip()} recall={ratio(ti, ti + ni).strip()}")
    print(f"clean files with any finding: {noisy_clean} of {clean_files}")
    print(f"false positives ({len(fps)}):")
    for item in fps:
        print(f"  FP {item}")
    print(f"false negatives ({len(fns)}):")
    for item in fns:
        print(f"  FN {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
