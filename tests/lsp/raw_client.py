"""A bare stdio client for `sharpbits serve`: it writes whatever bytes a test gives it (broken framing, bad JSON,
batches, odd ids) and collects every framed message the server writes back."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from .conftest import SERVER


def frame(body: bytes | str, length: int | None = None) -> bytes:
    data = body.encode() if isinstance(body, str) else body
    return b"Content-Length: %d\r\n\r\n" % (len(data) if length is None else length) + data


class RawClient:
    def __init__(self, cwd: Path | None = None) -> None:
        self.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=cwd)
        self.messages: queue.Queue[dict[str, Any] | list[Any]] = queue.Queue()
        self.seen: list[Any] = []
        self.next_id = 1000
        self._stderr: list[bytes] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr or []), daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                elif line in (b"\r\n", b"\n") and length is not None:
                    break
            self.messages.put(json.loads(out.read(length)))

    # ---- sending -------------------------------------------------------------------------------------------

    def send_bytes(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: Any) -> None:
        self.send_bytes(frame(json.dumps(message)))

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, **({} if params is None else {"params": params})})

    def request(self, method: str, params: Any = None, msg_id: Any = None) -> Any:
        if msg_id is None:
            self.next_id += 1
            msg_id = self.next_id
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, **({} if params is None else {"params": params})})
        return msg_id

    # ---- receiving -----------------------------------------------------------------------------------------

    def wait_for(self, predicate: Any, timeout: float = 20.0, what: str = "a message") -> Any:
        for message in self.seen:
            if predicate(message):
                self.seen.remove(message)
                return message
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no {what} within {timeout} s; unmatched: {self.seen[-5:]}; "
                                     f"stderr: {b''.join(self._stderr)[-2000:]!r}")
            try:
                message = self.messages.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                continue
            if predicate(message):
                return message
            self.seen.append(message)

    def response(self, msg_id: Any, timeout: float = 20.0) -> dict[str, Any]:
        return self.wait_for(lambda m: isinstance(m, dict) and "method" not in m and m.get("id") == msg_id
                             and ("result" in m or "error" in m), timeout, f"response to id {msg_id!r}")

    def call(self, method: str, params: Any = None, timeout: float = 20.0) -> dict[str, Any]:
        return self.response(self.request(method, params), timeout)

    def published(self, uri: str, version: int | None = None, timeout: float = 20.0) -> list[dict[str, Any]]:
        message = self.wait_for(
            lambda m: isinstance(m, dict) and m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == uri and (version is None or m["params"].get("version") == version),
            timeout, f"diagnostics for {uri} v{version}")
        return message["params"]["diagnostics"]

    def findings(self, uri: str, version: int | None = None, timeout: float = 20.0) -> list[dict[str, Any]]:
        """The diagnostics of `version` once its analysis has finished: a notice that the analysis is taking
        longer than `analysisTimeoutMs` ("findings follow when it finishes", published first on a slow or loaded
        machine) is passed over, so a test does not pass or fail by the machine's speed."""
        deadline = time.monotonic() + timeout
        while True:
            diagnostics = self.published(uri, version, max(deadline - time.monotonic(), 0.1))
            if not (len(diagnostics) == 1 and diagnostics[0].get("code") == "skipped"
                    and "findings follow" in diagnostics[0].get("message", "")):
                return diagnostics

    # ---- session -------------------------------------------------------------------------------------------

    def initialize(self, options: dict[str, Any] | None = None) -> dict[str, Any]:
        reply = self.call("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                         "initializationOptions": options or {}})
        assert "result" in reply, reply
        self.notify("initialized", {})
        return reply

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen",
                    {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}})

    def change(self, uri: str, text: str, version: int) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def still_serving(self) -> None:
        """The server answers a fresh request after whatever came before."""
        reply = self.call("sharpbits/serverStats", {})
        assert "result" in reply and reply["result"]["documents"] >= 0, reply

    def exit_code(self, timeout: float = 20.0) -> int:
        return self.proc.wait(timeout)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.call("shutdown", timeout=10)
                self.notify("exit")
                self.proc.wait(10)
            except Exception:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
