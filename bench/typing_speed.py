"""Typing in the editor, as the language server sees it: a stdio client (the one bench/server_abuse.py uses)
sends one-character edits the way VS Code does and records when the diagnostics of each version are published.

(1) start-up: `sharpbits serve` started to the `initialize` result.
(2) a 5,000-line module (bench/speed.py's generator): didOpen to the first diagnostics; then 20 edits 500 ms
    apart, each typing one character in a line inside a function: how many versions got diagnostics, whether
    every publication was for the version current when it was sent, and the time from each change to the
    diagnostics of that version (the server's debounce, adapted to the document's analysis time and at most
    `--debounce-ms` for a fast one, is part of it).
(3) a 1,000-line module, 50 edits 100 ms apart (faster than the analysis): the time from the last change to
    the diagnostics of the last version.

Every figure is also printed as a ratio to `ast.parse` of the same text, timed in this process in the same run
(these machines are noisy). The script never fails on time.

    .venv/bin/python bench/typing_speed.py [--debounce-ms 150]
"""

from __future__ import annotations

import argparse
import ast
import itertools
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from server_abuse import SERVER, Client  # noqa: E402
from speed import generate  # noqa: E402


def parse_ms(text: str, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        ast.parse(text)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def typed(text: str, version: int) -> str:
    """The text with `version` characters typed at the end of a line inside a function in the middle."""
    lines = text.splitlines(keepends=True)
    middle = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("def ")) + 1
    return "".join([*lines[:middle], lines[middle].rstrip("\n") + "  # " + "x" * version + "\n", *lines[middle + 1:]])


def publications(client: Client, uri: str, since: int) -> list[tuple[float, int | None]]:
    with client.lock:
        return [(at, m["params"].get("version")) for at, m in client.received[since:]
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]


def change(client: Client, uri: str, version: int, text: str) -> float:
    sent = time.monotonic()
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})
    return sent


def wait_for_version(client: Client, uri: str, version: int, timeout: float = 30) -> float | None:
    found = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"]["uri"] == uri and m["params"].get("version") == version, timeout)
    return found[0] if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--debounce-ms", type=int, default=150)
    args = parser.parse_args()
    options = {"debounceMs": args.debounce_ms}

    start = time.monotonic()
    client = Client(options)
    startup = time.monotonic() - start
    print(f"(1) start-up to the initialize result: {startup * 1000:.0f} ms ({' '.join(Path(SERVER[0]).parts[-3:])} serve)")

    try:
        big = generate(5000)
        big_parse = parse_ms(big)
        uri = "file:///bench/big.py"
        mark = len(client.received)
        opened = time.monotonic()
        client.open(uri, big, 1)
        first = client.published(uri, 60)
        open_ms = (first[0] - opened) * 1000 if first else float("nan")
        print(f"(2) {big.count(chr(10))} lines: didOpen to first diagnostics {open_ms:.0f} ms "
              f"({open_ms / big_parse:.1f}x ast.parse {big_parse:.0f} ms)")
        mark = len(client.received)
        sent_at: dict[int, float] = {}
        for version in range(2, 22):
            sent_at[version] = change(client, uri, version, typed(big, version))
            time.sleep(0.5)
        wait_for_version(client, uri, 21)
        seen = publications(client, uri, mark)
        versions = [v for _, v in seen]
        latencies = []
        for at, version in seen:
            if version in sent_at:
                latencies.append((at - sent_at[version]) * 1000)
        in_order = all(a <= b for a, b in itertools.pairwise(versions))
        current = all(v == max(k for k, s in sent_at.items() if s <= at) for at, v in seen if v is not None)
        lat = statistics.median(latencies) if latencies else float("nan")
        print(f"    20 edits 500 ms apart: {len(set(versions) & set(sent_at))} of 20 versions published "
              f"({'never an older version after a newer one' if in_order else 'OUT OF ORDER'}; "
              f"{'each for the version current when it was sent' if current else 'some for an older version'})")
        print(f"    change to its diagnostics: median {lat:.0f} ms ({lat / big_parse:.1f}x ast.parse), max "
              f"{max(latencies):.0f} ms: the debounce (adapted to the analysis time, at most "
              f"{args.debounce_ms} ms for a fast document) plus the analysis")

        small = generate(1000)
        small_parse = parse_ms(small)
        uri2 = "file:///bench/small.py"
        client.open(uri2, small, 1)
        client.published(uri2, 60)
        mark = len(client.received)
        last = 0.0
        for version in range(2, 52):
            last = change(client, uri2, version, typed(small, version))
            time.sleep(0.1)
        done = wait_for_version(client, uri2, 51)
        count = len({v for _, v in publications(client, uri2, mark)})
        after = (done - last) * 1000 if done else float("nan")
        print(f"(3) {small.count(chr(10))} lines, 50 edits 100 ms apart: {count} versions published; the last "
              f"version's diagnostics {after:.0f} ms after its change ({after / small_parse:.1f}x ast.parse "
              f"{small_parse:.1f} ms)")
    finally:
        client.close()


if __name__ == "__main__":
    main()
