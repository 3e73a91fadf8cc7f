"""`sharpbits serve` with pathological documents, and a long editing session, over stdio.

Part 1, one fresh server per document: the seconds until the document's analysis is done (its first
publishDiagnostics, or, for a document that does not parse and so publishes nothing, the answer to a hover that
waits for the analysis), whether a small document opened right after it still gets its diagnostics (and when),
and the server's peak RSS (VmHWM).

Part 2: many documents, many full-text changes per second for a bounded time; RSS, live asyncio tasks and kept
handler futures at the start and at the end.

    .venv/bin/python bench/server_abuse.py [--seconds 60] [--documents 200] [--rate 20] [--skip-documents]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

SERVER = [str(Path(sys.executable).with_name("sharpbits")), "serve"]
SMALL = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1\n"


class Client:
    def __init__(self, options: dict[str, Any] | None = None, env: dict[str, str] | None = None) -> None:
        """`env`: the server's environment (default: this process's), e.g. PYTHONPATH naming another checkout."""
        self.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=env)
        self.lock = threading.Condition()
        self.received: list[tuple[float, dict[str, Any]]] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.call("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                 "initializationOptions": options or {}})
        self.notify("initialized", {})

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                elif line == b"\r\n":
                    break
            message = json.loads(out.read(length))
            with self.lock:
                self.received.append((time.monotonic(), message))
                self.lock.notify_all()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def wait(self, predicate: Any, timeout: float) -> tuple[float, dict[str, Any]] | None:
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                for at, message in self.received:
                    if predicate(message):
                        return at, message
                if time.monotonic() > deadline:
                    return None
                self.lock.wait(0.05)

    def call(self, method: str, params: Any, timeout: float = 120) -> dict[str, Any]:
        msg_id = self.request(method, params)
        found = self.wait(lambda m: m.get("id") == msg_id and "method" not in m, timeout)
        if found is None:
            raise TimeoutError(f"{method} unanswered after {timeout} s")
        return found[1]

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen",
                    {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}})

    def published(self, uri: str, timeout: float) -> tuple[float, dict[str, Any]] | None:
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri,
                         timeout)

    def status_kb(self, field: str) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        return 0

    def close(self) -> None:
        try:
            self.call("shutdown", None, timeout=30)
            self.notify("exit", None)
            self.proc.wait(30)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def documents() -> dict[str, str]:
    finding = "import jax\nimport jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1\n"
    nested = "import jax\n\n@jax.jit\ndef f(x):\n"
    for depth in range(20):
        nested += "    " * (depth + 1) + f"for i{depth} in range(2):\n"
    nested += "    " * 21 + "x = x + 1\n    return x\n"
    return {
        "50k lines": finding + "".join(f"v{i} = {i}\n" for i in range(50_000)),
        "a 5 MB line": finding + "s = '" + "a" * 5_000_000 + "'\n",
        "1,000 nested brackets": finding + "y = " + "[" * 1000 + "]" * 1000 + "\n",
        "NUL bytes": finding + "y = 1\0\0\n",
        "lone surrogates": finding + "s = '\ud800\udfff\udc00'\n",
        "a 50 MB file": finding + "v = 1234567\n" * (50_000_000 // 12),
        "20 nested loops": nested,
        "4,000 findings on one line": finding + "; ".join("x[0] = 1" for _ in range(4000)) + "\n",
    }


def pathological(limit: float) -> None:
    print(f"{'document':28} {'size':>9} {'analysed':>9} {'published':>10} {'other doc':>10} {'peak RSS':>9}")
    for name, text in documents().items():
        client = Client({"debounceMs": 0})
        uri, other = f"file:///bench/{name.replace(' ', '_')}.py", "file:///bench/other.py"
        start = time.monotonic()
        client.open(uri, text)
        client.open(other, SMALL)
        hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                      "position": {"line": 3, "character": 1}})
        published = client.published(uri, limit)
        answered = client.wait(lambda m, i=hover: m.get("id") == i, limit)
        other_published = client.published(other, limit)
        took = (answered[0] - start) if answered else None
        first = (published[0] - start) if published else None
        other_at = (other_published[0] - start) if other_published else None
        note = ""
        if published:
            diags = published[1]["params"]["diagnostics"]
            note = diags[0]["message"][:70] if diags and diags[0].get("code") == "skipped" else f"{len(diags)} findings"

        def fmt(t: float | None) -> str:
            return f"{t:.2f} s" if t is not None else "none"
        print(f"{name:28} {len(text) / 1e6:7.1f}MB {fmt(took):>9} {fmt(first):>10} {fmt(other_at):>10} "
              f"{client.status_kb('VmHWM') / 1024:6.0f} MB  {note}")
        client.close()


def long_editing(seconds: float, count: int, rate: float) -> None:
    rng = random.Random(20261124)
    client = Client({})
    uris = [f"file:///bench/edit{i}.py" for i in range(count)]
    versions = dict.fromkeys(uris, 1)
    for uri in uris:
        client.open(uri, SMALL)
    client.call("sharpbits/serverStats", {})
    time.sleep(2)
    stats = client.call("sharpbits/serverStats", {})["result"]
    rss_start = client.status_kb("VmRSS")
    print(f"long editing: {count} documents, {rate:g} changes/s for {seconds:g} s")
    print(f"  start: RSS {rss_start / 1024:.1f} MB, tasks {stats['tasks']}, handler futures {stats['handlerFutures']}")
    changes = 0
    begin = time.monotonic()
    while time.monotonic() - begin < seconds:
        uri = rng.choice(uris)
        versions[uri] += 1
        text = SMALL + "".join(f"y{j} = {rng.randint(0, 9)}\n" for j in range(rng.randint(0, 40)))
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": versions[uri]},
                                                 "contentChanges": [{"text": text}]})
        changes += 1
        time.sleep(max(0.0, begin + changes / rate - time.monotonic()))
    for uri in uris:
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    time.sleep(2)
    stats = client.call("sharpbits/serverStats", {})["result"]
    rss_end = client.status_kb("VmRSS")
    print(f"  end ({changes} changes, all documents closed): RSS {rss_end / 1024:.1f} MB, tasks {stats['tasks']}, "
          f"handler futures {stats['handlerFutures']}, documents {stats['documents']}")
    print(f"  RSS growth: {(rss_end - rss_start) / 1024:+.1f} MB")
    client.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--documents", type=int, default=200)
    parser.add_argument("--rate", type=float, default=20)
    parser.add_argument("--limit", type=float, default=120, help="seconds to wait for each pathological document")
    parser.add_argument("--skip-documents", action="store_true")
    args = parser.parse_args()
    if not args.skip_documents:
        pathological(args.limit)
    long_editing(args.seconds, args.documents, args.rate)


if __name__ == "__main__":
    main()
