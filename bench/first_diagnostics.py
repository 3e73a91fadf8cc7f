"""Open -> first diagnostics, as the user sees it (issue 26: "1,000 lines: <= 4x ast.parse"): a fresh `sharpbits
serve` per run, started, initialized, then a 1,000-line module opened (bench/speed.py's generator) the moment the
`initialize` result arrives, as an editor does; timed to the first publishDiagnostics of that document. So the
figure holds what the first document waits for: the analysis modules and the first analysis (lsp/early.py publishes
it before the server's own imports, after lsp/start.py's early `initialize` answer). Beside it, in the same run: the
same file opened in a server that has already analysed a document and answered a request (warm: fully imported; the
analysis alone plus the transport), and the analysis in
this process (`analyze`, and the first `IncrementalAnalysis.update`, which also keeps what the next version
reuses). Every figure is a median over `--runs` and is printed as a ratio to the fastest `ast.parse` of the file
measured in this run.

    .venv/bin/python bench/first_diagnostics.py [--runs 5]
    PYTHONPATH=/other/checkout/server .venv/bin/python bench/first_diagnostics.py   # another version, same load
"""

from __future__ import annotations

import argparse
import ast
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from server_abuse import Client  # noqa: E402
from sharpbits import analysis  # noqa: E402
from sharpbits.analysis.engine import analyze  # noqa: E402
from sharpbits.analysis.incremental import IncrementalAnalysis  # noqa: E402
from speed import generate  # noqa: E402


def parse_s(text: str, runs: int = 9) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        ast.parse(text)
        times.append(time.perf_counter() - start)
    return min(times)


def timed(action) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"server: sharpbits from {Path(analysis.__file__).parents[2]}")
    text = generate(1000)
    lines = text.count("\n")
    parse = parse_s(text)
    cold_open, cold_start, warm_open, in_process, first_update = [], [], [], [], []
    for run in range(args.runs):
        started = time.monotonic()
        client = Client({})  # returns when the initialize result arrived (and `initialized` went out)
        try:
            uri = f"file:///bench/first{run}.py"
            opened = time.monotonic()
            client.open(uri, text, 1)
            got = client.published(uri, 60)
            cold_open.append(got[0] - opened if got else float("nan"))
            cold_start.append(got[0] - started if got else float("nan"))
            client.call("sharpbits/serverStats", {})  # the server itself answers: imported (lsp/early.py published)
            uri2 = f"file:///bench/again{run}.py"
            opened = time.monotonic()
            client.open(uri2, text, 1)
            got = client.published(uri2, 60)
            warm_open.append(got[0] - opened if got else float("nan"))
        finally:
            client.close()
        in_process.append(timed(lambda: analyze(text, "first.py")))
        first_update.append(timed(lambda: IncrementalAnalysis("first.py").update(text)))
        parse = min(parse, parse_s(text, 3))

    def show(label: str, values: list[float]) -> None:
        median = statistics.median(values)
        print(f"  {label:58s} {median * 1000:7.0f} ms = {median / parse:5.1f}x ast.parse")

    print(f"{lines} lines, {args.runs} runs, ast.parse {parse * 1000:.1f} ms (fastest in this run)")
    show("fresh server: didOpen -> first diagnostics", cold_open)
    show("fresh server: process start -> first diagnostics", cold_start)
    show("warm server: didOpen -> first diagnostics", warm_open)
    show("in this process: analyze()", in_process)
    show("in this process: first IncrementalAnalysis.update()", first_update)


if __name__ == "__main__":
    main()
