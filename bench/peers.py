"""The user-visible figures of sharpbits beside Ruff's and pyflakes' (issue 26: "The README's performance section
states these user-visible figures, with Ruff's and pyflakes' beside them"), measured in one run on the same files:

- start-up to the `initialize` result: `sharpbits serve` and `ruff server`, each started fresh (median of
  `--runs`); pyflakes has no server: the start of `python -m pyflakes` on an empty file to its exit;
- open -> first diagnostics, 1,000 lines (bench/speed.py's generator): didOpen to the first publishDiagnostics
  in a fresh server (the server's imports after its `initialize` answer count) and in a warm one; pyflakes: its
  check of the file in this process (`pyflakes.api.check`);
- keystroke -> publication on a 5,000-line file: 20 one-character edits 300 ms apart (each one shown before the
  next: what a pause after typing shows), median from didChange to the publication of that version; pyflakes:
  its check of the edited text in this process.

Every figure is also a ratio to the fastest `ast.parse` of the same file measured in this run. Ruff's server gets
no configuration (its defaults: the pyflakes and pycodestyle rules it enables). Needs the bench extra
(`pip install -e '.[bench]'`: pyflakes; Ruff comes with it).

    .venv/bin/python bench/peers.py [--runs 3]
"""

from __future__ import annotations

import argparse
import ast
import io
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

import server_abuse  # noqa: E402
from speed import generate  # noqa: E402
from typing_speed import typed  # noqa: E402

SERVERS = {
    "sharpbits": [str(Path(sys.executable).with_name("sharpbits")), "serve"],
    "ruff": [str(Path(sys.executable).with_name("ruff")), "server"],
}
EDITS = 20


def parse_s(text: str) -> float:
    times = []
    for _ in range(9):
        start = time.perf_counter()
        ast.parse(text)
        times.append(time.perf_counter() - start)
    return min(times)


def start(command: list[str]) -> tuple[server_abuse.Client, float]:
    server_abuse.SERVER = command
    started = time.monotonic()
    client = server_abuse.Client({})
    return client, time.monotonic() - started


def published_version(client: server_abuse.Client, uri: str, version: int) -> float | None:
    found = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"]["uri"] == uri and m["params"].get("version") in (version, None), 60)
    return found[0] if found else None


def server_figures(command: list[str], small: str, big: str, run: int) -> dict[str, float]:
    client, startup = start(command)
    out = {"startup": startup}
    try:
        uri = f"file:///bench/open{run}.py"
        opened = time.monotonic()
        client.open(uri, small, 1)
        got = published_version(client, uri, 1)
        out["open_fresh"] = (got - opened) if got else float("nan")
        uri = f"file:///bench/again{run}.py"
        opened = time.monotonic()
        client.open(uri, small, 1)
        got = published_version(client, uri, 1)
        out["open_warm"] = (got - opened) if got else float("nan")
        uri = f"file:///bench/big{run}.py"
        client.open(uri, big, 1)
        published_version(client, uri, 1)
        delays = []
        for version in range(2, EDITS + 2):
            time.sleep(0.3)
            sent = time.monotonic()
            client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": [{"text": typed(big, version - 1)}]})
            got = published_version(client, uri, version)
            delays.append((got - sent) if got else float("nan"))
        out["keystroke"] = statistics.median(delays)
    finally:
        client.close()
    return out


def pyflakes_figures(small: str, big: str) -> dict[str, float]:
    from pyflakes import api, reporter

    def check(text: str) -> float:
        quiet = reporter.Reporter(io.StringIO(), io.StringIO())
        started = time.perf_counter()
        api.check(text, "x.py", quiet)
        return time.perf_counter() - started

    empty = Path(ROOT.parent / ".cache" / "peers-empty.py")
    empty.parent.mkdir(exist_ok=True)
    empty.write_text("")
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "pyflakes", str(empty)], check=False)
    return {"startup": time.monotonic() - started, "open_fresh": check(small), "open_warm": check(small),
            "keystroke": statistics.median(check(typed(big, k)) for k in range(1, 6))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    small, big = generate(1000), generate(5000)
    figures: dict[str, list[dict[str, float]]] = {name: [] for name in [*SERVERS, "pyflakes"]}
    for run in range(args.runs):
        for name, command in SERVERS.items():
            figures[name].append(server_figures(command, small, big, run))
        figures["pyflakes"].append(pyflakes_figures(small, big))
    small_parse, big_parse = parse_s(small), parse_s(big)
    rows = [("start-up to the initialize result", "startup", None),
            (f"open -> first diagnostics, {small.count(chr(10))} lines, fresh server", "open_fresh", small_parse),
            (f"open -> first diagnostics, {small.count(chr(10))} lines, warm server", "open_warm", small_parse),
            (f"keystroke -> publication, {big.count(chr(10))} lines (median)", "keystroke", big_parse)]
    print(f"{args.runs} runs; ast.parse: 1,000 lines {small_parse * 1000:.1f} ms, 5,000 lines {big_parse * 1000:.1f} ms")
    print(f"  {'':58s}" + "".join(f"{name:>22s}" for name in figures))
    for label, key, parse in rows:
        cells = []
        for name in figures:
            value = statistics.median(f[key] for f in figures[name])
            cells.append(f"{value * 1000:7.0f} ms" + (f" {value / parse:5.1f}x" if parse else "       "))
        print(f"  {label:58s}" + "".join(f"{c:>22s}" for c in cells))
    print("  (pyflakes has no server: its start-up is `python -m pyflakes` on an empty file, its other figures are its "
          "check of the same text in this process)")


if __name__ == "__main__":
    main()
