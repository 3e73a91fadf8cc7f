"""Typing in the editor, as the user sees it: a stdio client (the one bench/server_abuse.py uses) sends
one-character edits the way VS Code does and records when the diagnostics are published (issue 26's measure).

(1) start-up: `sharpbits serve` started to the `initialize` result (bench/startup.py measures it properly).
(2) a 5,000-line module (bench/speed.py's generator): didOpen to the first diagnostics; then 40 one-character
    edits in a line inside a function at typing pace: bursts of 3-8 keys 80-150 ms apart, with pauses of 0.6-1.0 s
    between bursts (fixed seed). Per edit, keystroke -> publication: from the edit's didChange to the first
    publishDiagnostics of that version or a newer one (the squiggles that take the keystroke into account). The
    median is printed as a ratio to `ast.parse` of the file; the worst delay after a pause (the last keystroke of
    each burst to its publication) as a ratio to the analysis time of one edit, measured in this process on the
    same edits (`IncrementalAnalysis.update`); and the first key of each burst (after a pause: nothing else is
    running, so this is the debounce, if any, plus one analysis and the transport).
(2b) controlled, the case that sets the worst delay after a pause: a key sent 55% of an analysis time after the one
    before (that older version's analysis is past half its time), then a pause; its keystroke -> publication as a
    ratio to a key sent alone after a pause, interleaved in the same server (8 of each).
(3) a 1,000-line module opened 5 times (fresh URIs): didOpen to the first diagnostics, median, as a ratio to
    `ast.parse` of the file.

Every ratio is measured in the same run (these machines are noisy). The script never fails on time. Before/after:
`--compare DIR` starts a second server from another checkout's `server/` folder (PYTHONPATH=DIR) beside this one
and interleaves every measure between the two (each burst is typed into one server, then the same burst into the
other; the opens and (2b)'s trials alternate likewise), so both see the same load; each server's ratios are to the
same `ast.parse` time and to its own analysis time (measured in a process of its own code, alternating). `--rounds
N` repeats the 40 edits N times (new documents each round).

    .venv/bin/python bench/typing_speed.py [--seed 26]
    .venv/bin/python bench/typing_speed.py --compare /work/main/server [--rounds 2]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from server_abuse import Client  # noqa: E402
from sharpbits import analysis  # noqa: E402
from sharpbits.analysis.incremental import IncrementalAnalysis  # noqa: E402
from speed import generate  # noqa: E402

EDITS = 40


def parse_ms(text: str, runs: int = 9) -> float:
    """`ast.parse` of the text, the fastest of `runs` (a median swung 100-300 ms on a loaded 2-core machine)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        ast.parse(text)
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def typed(text: str, keys: int) -> str:
    """The text with `keys` characters typed at the end of a line inside a function in the middle (a comment
    grows one character a key: every version parses, as most do while typing)."""
    lines = text.splitlines(keepends=True)
    middle = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("def ")) + 1
    return "".join([*lines[:middle], lines[middle].rstrip("\n") + "  #" + "x" * keys + "\n", *lines[middle + 1:]])


def typing_pace(rng: random.Random, edits: int) -> list[tuple[float, bool]]:
    """(the wait before each edit, whether the edit ends a burst): bursts of 3-8 keys 80-150 ms apart, a pause of
    0.6-1.0 s after each burst."""
    out: list[tuple[float, bool]] = []
    while len(out) < edits:
        burst = rng.randint(3, 8)
        for k in range(burst):
            if len(out) == edits:
                break
            wait = rng.uniform(0.6, 1.0) if k == 0 and out else rng.uniform(0.08, 0.15)
            out.append((wait, k == burst - 1 or len(out) == edits - 1))
    return out


def analysis_ms(base: str, versions: list[str]) -> float:
    """The analysis time of one edit: IncrementalAnalysis on the same texts, median."""
    document = IncrementalAnalysis("big.py")
    document.update(base)
    times = []
    for text in versions:
        start = time.perf_counter()
        document.update(text)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


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
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--compare", metavar="DIR", help="another checkout's server/ folder, measured beside this one")
    parser.add_argument("--rounds", type=int, default=1, help="with --compare: the 40 edits this many times")
    args = parser.parse_args()
    if args.compare:
        compare(args)
        return
    print(f"server: sharpbits from {Path(analysis.__file__).parents[2]}")

    start = time.monotonic()
    client = Client({})
    startup = time.monotonic() - start
    print(f"(1) start-up to the initialize result: {startup * 1000:.0f} ms")

    try:
        big = generate(5000)
        big_parse = parse_ms(big)
        pace = typing_pace(random.Random(args.seed), EDITS)
        texts = {version: typed(big, version - 1) for version in range(2, EDITS + 2)}
        uri = "file:///bench/big.py"
        opened = time.monotonic()
        client.open(uri, big, 1)
        first = client.published(uri, 60)
        open_ms = (first[0] - opened) * 1000 if first else float("nan")
        print(f"(2) {big.count(chr(10))} lines: didOpen to first diagnostics {open_ms:.0f} ms "
              f"({open_ms / big_parse:.1f}x ast.parse {big_parse:.0f} ms)")
        mark = len(client.received)
        sent_at: dict[int, float] = {}
        burst_ends: list[int] = []
        burst_starts: list[int] = []
        for version, (wait, ends_burst) in zip(texts, pace, strict=True):
            time.sleep(wait)
            sent_at[version] = change(client, uri, version, texts[version])
            if ends_burst:
                burst_ends.append(version)
            if wait > 0.5:
                burst_starts.append(version)
        last = max(texts)
        wait_for_version(client, uri, last)
        seen = publications(client, uri, mark)
        latency: dict[int, float] = {}
        for version, sent in sent_at.items():
            shown = [at for at, v in seen if v is not None and v >= version and at >= sent]
            latency[version] = (min(shown) - sent) * 1000 if shown else float("nan")
        one = analysis_ms(big, [texts[v] for v in sorted(texts)])
        median = statistics.median(latency.values())
        after_pause = [latency[v] for v in burst_ends]
        worst = max(after_pause)
        versions = [v for _, v in seen]
        in_order = versions == sorted(versions)
        print(f"    {EDITS} one-character edits at typing pace ({len(burst_ends)} bursts, seed {args.seed}): "
              f"{len(set(versions) & set(sent_at))} versions published, "
              f"{'never an older after a newer' if in_order else 'OUT OF ORDER'}")
        print(f"    keystroke -> publication: median {median:.0f} ms = {median / big_parse:.2f}x ast.parse "
              f"({big_parse:.0f} ms); slowest {max(latency.values()):.0f} ms")
        print(f"    after a pause (last key of each burst): worst {worst:.0f} ms = {worst / one:.2f} analysis times "
              f"(one edit's analysis in this process: {one:.0f} ms = {one / big_parse:.2f}x ast.parse); "
              f"median {statistics.median(after_pause):.0f} ms")
        first_keys = statistics.median(latency[v] for v in burst_starts)
        print(f"    the first key after a pause (nothing else running): median {first_keys:.0f} ms = "
              f"{first_keys / one:.2f} analysis times = {first_keys / big_parse:.2f}x ast.parse")

        # (2b) the worst case after a pause, controlled: a key sent 55% of an analysis after the one before (the
        # older version is past half its time, still in its model), then nothing; against a key alone after a
        # pause, interleaved in the same server (a ratio the machine's load moves little)
        base = max(texts) + 1
        alone, second = [], []
        for trial in range(8):
            version = base + 3 * trial
            time.sleep(0.5)
            sent = change(client, uri, version, typed(big, version))
            got = wait_for_version(client, uri, version)
            alone.append((got or float("nan")) - sent)
            time.sleep(0.5)
            change(client, uri, version + 1, typed(big, version + 1))
            time.sleep(0.55 * statistics.median(alone))
            sent = change(client, uri, version + 2, typed(big, version + 2))
            got = wait_for_version(client, uri, version + 2)
            second.append((got or float("nan")) - sent)
        ratio = statistics.median(second) / statistics.median(alone)
        print(f"(2b) a key 55% of an analysis after the one before, then a pause: median {statistics.median(second) * 1000:.0f} "
              f"ms = {ratio:.2f}x a key alone after a pause ({statistics.median(alone) * 1000:.0f} ms), worst "
              f"{max(second) / statistics.median(alone):.2f}x (8 of each, interleaved)")

        small = generate(1000)
        small_parse = parse_ms(small)
        opens = []
        for i in range(5):
            uri2 = f"file:///bench/small{i}.py"
            opened = time.monotonic()
            client.open(uri2, small, 1)
            got = client.published(uri2, 60)
            opens.append((got[0] - opened) * 1000 if got else float("nan"))
        open_small = statistics.median(opens)
        print(f"(3) {small.count(chr(10))} lines, opened 5 times: didOpen to first diagnostics median "
              f"{open_small:.0f} ms = {open_small / small_parse:.1f}x ast.parse ({small_parse:.1f} ms)")
    finally:
        client.close()


class Served:
    """One server under measure: its client and what was measured of it."""

    def __init__(self, label: str, server_dir: str | None) -> None:
        self.label, self.server_dir = label, server_dir
        env = dict(os.environ)
        if server_dir is not None:
            env["PYTHONPATH"] = server_dir
        self.env = env
        start = time.monotonic()
        self.client = Client({}, env=env)
        self.startup = time.monotonic() - start
        self.latency: list[float] = []  # keystroke -> publication, every edit
        self.after_pause: list[float] = []  # ... the last key of each burst
        self.first_keys: list[float] = []  # ... the first key of each burst
        self.opened_big: list[float] = []
        self.alone: list[float] = []
        self.second: list[float] = []
        self.opens: list[float] = []
        self.out_of_order = False
        self.analysis_s: list[float] = []

    def analysis_ms(self, base_lines: int, edits: int) -> float:
        """One edit's analysis (`IncrementalAnalysis.update`, median), in a process with this server's code."""
        code = ("import json, sys; sys.path.insert(0, sys.argv[1]); from speed import generate; "
                "from typing_speed import analysis_ms, typed; big = generate(int(sys.argv[2])); "
                "print(json.dumps(analysis_ms(big, [typed(big, k) for k in range(1, int(sys.argv[3]) + 1)])))")
        out = subprocess.run([sys.executable, "-c", code, str(ROOT), str(base_lines), str(edits)], env=self.env,
                             check=True, capture_output=True, text=True).stdout
        return float(json.loads(out.strip().splitlines()[-1]))


def burst_of(pace: list[tuple[float, bool]]) -> list[list[tuple[int, float, bool]]]:
    """The edits (index, wait before it, whether it ends its burst) grouped by burst."""
    bursts: list[list[tuple[int, float, bool]]] = []
    for index, (wait, ends) in enumerate(pace):
        if not bursts or wait > 0.5:
            bursts.append([])
        bursts[-1].append((index, wait, ends))
    return bursts


def type_burst(served: Served, uri: str, burst: list[tuple[int, float, bool]], texts: list[str], base: int) -> None:
    """Types one burst (version = base + index) and records each edit's keystroke -> publication."""
    client = served.client
    mark = len(client.received)
    sent_at: dict[int, float] = {}
    for index, wait, _ in burst:
        time.sleep(min(wait, 0.3) if index == burst[0][0] else wait)  # (the pause: the other server typed meanwhile)
        sent_at[base + index] = change(client, uri, base + index, texts[index])
    last = max(sent_at)
    wait_for_version(client, uri, last)
    seen = publications(client, uri, mark)
    versions = [v for _, v in seen if v is not None]
    served.out_of_order |= versions != sorted(versions)
    for version, sent in sent_at.items():
        shown = [at for at, v in seen if v is not None and v >= version and at >= sent]
        served.latency.append((min(shown) - sent) * 1000 if shown else float("nan"))
    first = min(sent_at)
    served.after_pause.append(served.latency[-1])
    served.first_keys.append(served.latency[-len(sent_at)] if first == base + burst[0][0] else float("nan"))


def compare(args: argparse.Namespace) -> None:
    """Both servers, every measure interleaved (see the module docstring)."""
    servers = [Served("this checkout", None), Served(f"--compare {args.compare}", args.compare)]
    try:
        big = generate(5000)
        big_parse = parse_ms(big)
        pace = typing_pace(random.Random(args.seed), EDITS)
        bursts = burst_of(pace)
        for round_ in range(args.rounds):
            texts = [typed(big, round_ * 100 + k) for k in range(1, EDITS + 1)]
            for served in servers:
                uri = f"file:///bench/big{round_}.py"
                opened = time.monotonic()
                served.client.open(uri, big, 1)
                first = served.client.published(uri, 60)
                served.opened_big.append((first[0] - opened) * 1000 if first else float("nan"))
                time.sleep(0.3)
            for burst in bursts:
                for served in servers:
                    type_burst(served, f"file:///bench/big{round_}.py", burst, texts, 2)
            # (2b) as in the single-server run, the trials alternating between the servers
            base = 1000
            for trial in range(8):
                for served in servers:
                    client, uri = served.client, f"file:///bench/big{round_}.py"
                    version = base + 3 * trial
                    time.sleep(0.5)
                    sent = change(client, uri, version, typed(big, version))
                    got = wait_for_version(client, uri, version)
                    served.alone.append((got or float("nan")) - sent)
                    time.sleep(0.5)
                    change(client, uri, version + 1, typed(big, version + 1))
                    time.sleep(0.55 * statistics.median(served.alone))
                    sent = change(client, uri, version + 2, typed(big, version + 2))
                    got = wait_for_version(client, uri, version + 2)
                    served.second.append((got or float("nan")) - sent)
        small = generate(1000)
        small_parse = parse_ms(small)
        for i in range(5 * args.rounds):
            for served in servers:
                uri = f"file:///bench/small{i}.py"
                opened = time.monotonic()
                served.client.open(uri, small, 1)
                published = served.client.published(uri, 60)
                served.opens.append((published[0] - opened) * 1000 if published else float("nan"))
        for _ in range(2):
            for served in servers:
                served.analysis_s.append(served.analysis_ms(5000, 20))
    finally:
        for served in servers:
            served.client.close()
    print(f"ast.parse: 5,000 lines {big_parse:.0f} ms, 1,000 lines {small_parse:.1f} ms; {args.rounds} round(s) of "
          f"{EDITS} edits (seed {args.seed}), each burst typed into one server then the other")
    for served in servers:
        one = min(served.analysis_s)
        median = statistics.median(served.latency)
        worst = max(served.after_pause)
        second = statistics.median(served.second) / statistics.median(served.alone)
        print(f"[{served.label}]")
        print(f"  (1) start-up to initialize {served.startup * 1000:.0f} ms; (2) didOpen 5,000 lines to first "
              f"diagnostics {statistics.median(served.opened_big):.0f} ms")
        print(f"  keystroke -> publication: median {median:.0f} ms = {median / big_parse:.2f}x ast.parse; slowest "
              f"{max(served.latency):.0f} ms{'; OUT OF ORDER' if served.out_of_order else ''}")
        print(f"  after a pause: worst {worst:.0f} ms = {worst / one:.2f} analysis times (one edit's analysis: "
              f"{one:.0f} ms = {one / big_parse:.2f}x ast.parse); median {statistics.median(served.after_pause):.0f} ms")
        print(f"  first key after a pause: median {statistics.median(served.first_keys):.0f} ms = "
              f"{statistics.median(served.first_keys) / one:.2f} analysis times")
        print(f"  (2b) median {statistics.median(served.second) * 1000:.0f} ms = {second:.2f}x a key alone "
              f"({statistics.median(served.alone) * 1000:.0f} ms), worst "
              f"{max(served.second) / statistics.median(served.alone):.2f}x")
        print(f"  (3) didOpen 1,000 lines to first diagnostics: median {statistics.median(served.opens):.0f} ms = "
              f"{statistics.median(served.opens) / small_parse:.1f}x ast.parse")
    a, b = servers
    print(f"this / compare: keystroke median {statistics.median(a.latency) / statistics.median(b.latency):.2f}, "
          f"worst after a pause {max(a.after_pause) / max(b.after_pause):.2f}, open 1,000 lines "
          f"{statistics.median(a.opens) / statistics.median(b.opens):.2f}")


if __name__ == "__main__":
    main()
