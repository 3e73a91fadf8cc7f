"""`sharpbits serve` with hostile notebooks (issue 24, item 5): how long until a notebook's cells get diagnostics,
whether its analysis was stopped at the budget, when a small .py opened right after it gets its own, and the
server's peak RSS.

Cases, one fresh server each: N cells of `%time x = 1` (8,000 and 32,000; the quadratic case of issue 24), the
same under a small `analysisBudgetMs` (the analysis is stopped for real), and a cell that makes a rule spin forever
(`SHARPBITS_DEBUG_STALL_RULE`, the tests' fault switch). Next to each: `analyze_sources` of the same cells in this
process, measured in the same run, and the ratio. Never fails on time (these machines are noisy).

    .venv/bin/python bench/notebook_abuse.py [--limit SECONDS]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_abuse import SMALL, Client  # a sibling script, not a package
from sharpbits.analysis.engine import STALL_MARK
from sharpbits.notebooks import analyze_sources


def open_notebook(client: Client, uri: str, cells: list[str]) -> list[str]:
    cell_uris = [f"vscode-notebook-cell://bench{uri[len('file://'):]}#W{n}" for n in range(len(cells))]
    client.notify("notebookDocument/didOpen", {
        "notebookDocument": {"uri": uri, "notebookType": "jupyter-notebook", "version": 1,
                             "cells": [{"kind": 2, "document": c} for c in cell_uris]},
        "cellTextDocuments": [{"uri": c, "languageId": "python", "version": 1, "text": text}
                              for c, text in zip(cell_uris, cells, strict=True)]})
    return cell_uris


def case(name: str, cells: list[str], options: dict, limit: float, stall: str | None = None) -> None:
    started = time.perf_counter()
    analyze_sources(list(enumerate(cells)), "bench.ipynb")
    in_process = time.perf_counter() - started
    if stall:
        os.environ["SHARPBITS_DEBUG_STALL_RULE"] = stall
    try:
        client = Client(options)
    finally:
        os.environ.pop("SHARPBITS_DEBUG_STALL_RULE", None)
    try:
        uri, small = "file:///bench/hostile.ipynb", "file:///bench/small.py"
        start = time.monotonic()
        first = open_notebook(client, uri, cells)[0]
        client.open(small, SMALL)
        published = client.published(first, limit)
        other = client.published(small, limit)
        took = published[0] - start if published else None
        other_at = other[0] - start if other else None
        notice = ""
        if published:
            stopped = [d for d in published[1]["params"]["diagnostics"] if d.get("code") == "stopped"]
            notice = stopped[0]["message"][len("sharpbits: "):][:90] if stopped else "not stopped"
        ratio = f"{took / in_process:6.1f}x" if took and in_process > 0.01 else "      -"
        rss = client.status_kb("VmHWM") / 1024
        print(f"{name:34} {fmt(took):>9} {fmt(in_process):>10} {ratio} {fmt(other_at):>10} {rss:6.0f} MB  {notice}")
    finally:
        client.close()


def fmt(t: float | None) -> str:
    return f"{t:.2f} s" if t is not None else "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=180, help="seconds to wait for each notebook")
    args = parser.parse_args()
    print(f"{'notebook':34} {'published':>9} {'in-process':>10} {'ratio':>7} {'other doc':>10} {'peak RSS':>9}  notice")
    for count in (8_000, 32_000):
        case(f"{count:,} `%time x = 1` cells", ["%time x = 1"] * count, {}, args.limit)
    case("32,000 cells, analysisBudgetMs 300", ["%time x = 1"] * 32_000, {"analysisBudgetMs": 300}, args.limit)
    stalled = ["import jax\nkey = jax.random.key(0)", "a = jax.random.normal(key)\nb = jax.random.normal(key)",
               STALL_MARK]
    case("a rule spinning forever, budget 2 s", stalled, {"analysisBudgetMs": 2000}, args.limit,
         stall="prng-key-reuse")


if __name__ == "__main__":
    main()
