"""Start-up of `sharpbits serve`, as an editor sees it (issue 26): from starting the process to the `initialize`
result, and to the answer of the first request after it (the server fully imported: what a first document's
diagnostics wait for at least), beside a bare interpreter's start (`python -c pass`, started to exited). Medians
of `--runs` starts, alternated, measured in one run; each figure also as a ratio to the bare interpreter.

    .venv/bin/python bench/startup.py [--runs 10] [--other /tmp/latency-before/server]

`--other DIR`: a second server, the sharpbits package in DIR (another checkout's `server/` folder), started
alternately with this one in the same run (before/after on the same load).

What the server imports: `.venv/bin/python -X importtime -m sharpbits serve < /dev/null 2> imports.txt`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SERVE = [sys.executable, "-m", "sharpbits", "serve"]


def send(proc: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    body = json.dumps(message).encode()
    assert proc.stdin is not None
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def reply(proc: subprocess.Popen[bytes], msg_id: int) -> dict[str, Any]:
    out = proc.stdout
    assert out is not None
    while True:
        length = 0
        while (line := out.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        if not line:
            raise RuntimeError("the server closed its output")
        message = json.loads(out.read(length))
        if message.get("id") == msg_id and "method" not in message:
            return message


def server_start(path: str | None = None) -> tuple[float, float]:
    """(seconds to the initialize result, seconds to the answer of the first request after it); `path`: a folder
    put first on PYTHONPATH (another checkout's server)."""
    env = {**os.environ, "PYTHONPATH": path} if path else None
    start = time.perf_counter()
    proc = subprocess.Popen(SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            cwd=Path(__file__).parent, env=env)
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": None, "rootUri": None, "capabilities": {}}})
    reply(proc, 1)
    initialized = time.perf_counter() - start
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    reply(proc, 2)
    ready = time.perf_counter() - start
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    proc.wait(30)
    return initialized, ready


def bare_start() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--other", default=None, help="another checkout's server/ folder, timed alternately")
    args = parser.parse_args()
    import sharpbits

    servers: dict[str, str | None] = {str(Path(sharpbits.__file__).parents[1]): None}
    if args.other:
        servers[str(Path(args.other).resolve())] = args.other
    for path in servers.values():
        server_start(path)  # warm the page cache and the .pyc files
    bare: list[float] = []
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in servers}
    for _ in range(args.runs):
        bare.append(bare_start())
        for name, path in servers.items():
            times[name].append(server_start(path))
    b = statistics.median(bare) * 1000
    print(f"bare interpreter start (python -c pass): {b:.0f} ms (medians of {args.runs} starts each, alternated)")
    for name, runs in times.items():
        i = statistics.median(first for first, _ in runs) * 1000
        r = statistics.median(second for _, second in runs) * 1000
        print(f"sharpbits from {name}:")
        print(f"    start -> initialize result:                     {i:6.0f} ms = {i / b:.1f}x bare")
        print(f"    start -> first request answered (all imported): {r:6.0f} ms = {r / b:.1f}x bare")


if __name__ == "__main__":
    main()
