"""`sharpbits run [options] -- COMMAND...`: runs the user's program with the runtime agent, then reports.

Only this explicit command runs user code (never `check`, never opening a folder). The program's stdin, stdout,
stderr and exit status pass through unchanged: the agent writes its records to files in a private temporary
folder, and the findings are written after the program ends, to `--output FILE` or else to stderr under a header
line. A program that crashes, is interrupted (Ctrl+C) or calls `os._exit` still gets what was recorded so far.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from sharpbits.runtime.child import wait_passing_signals

BOOT_DIR = Path(__file__).resolve().parent / "boot"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=["text", "json", "sarif", "github"], default="text",
                        help="report format (default: text)")
    parser.add_argument("--output", "-o", default=None, metavar="FILE",
                        help="write the report to FILE (default: stderr, after the program's own output)")
    parser.add_argument("--threshold", type=int, default=3, metavar="N",
                        help="report a jitted function compiled more than N times (default: 3)")
    parser.add_argument("--transfer-threshold", type=int, default=10, metavar="N",
                        help="report an implicit transfer seen N times or more at one line (default: 10)")
    parser.add_argument("--no-keys", action="store_true", help="do not watch PRNG key reuse")
    parser.add_argument("--nans", action="store_true",
                        help="find where the first NaN/Inf is produced (jax_debug_nans, without stopping the "
                             "program); off by default: it checks every output on the host (~1.6x slower)")
    parser.add_argument("--leaks", choices=["on", "strict", "off"], default="on",
                        help="tracer leaks: on (when a leaked tracer is used), strict (also jax_check_tracer_leaks, "
                             "slower, raises at the leak), off (default: on)")
    parser.add_argument("--no-transfers", action="store_true", help="do not watch implicit transfers")
    parser.add_argument("--no-static", action="store_true",
                        help="do not run static analysis on the reported lines")
    parser.add_argument("--launch-prefix", default=None, metavar="CMD",
                        help="run the program through this command, where the accelerator is, e.g. 'ssh gpu-box', "
                             "'srun -p gpu --gres=gpu:1', 'kubectl exec -i POD --'; findings come back here")
    parser.add_argument("--interpreter", default=None, metavar="PYTHON",
                        help="with --launch-prefix: the far side's Python for sharpbits' launcher (default: the "
                             "program's own when it is `python...`, else python3)")
    parser.add_argument("argv", nargs=argparse.REMAINDER, metavar="-- COMMAND",
                        help="the program to run, e.g. `-- python train.py --epochs 3`")


def options_from_args(args: argparse.Namespace, out_dir: str | None) -> dict[str, Any]:
    return {
        "out_dir": out_dir, "threshold": max(args.threshold, 1), "keys": not args.no_keys,
        "nans": args.nans, "leaks": args.leaks, "transfers": not args.no_transfers,
        "transfer_threshold": max(args.transfer_threshold, 1),
    }


def child_environment(options: dict[str, Any], base: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    env["PYTHONPATH"] = os.pathsep.join([str(BOOT_DIR), *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
    env["SHARPBITS_RUNTIME_OPTIONS"] = json.dumps(options)
    return env


def run(args: argparse.Namespace) -> int:
    from sharpbits.runtime.report import findings_from_records, read_records, write_report

    argv = list(args.argv)
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        print("sharpbits run: error: no command given; e.g. `sharpbits run -- python train.py`", file=sys.stderr)
        return 2
    out_dir = tempfile.mkdtemp(prefix="sharpbits-run-")  # mode 0700: only this user reads the records
    try:
        options = options_from_args(args, out_dir)
        prefix = shlex.split(args.launch_prefix) if args.launch_prefix else []
        note = None
        if prefix:
            from sharpbits.runtime.remote import run_behind_prefix

            status, note = run_behind_prefix(prefix, argv, options, args.interpreter, out_dir)
        else:
            status = _run_child(argv, child_environment(options))
        findings, notes = findings_from_records(read_records(Path(out_dir)), static=not args.no_static)
        if note:
            notes.append(note)
        if args.output:
            with open(args.output, "w", encoding="utf-8") as out:
                write_report(out, findings, args.format, notes)
        else:
            sys.stdout.flush()
            if args.format == "text":
                sys.stderr.write("\n---- sharpbits run: findings ----\n")
            write_report(sys.stderr, findings, args.format, notes)
            sys.stderr.flush()
        return status
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


def _run_child(argv: list[str], env: dict[str, str]) -> int:
    """Runs the program with this terminal's stdio; returns its exit status as a shell would (128+N for a signal).
    Ctrl+C reaches the program (same process group); this process waits for it to finish and report."""
    try:
        child = subprocess.Popen(argv, env=env)
    except FileNotFoundError:
        print(f"sharpbits run: error: command not found: {argv[0]}", file=sys.stderr)
        return 127
    except PermissionError:
        print(f"sharpbits run: error: cannot execute: {argv[0]}", file=sys.stderr)
        return 126

    return wait_passing_signals(child)
