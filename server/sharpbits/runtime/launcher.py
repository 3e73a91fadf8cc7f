"""Runs on the far side of a launch prefix (`ssh gpu-box`, `srun`, `kubectl exec -i pod --`): standard library only.

`sharpbits run --launch-prefix CMD` ships this file, the agent and the boot `sitecustomize` inside the `-c`
argument of one Python command (compressed; nothing is installed on the far side), so the far side needs only an
interpreter, plus NumPy and JAX for the program itself. This launcher writes the agent into a private temporary
folder there, runs the program with the agent on its PYTHONPATH (stdin, stdout and stderr are the prefix's, so
they pass through), and after the program ends writes the records it left to stderr, between two lines holding
the marker the local side chose (and filters out again), then exits with the program's status (128+N for a
signal, as a shell does). The bootstrap defines `P` (the payload) before running this source.
"""

import base64
import contextlib
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import zlib


def _run(argv, env):
    try:
        child = subprocess.Popen(argv, env=env)
    except FileNotFoundError:
        sys.stderr.write(f"sharpbits run: error: command not found: {argv[0]}\n")
        return 127
    except PermissionError:
        sys.stderr.write(f"sharpbits run: error: cannot execute: {argv[0]}\n")
        return 126

    def forward(signum, _frame):
        with contextlib.suppress(OSError):
            child.send_signal(signum)

    for name in ("SIGTERM", "SIGHUP", "SIGINT"):  # srun and kubectl pass signals on to us: the program gets them
        sig = getattr(signal, name, None)
        if sig is not None:
            with contextlib.suppress(ValueError, OSError):
                signal.signal(sig, forward)
    status = child.wait()
    return 128 - status if status < 0 else status


def _write_all(fd, data):
    while data:
        try:
            data = data[os.write(fd, data):]
        except InterruptedError:
            continue


def main(payload):
    folder = tempfile.mkdtemp(prefix="sharpbits-run-")  # mode 0700
    try:
        for relative, text in payload["files"].items():
            path = os.path.join(folder, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)
        records = os.path.join(folder, "records")
        os.mkdir(records)
        options = dict(payload["options"], out_dir=records)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([os.path.join(folder, "boot"),
                                             *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
        env["SHARPBITS_RUNTIME_OPTIONS"] = json.dumps(options)
        cwd = payload.get("cwd")
        if cwd and os.path.isdir(cwd):  # the same folder as on this side when it exists there (a shared disk)
            os.chdir(cwd)
        status = _run(payload["argv"], env)
        found = {}
        for path in sorted(glob.glob(os.path.join(records, "records-*.jsonl"))):
            with contextlib.suppress(OSError), open(path, encoding="utf-8", errors="replace") as fh:
                found[os.path.basename(path)] = fh.read()
        blob = base64.b64encode(zlib.compress(json.dumps(found).encode("utf-8"))).decode("ascii")
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
        mark = payload["mark"]
        _write_all(2, f"\n{mark}\n{blob}\n{mark}\n".encode("ascii"))
        return status
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if "P" in globals():  # defined by the bootstrap only (importing this module runs nothing)
    sys.exit(main(globals()["P"]))
