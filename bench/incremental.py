"""Typing speed and folder speed, as ratios measured in one run (the script never fails on time).

(a) An edit inside one function of a generated 5,000-line JAX module (bench/speed.py's generator): the time
    until the new version's findings are known through `IncrementalAnalysis.update` (what the language server
    calls), next to a from-scratch `analyze` and `ast.parse` of the same text. Medians of paired runs. Four
    kinds of edit (under the garbage-collector settings of the language server): typing in a line; a new line,
    then typing in it (the first version moves the lines below);
    an edit that changes the number of lines on every version (each moves the lines below it); and typing a
    call into a new line, where most versions do not parse.
(b) `sharpbits check` on a folder of real code (.cache/realcode, 100k+ lines; a symlink to the corpus that
    bench/realcode.py uses): wall time with 1 process vs 2 (--no-cache), then a cold cache run vs a warm one.
    The load average is printed: other work on the machine takes cores from the 2-process run.

    .venv/bin/python bench/incremental.py [--runs N] [--folder DIR]
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from sharpbits.analysis.engine import analyze  # noqa: E402
from sharpbits.analysis.incremental import GC_THRESHOLDS, IncrementalAnalysis, tune_garbage_collector  # noqa: E402
from sharpbits.analysis.rules.prng_key_reuse.key_flow import KeyFlow  # noqa: E402
from sharpbits.analysis.rules.prng_key_reuse.reuse import KeyWalks  # noqa: E402
from speed import generate  # noqa: E402


def typed(text: str, version: int) -> str:
    """The text with one more character typed in a line inside a function in the middle of the file."""
    lines = text.splitlines(keepends=True)
    middle = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("def ")) + 1
    line = lines[middle].rstrip("\n")
    return "".join([*lines[:middle], f"{line}  # {'x' * (version + 1)}\n", *lines[middle + 1 :]])


def new_line(text: str, version: int) -> str:
    """The text with a new line (Enter, then a statement) inside a function in the middle of the file."""
    lines = text.splitlines(keepends=True)
    middle = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("def "))
    return "".join([*lines[: middle + 1], f"    edited_{version} = {version}\n", *lines[middle + 1 :]])


def enter(text: str, version: int) -> str:
    """A new line as above, and a blank one more on every other version: each version has a different number of
    lines than the one before (Enter pressed, or a line deleted), so the lines below the edit move."""
    return new_line(text, version).replace(f"    edited_{version} = {version}\n",
                                           f"    edited_{version} = {version}\n" + "\n" * (version % 2), 1)


def typing_code(text: str, version: int) -> str:
    """A new line inside a function, `y = foo(bar, baz)` typed into it one character a version: most versions do
    not parse (`y = foo(b`), as while typing code; on a syntax error the text is read for newer Python syntax too
    (analysis/parsing.py), which is what this edit times."""
    statement = "y = foo(bar, baz)"
    lines = text.splitlines(keepends=True)
    middle = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("def "))
    typed_so_far = statement[: version % len(statement) + 1]
    return "".join([*lines[: middle + 1], f"    {typed_so_far}\n", *lines[middle + 1 :]])


def parse_or_fail(text: str) -> None:
    with contextlib.suppress(SyntaxError):
        ast.parse(text)


def typing_speed(runs: int) -> None:
    text = generate(5000)
    lines = text.count("\n")
    tune_garbage_collector()  # as `sharpbits serve` does
    print(f"(a) edits inside a function of a {lines}-line file, median of {runs} (target: <= 60 ms; the garbage "
          f"collector set as the language server sets it, thresholds {GC_THRESHOLDS}):")
    for label, edit in (("one character typed in a line", typed), ("a new line, then typing in it", new_line),
                        ("the line count changes on every version", enter),
                        ("typing a call (most versions do not parse)", typing_code)):
        document = IncrementalAnalysis("big.py")
        document.update(text)
        flows, keys = document.reusable.flows, document.reusable.memory_of(KeyFlow)
        assert isinstance(keys, KeyWalks)
        flows.reused = flows.run = keys.reused = keys.run = 0
        update_s, full_s, parse_s = [], [], []
        unparsable_s: list[float] = []  # the update times of the versions that do not parse
        for version in range(runs):
            new = edit(text, version)
            gc.collect()  # each timing starts from the same heap state
            start = time.perf_counter()
            incremental = document.update(new)
            update_s.append(time.perf_counter() - start)
            if incremental.syntax_error is not None:
                unparsable_s.append(update_s[-1])
            gc.collect()
            start = time.perf_counter()
            fresh = analyze(new, "big.py")
            full_s.append(time.perf_counter() - start)
            gc.collect()
            start = time.perf_counter()
            parse_or_fail(new)
            parse_s.append(time.perf_counter() - start)
            assert [f.to_json(False) for f in incremental.findings] == [f.to_json(False) for f in fresh.findings]
        update, full, parse = (statistics.median(s) * 1000 for s in (update_s, full_s, parse_s))
        print(f"    {label}: IncrementalAnalysis.update {update:.0f} ms | analyze from scratch {full:.0f} ms | "
              f"ast.parse {parse:.1f} ms | update / ast.parse {update / parse:.1f}x, analyze / ast.parse "
              f"{full / parse:.1f}x, update / analyze {update / full:.2f} "
              f"({document.reused_parses} of {runs} parses reused; per version {flows.reused / runs:.0f} of "
              f"{(flows.reused + flows.run) / runs:.0f} function flows, {keys.reused / runs:.0f} of "
              f"{(keys.reused + keys.run) / runs:.0f} key walks reused)")
        if unparsable_s:
            unparsable = statistics.median(unparsable_s) * 1000
            print(f"      the {len(unparsable_s)} versions that do not parse: IncrementalAnalysis.update {unparsable:.0f} ms "
                  f"= {unparsable / parse:.1f}x ast.parse")


CORES_USED: dict[str, list[float]] = {}  # label -> CPU seconds / wall seconds of each run (what it got)


def check_seconds(folder: Path, *args: str, label: str = "") -> float:
    command = [str(Path(sys.executable).with_name("sharpbits")), "check", "--no-exclude", *args, str(folder)]
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    CORES_USED.setdefault(label, []).append(cpu / wall)
    return wall


def folder_speed(folder: Path, runs: int) -> None:
    files = [p for p in folder.rglob("*.py")]
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(f"(b) sharpbits check on {folder} ({len(files)} files, {lines:,} lines), {os.cpu_count()} cores, "
          f"load average before: {os.getloadavg()[0]:.2f}")
    one, two = [], []
    for _ in range(runs):  # back to back, so both see the same load
        one.append(check_seconds(folder, "--no-cache", "--jobs", "1", label="1"))
        two.append(check_seconds(folder, "--no-cache", "--jobs", "2", label="2"))
    one_s, two_s = statistics.median(one), statistics.median(two)
    print(f"    1 process {one_s:.2f} s | 2 processes {two_s:.2f} s | speed-up {one_s / two_s:.2f}x (target >= 1.7x)")
    print(f"    cores the runs got (CPU s / wall s, median): 1 process {statistics.median(CORES_USED['1']):.2f}, "
          f"2 processes {statistics.median(CORES_USED['2']):.2f} (below 2: other work held a core)")
    with tempfile.TemporaryDirectory() as cache:
        cold = check_seconds(folder, "--cache-dir", cache)
        warm = statistics.median(check_seconds(folder, "--cache-dir", cache) for _ in range(max(runs, 3)))
    print(f"    cache: cold {cold:.2f} s | warm {warm:.2f} s | {cold / warm:.1f}x faster (target >= 10x)")
    print(f"    load average after: {os.getloadavg()[0]:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--folder", type=Path, default=ROOT / ".cache" / "realcode")
    args = parser.parse_args()
    typing_speed(args.runs)
    if args.folder.exists():
        folder_speed(args.folder, max(args.runs // 2, 1))
    else:
        print(f"(b) skipped: {args.folder} does not exist (link the real-code corpus there)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
