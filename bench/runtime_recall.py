"""A dynamic oracle for our recall: real libraries' test suites under `pytest --sharpbits`, and per rule what running
found that static analysis missed (and the reverse).

For each library (the pinned sources of bench/realcode.py, downloaded and unpacked the same way into
`.cache/realcode/`), some of its test modules run under the plugin from the unpacked source tree, so the
library's own modules are user code: findings land in them and in the tests. Their test-only dependencies (absl,
toolz, ...) are installed once into `.cache/runtime_recall/deps` (JAX and NumPy are this environment's). Every
runtime finding is judged against `tests/corpus/runtime_recall/verdicts.tsv` (`location<TAB>rule<TAB>verdict<TAB>
reason`, as for realcode.py).

    .venv/bin/python bench/runtime_recall.py [--packages chex,jraph] [--timeout 900] [--json] [--unjudged]

Per rule: runtime findings (true/false/unjudged), how many static analysis flagged with the same rule on that line
(SB201 is a static rule too) or with any rule, and "static missed": true runtime findings static analysis did not
flag with that rule. The reverse, for SB201: static SB201 findings in the test modules that ran that running did not
see (a path the tests did not take, or a static false alarm). Exits 1 when a runtime finding has no verdict.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

sys.path.insert(0, str(Path(__file__).resolve().parent))
from realcode import CACHE, PACKAGES, context_of, fetch, read_verdicts
from sharpbits.analysis.engine import Selection, analyze

ROOT = Path(__file__).resolve().parent.parent
DEPS = ROOT / ".cache" / "runtime_recall" / "deps"
VERDICTS = ROOT / "tests" / "corpus" / "runtime_recall" / "verdicts.tsv"
TEST_DEPS = ("absl-py==2.1.0", "toolz==1.0.0", "cloudpickle==3.1.1", "dm-tree==0.1.9", "etils[epy]==1.12.2")
STATIC_RULE = {"SB201": "prng-key-reuse"}  # runtime codes that are static rules too

# package -> the test modules run (paths in its source tree): those that exercise jit, keys and transformations,
# a few per library so that the whole table runs in minutes on a laptop (jraph 0.0.6's tests import
# `jax.lib.xla_bridge`, gone from current JAX; jaxopt's sdist has no tests). chex is on the path of every run (the
# others import it).
SUITES: dict[str, tuple[str, ...]] = {
    "chex": ("chex/_src/variants_test.py", "chex/_src/dimensions_test.py", "chex/_src/fake_test.py"),
    "mctx": ("mctx/_src/tests/policies_test.py", "mctx/_src/tests/qtransforms_test.py",
             "mctx/_src/tests/seq_halving_test.py"),
    "dm-pix": ("dm_pix/_src/api_test.py", "dm_pix/_src/interpolation_test.py"),  # the others import tensorflow
    "optax": ("optax/_src/transform_test.py", "optax/_src/update_test.py", "optax/_src/utils_test.py",
              "optax/perturbations/_make_pert_test.py"),
    # blackjax imports chex and optax (their unpacked sources go on its path); its compilation tests count traces
    # of the log density, the proposal and trajectory tests jit and vmap samplers with keys
    "blackjax": ("tests/test_compilation.py", "tests/mcmc/test_proposal.py", "tests/mcmc/test_uturn.py",
                 "tests/mcmc/test_trajectory.py"),
}
NEEDS: dict[str, tuple[str, ...]] = {"blackjax": ("optax",)}  # other unpacked sources a suite imports


@dataclass
class Run:
    package: str
    seconds: float
    exit_code: int
    passed: int = 0
    failed: int = 0
    errors: int = 0
    findings: list[dict[str, Any]] = field(default_factory=list)
    static_sb201: list[str] = field(default_factory=list)  # locations of static SB201 findings in its test modules
    error: str = ""


def install_deps() -> None:
    stamp = DEPS / ".complete"
    if stamp.exists():
        return
    DEPS.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
           "--target", str(DEPS), *TEST_DEPS]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"installing the test dependencies failed:\n{proc.stderr.strip()}")
    stamp.write_text("\n".join(TEST_DEPS) + "\n")


def run_suite(package: str, folder: Path, chex: Path, timeout: float, extra: tuple[Path, ...] = ()) -> Run:
    # real paths: .cache/realcode is often a link to a shared cache, and pytest names tests relative to a rootdir
    # it resolves ("::Class::test" instead of "module.py::Class::test" when the two spellings differ)
    folder, chex, extra = folder.resolve(), chex.resolve(), tuple(p.resolve() for p in extra)
    modules = [m for m in SUITES[package] if (folder / m).exists()]
    report = folder / ".sharpbits-runtime-report.json"
    junit = folder / ".sharpbits-runtime-junit.xml"
    report.unlink(missing_ok=True)
    junit.unlink(missing_ok=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([str(folder), str(chex), *map(str, extra), str(DEPS)]))
    env["JAX_PLATFORMS"] = env.get("JAX_PLATFORMS", "cpu")
    env.pop("SHARPBITS_RUNTIME_OPTIONS", None)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "sharpbits", "--sharpbits",
           "--sharpbits-format", "json", "--sharpbits-output", str(report), "-o", "addopts=", "--continue-on-collection-errors", "--junitxml", str(junit), "--rootdir",
           str(folder), *modules]
    started = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True, timeout=timeout)
        code, out = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as exc:
        code, out = -1, f"timed out after {timeout:g} s: {exc}"
    run = Run(package, time.monotonic() - started, code)
    if junit.exists():
        suites = ElementTree.parse(junit).getroot().iter("testsuite")
        totals = Counter[str]()
        for suite in suites:
            for key in ("tests", "failures", "errors", "skipped"):
                totals[key] += int(suite.get(key, 0))
        run.failed, run.errors = totals["failures"], totals["errors"]
        run.passed = totals["tests"] - totals["failures"] - totals["errors"] - totals["skipped"]
        junit.unlink()
    if report.exists():
        run.findings = json.loads(report.read_text(encoding="utf-8"))
        report.unlink()
    else:
        run.error = out[-2000:]
    for module in modules:
        path = folder / module
        result = analyze(path.read_text(encoding="utf-8"), str(path), Selection())
        run.static_sb201 += [f"{package}/{module}:{f.line}" for f in result.findings if f.code == "SB201"]
    return run


def location(package: str, finding: dict[str, Any]) -> str:
    return f"{package}/{finding['path']}:{finding['line']}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--packages", default=",".join(SUITES), help="comma-separated (default: all of SUITES)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per package's tests (default 900)")
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    parser.add_argument("--unjudged", action="store_true", help="print every unjudged finding with its context")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.packages.split(",") if n.strip()]
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        parser.error(f"no suite for {', '.join(unknown)}: choose from {', '.join(SUITES)}")
    verdicts = read_verdicts(VERDICTS) if VERDICTS.exists() else {}
    install_deps()
    needed = {*names, "chex", *(n for name in names for n in NEEDS.get(name, ()))}
    folders = {name: fetch(name, *PACKAGES[name], CACHE) for name in sorted(needed)}
    runs = [run_suite(name, folders[name], folders["chex"], args.timeout,
                      tuple(folders[n] for n in NEEDS.get(name, ()))) for name in names]

    rows: dict[str, Counter[str]] = {}
    unjudged: list[tuple[str, dict[str, Any]]] = []
    judged: list[dict[str, Any]] = []
    for run in runs:
        for f in run.findings:
            loc = location(run.package, f)
            row = rows.setdefault(f"{f['code']} {f['rule']}", Counter())
            verdict = verdicts.get((loc, f["rule"]))
            kind = "unjudged" if verdict is None else verdict.verdict
            row["findings"] += 1
            row[kind] += 1
            static = f.get("static") or []
            same = any(s.split()[0] == f["code"] for s in static) if f["code"] in STATIC_RULE else False
            row["static same rule"] += same
            row["static any rule"] += bool(static)
            if kind == "true" and not same:
                row["static missed"] += 1
            if verdict is None:
                unjudged.append((loc, f))
            judged.append({"location": loc, "code": f["code"], "rule": f["rule"], "verdict": kind,
                           "count": f.get("count"), "static": static, "message": f["message"]})
        seen = {location(run.package, f) for f in run.findings if f["code"] == "SB201"}
        row = rows.setdefault("SB201 prng-key-reuse", Counter())
        row["static only"] += sum(1 for loc in run.static_sb201 if loc not in seen)

    if args.json:
        json.dump({"runs": [{"package": r.package, "seconds": round(r.seconds, 1), "exit": r.exit_code,
                             "passed": r.passed, "failed": r.failed, "errors": r.errors, "findings": len(r.findings),
                             "error": r.error} for r in runs],
                   "rules": {k: dict(v) for k, v in sorted(rows.items())}, "findings": judged}, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(f"{'package':10} {'tests passed/failed/errors':>26} {'seconds':>8} {'runtime findings':>17}")
        for r in runs:
            print(f"{r.package:10} {f'{r.passed}/{r.failed}/{r.errors}':>26} {r.seconds:8.1f} {len(r.findings):17}"
                  + (f"   (no report: {r.error.strip().splitlines()[-1] if r.error.strip() else '?'})"
                     if r.error else ""))
        print()
        cols = ("findings", "true", "false", "unjudged", "static same rule", "static any rule", "static missed",
                "static only")
        print(f"{'rule':30}" + "".join(f"{c:>17}" for c in cols))
        for name, row in sorted(rows.items()):
            print(f"{name:30}" + "".join(f"{row.get(c, 0):17}" for c in cols))
        print("\nstatic missed: true runtime findings static analysis did not flag with that rule (the runtime-only "
              "rules have no static rule);\nstatic only: static SB201 findings in the test modules that ran, not "
              "seen at runtime")
        for item in judged:
            print(f"  {item['location']}: {item['code']} [{item['verdict']}] x{item['count']} "
                  f"{item['message'].split(' [seen at runtime')[0][:150]}")
    if unjudged:
        print(f"\n{len(unjudged)} runtime finding(s) without a verdict in {VERDICTS.relative_to(ROOT)}:",
              file=sys.stderr)
        for loc, f in unjudged:
            print(f"  {loc}\t{f['rule']}", file=sys.stderr)
            if args.unjudged:
                print(context_of(loc, {n: folders[n] for n in folders}), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
