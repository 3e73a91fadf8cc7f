"""`sharpbits run --launch-prefix CMD`: the program runs behind a prefix (`ssh gpu-box`, `srun -p gpu`, `kubectl
exec -i pod --`), where the accelerator is, and its findings come back here.

This side builds one command: the prefix, then `PYTHON -c BOOTSTRAP`, where the bootstrap holds the launcher
(launcher.py), the agent and the boot `sitecustomize`, compressed, with the program's argv, options and working
folder. Nothing is installed on the far side. The program's stdin and stdout are the prefix's (so they pass
through); its stderr comes back through a pipe and is copied to this stderr as it arrives, except for the block
between the two marker lines the launcher writes last: the records, which become the report here as for a local
run. The marker is random per run, so the program's own output is never taken for it.
"""

from __future__ import annotations

import base64
import json
import os
import re
import secrets
import shlex
import subprocess
import sys
import threading
import zlib
from pathlib import Path
from typing import Any

from sharpbits.runtime.child import wait_passing_signals

HERE = Path(__file__).resolve().parent
SHIPPED = {"agent.py": HERE / "agent.py", "boot/sitecustomize.py": HERE / "boot" / "sitecustomize.py"}
# prefixes that join their arguments into one remote shell command (as for the trace worker): ours are quoted
JOINING = ("ssh", "autossh", "gcloud")


def launcher_interpreter(argv: list[str], interpreter: str | None) -> str:
    """The far side's Python for the launcher: --interpreter, else the program's own when it is a Python (the
    usual `-- python train.py`), else `python3`."""
    if interpreter:
        return interpreter
    if argv and re.fullmatch(r"python[0-9.]*", os.path.basename(argv[0])):
        return argv[0]
    return "python3"


def bootstrap(payload: dict[str, Any]) -> str:
    """The `-c` source: the payload (launcher, agent, options) compressed; no single quotes, so shell quoting for
    ssh-style prefixes leaves it readable."""
    blob = base64.b64encode(zlib.compress(json.dumps(payload).encode("utf-8"), 9)).decode("ascii")
    return ("import base64,json,zlib\n"
            f'P=json.loads(zlib.decompress(base64.b64decode("{blob}")))\n'
            'exec(compile(P.pop("launcher"),"<sharpbits run launcher>","exec"))\n')


def prefixed(prefix: list[str], command: list[str]) -> list[str]:
    if prefix and os.path.basename(prefix[0]) in JOINING:
        return [*prefix, " ".join(shlex.quote(c) for c in command)]
    return [*prefix, *command]


def remote_command(prefix: list[str], argv: list[str], options: dict[str, Any], interpreter: str | None,
                   cwd: str, mark: str) -> list[str]:
    payload: dict[str, Any] = {
        "launcher": (HERE / "launcher.py").read_text(encoding="utf-8"),
        "files": {name: path.read_text(encoding="utf-8") for name, path in SHIPPED.items()},
        "argv": argv, "options": {k: v for k, v in options.items() if k != "out_dir"}, "cwd": cwd, "mark": mark,
    }
    return prefixed(prefix, [launcher_interpreter(argv, interpreter), "-c", bootstrap(payload)])


class StderrFilter:
    """Copies the far side's stderr to ours as it arrives, and keeps the records block between the marker lines.
    Only a tail that could be the start of the marker is held back (until the next bytes say it is not)."""

    def __init__(self, mark: str, write: Any) -> None:
        self.opening = f"\n{mark}\n".encode("ascii")
        self.closing = f"\n{mark}\n".encode("ascii")
        self.write = write
        self.pending = b""
        self.block: bytes | None = None  # inside the block: what came so far
        self.records: dict[str, str] | None = None

    def feed(self, data: bytes) -> None:
        if self.block is not None:
            self.block += data
            end = self.block.find(self.closing)
            if end >= 0:
                self._take(self.block[:end])
                rest, self.block = self.block[end + len(self.closing):], None
                self.feed(rest)
            return
        buf = self.pending + data
        start = buf.find(self.opening)
        if start >= 0:
            self._out(buf[:start])
            self.pending = b""
            self.block = b""
            self.feed(buf[start + len(self.opening):])
            return
        keep = 0
        for n in range(min(len(buf), len(self.opening) - 1), 0, -1):
            if self.opening.startswith(buf[-n:]):
                keep = n
                break
        self._out(buf[:len(buf) - keep])
        self.pending = buf[len(buf) - keep:]

    def close(self) -> None:
        self._out(self.pending if self.block is None else self.pending + self.opening + self.block)
        self.pending, self.block = b"", None

    def _out(self, data: bytes) -> None:
        if data:
            self.write(data)

    def _take(self, blob: bytes) -> None:
        try:
            found = json.loads(zlib.decompress(base64.b64decode(blob.strip())))
        except (ValueError, zlib.error):
            return
        if isinstance(found, dict):
            self.records = {str(k): str(v) for k, v in found.items()}


def _write_stderr(data: bytes) -> None:
    stream = getattr(sys.stderr, "buffer", None)
    if stream is not None:
        stream.write(data)
        stream.flush()
    else:
        sys.stderr.write(data.decode("utf-8", "replace"))
        sys.stderr.flush()


def run_behind_prefix(prefix: list[str], argv: list[str], options: dict[str, Any], interpreter: str | None,
                      out_dir: str) -> tuple[int, str | None]:
    """Runs the program behind `prefix`; writes the records that came back into `out_dir` (as a local run's agent
    would). Returns (exit status, a note when no records came back)."""
    mark = f"--sharpbits-run-records-{secrets.token_hex(12)}--"
    command = remote_command(prefix, argv, options, interpreter, os.getcwd(), mark)
    try:
        child = subprocess.Popen(command, stderr=subprocess.PIPE, bufsize=0)
    except FileNotFoundError:
        print(f"sharpbits run: error: launch prefix not found: {prefix[0]}", file=sys.stderr)
        return 127, None
    except PermissionError:
        print(f"sharpbits run: error: cannot execute the launch prefix: {prefix[0]}", file=sys.stderr)
        return 126, None
    filt = StderrFilter(mark, _write_stderr)

    def pump() -> None:
        assert child.stderr is not None
        fd = child.stderr.fileno()
        while True:
            try:
                data = os.read(fd, 65536)
            except InterruptedError:
                continue
            except OSError:
                break
            if not data:
                break
            filt.feed(data)
        filt.close()

    reader = threading.Thread(target=pump, name="sharpbits-run-stderr", daemon=True)
    reader.start()

    status = wait_passing_signals(child)
    reader.join()
    if child.stderr is not None:
        child.stderr.close()
    if filt.records is None:
        return status, (f"no records came back through the launch prefix `{' '.join(prefix)}` (exit status "
                        f"{status}): the far side could not start the launcher with "
                        f"`{launcher_interpreter(argv, interpreter)}` (use --interpreter) or was stopped")
    for name, text in filt.records.items():
        if re.fullmatch(r"records-[0-9]+\.jsonl", name):
            Path(out_dir, name).write_text(text, encoding="utf-8")
    return status, None
