"""What the project index (analysis/project_index.py) costs: building it for a whole project against parsing the
same files with `ast.parse`, and updating one file's summary after an edit (what the language server pays per
changed document when the summary is asked for; feeding the text itself is lazy and costs a digest).

    .venv/bin/python bench/project_index_cost.py [FOLDER] [--runs R]

FOLDER defaults to flax in the real-code cache (.cache/realcode/src/flax-*). Ratios are measured in one run
(the median of R runs each); the script never fails on time.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import statistics
import sys
import time
import warnings
from pathlib import Path

from sharpbits.analysis.project_index import ProjectIndex

ROOT = Path(__file__).resolve().parents[1]


def _median(runs: int, work) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--edits", type=int, default=50, help="files whose summary is updated after an edit")
    args = parser.parse_args(argv)
    folder = args.folder
    if folder is None:
        found = sorted((ROOT / ".cache" / "realcode" / "src").glob("flax-*"))
        if not found:
            print("no folder given and no flax in .cache/realcode/src (run bench/realcode.py --packages flax)",
                  file=sys.stderr)
            return 2
        folder = found[-1]
    texts: dict[Path, str] = {}
    for path in sorted(folder.rglob("*.py")):
        try:
            texts[path] = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    lines = sum(t.count("\n") for t in texts.values())

    def parse_all() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for text in texts.values():
                with contextlib.suppress(SyntaxError):
                    ast.parse(text)

    def build() -> ProjectIndex:
        index = ProjectIndex(installed=False)
        for path, text in texts.items():
            index.update(path, text)
        return index

    parse_s = _median(args.runs, parse_all)
    build_s = _median(args.runs, build)
    index = build()
    shape_s = _median(args.runs, index.project_shape)
    edited = list(texts.items())[:: max(1, len(texts) // args.edits)][: args.edits]

    def update_each() -> None:
        for i, (path, text) in enumerate(edited):
            index.update(path, f"{text}\n# edit {i} {time.perf_counter()}\n")

    def feed_each() -> None:
        for i, (path, text) in enumerate(edited):
            index.update(path, f"{text}\n# fed {i} {time.perf_counter()}\n", lazy=True)

    update_s = _median(args.runs, update_each) / len(edited)
    feed_s = _median(args.runs, feed_each) / len(edited)
    parse_one = parse_s / len(texts)
    print(f"project: {folder.name}: {len(texts)} files, {lines} lines")
    print(f"ast.parse of every file        {parse_s * 1000:9.1f} ms")
    print(f"index build (parse + summarise) {build_s * 1000:8.1f} ms   ratio to ast.parse {build_s / parse_s:5.2f}")
    print(f"digest of every summary (cache key) {shape_s * 1000:4.1f} ms")
    print(f"update of one file's summary    {update_s * 1000:8.2f} ms   ratio to its ast.parse "
          f"{update_s / parse_one:5.2f} (mean file)")
    print(f"feeding one edited file (lazy)  {feed_s * 1000:8.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
