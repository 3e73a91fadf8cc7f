"""Waiting for the program `sharpbits run` started, the way a shell waits for its foreground job."""

from __future__ import annotations

import contextlib
import signal
import subprocess
from typing import Any


def wait_passing_signals(child: subprocess.Popen[Any]) -> int:
    """Wait for `child` and return its exit status as a shell gives it (128 + N for a signal N). SIGTERM and SIGHUP
    sent to us are passed on to it; Ctrl+C reaches it by itself (same process group, and srun and ssh pass it on),
    so we keep waiting while it finishes and flushes what it saw."""

    def forward(signum: int, _frame: Any) -> None:
        with contextlib.suppress(OSError):
            child.send_signal(signum)

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            with contextlib.suppress(ValueError, OSError):
                previous[sig] = signal.signal(sig, forward)
    try:
        while True:
            try:
                status = child.wait()
                break
            except KeyboardInterrupt:
                continue
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 128 - status if status < 0 else status
