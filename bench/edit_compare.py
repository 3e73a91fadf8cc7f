"""One edit's analysis (`IncrementalAnalysis.update`, what the language server runs per keystroke) on a 5,000-line
file, this checkout beside another, paired edit by edit (issue 26's before/after on a noisy machine).

Two worker processes, one importing this checkout's `server/`, one `--compare DIR` (another checkout's `server/`
folder), each open the same generated module (bench/speed.py), then type the same one-character edits inside a
function (bench/typing_speed.py's `typed`); the driver asks them in turn, alternating which goes first, so both
see the same load. Each worker runs under the language server's garbage-collector settings (the collector off
during the analysis, as `sharpbits serve` has it since issue 26: collections between edits are not timed).
Prints each side's median and the median of the paired ratios (this / compare), and `ast.parse` of the file.
`--opens N`: also N opens of a 1,000-line module (a fresh `IncrementalAnalysis`, what the server runs on didOpen),
paired the same way, against `ast.parse` of that module. `--project`: as in `sharpbits serve`, the analyses ask a
project index (the process's shared one, rooted at a temporary folder holding the file), fed each version's text
before it is analysed (lsp/features/documents.py); without it no index is asked.

    .venv/bin/python bench/edit_compare.py --compare /work/main/server [--edits 40] [--lines 5000] [--opens 10]
        [--project]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent

WORKER = r"""
import gc, json, sys, time
sys.path.insert(0, sys.argv[1])
from speed import generate
from typing_speed import typed
from sharpbits.analysis.incremental import IncrementalAnalysis, tune_garbage_collector
text = generate(int(sys.argv[2]))
index, folder = None, sys.argv[3] if len(sys.argv) > 3 else ""
path = "big.py"
if folder:  # as the language server: a shared index, fed every version of the document
    from pathlib import Path
    from sharpbits.analysis.project_index import start_shared_index
    index = start_shared_index([Path(folder)])
    path = str(Path(folder) / "big.py")
tune_garbage_collector()
gc.disable()
doc = IncrementalAnalysis(path)
if index is not None:
    index.update(path, text, lazy=True)
doc.update(text)
small = generate(1000)
print(json.dumps("ready"), flush=True)
for line in sys.stdin:
    gc.collect(0)
    if line.startswith("open"):
        start = time.perf_counter()
        IncrementalAnalysis(f"{folder}/small{line.split()[1]}.py" if folder else f"small{line.split()[1]}.py").update(small)
    else:
        new = typed(text, int(line))
        if index is not None:
            index.update(path, new, lazy=True)
        gc.collect(0)
        start = time.perf_counter()
        doc.update(new)
    print(json.dumps(time.perf_counter() - start), flush=True)
"""


class Worker:
    def __init__(self, server_dir: str | None, lines: int, folder: str = "") -> None:
        env = dict(os.environ)
        if server_dir is not None:
            env["PYTHONPATH"] = server_dir
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(ROOT), str(lines), folder], env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.times: list[float] = []
        self.opens: list[float] = []

    def read(self) -> object:
        assert self.proc.stdout is not None
        return json.loads(self.proc.stdout.readline())

    def edit(self, k: int) -> float:
        return self.ask(str(k), self.times)

    def open(self, k: int) -> float:
        return self.ask(f"open {k}", self.opens)

    def ask(self, line: str, into: list[float]) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        took = float(self.read())  # type: ignore[arg-type]
        into.append(took)
        return took

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--compare", required=True, metavar="DIR", help="another checkout's server/ folder")
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--opens", type=int, default=0)
    parser.add_argument("--project", action="store_true", help="ask a project index, as the language server does")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from speed import generate

    text = generate(args.lines)
    folders = [tempfile.mkdtemp(prefix="edit-compare-") if args.project else "" for _ in range(2)]
    this, other = Worker(None, args.lines, folders[0]), Worker(args.compare, args.lines, folders[1])
    try:
        this.read()
        other.read()
        ratios = []
        parse = []
        for k in range(1, args.edits + 1):
            first, second = (this, other) if k % 2 else (other, this)
            first.edit(k)
            second.edit(k)
            ratios.append(this.times[-1] / other.times[-1])
            start = time.perf_counter()
            ast.parse(text)
            parse.append(time.perf_counter() - start)
        small = generate(1000)
        open_ratios, small_parse = [], []
        for k in range(args.opens):
            first, second = (this, other) if k % 2 else (other, this)
            first.open(k)
            second.open(k)
            open_ratios.append(this.opens[-1] / other.opens[-1])
            start = time.perf_counter()
            ast.parse(small)
            small_parse.append(time.perf_counter() - start)
    finally:
        this.close()
        other.close()
        for folder in folders:
            if folder:
                shutil.rmtree(folder, ignore_errors=True)
    best = min(parse)
    for label, worker in (("this checkout", this), (f"--compare {args.compare}", other)):
        median = statistics.median(worker.times)
        print(f"{label}: one edit's analysis, median of {args.edits}: {median * 1000:.1f} ms = "
              f"{median / best:.2f}x ast.parse ({best * 1000:.1f} ms, fastest)")
    print(f"paired ratio this / compare: median {statistics.median(ratios):.3f} "
          f"(quartiles {statistics.quantiles(ratios, n=4)[0]:.3f}-{statistics.quantiles(ratios, n=4)[2]:.3f})")
    if args.opens:
        best = min(small_parse)
        for label, worker in (("this checkout", this), (f"--compare {args.compare}", other)):
            median = statistics.median(worker.opens)
            print(f"{label}: open 1,000 lines (fresh analysis), median of {args.opens}: {median * 1000:.1f} ms = "
                  f"{median / best:.2f}x ast.parse ({best * 1000:.1f} ms, fastest)")
        print(f"paired ratio this / compare (open): median {statistics.median(open_ratios):.3f}")


if __name__ == "__main__":
    main()
