"""The `sharpbits` command line: check, serve, trace, rule, run.

Start-up stays lean: this module imports only the standard library at import time. Each subcommand imports
what it needs when it runs (the language server imports pygls, fixes import libcst, and nothing here ever
imports jax: tracing happens in a separate worker process).
"""

from __future__ import annotations

import sys

from sharpbits import __version__

TYPE_CHECKING = False  # typing and argparse are not imported at start: `sharpbits serve` needs neither (~10 ms)
if TYPE_CHECKING:
    import argparse

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        import argparse

        raise argparse.ArgumentTypeError(f"expected a whole number of processes, 1 or more, not {text!r}")
    return value


DEFAULT_TIMEOUT_S = 60.0  # per file; the 50,000-line test file takes a few seconds


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        import argparse

        raise argparse.ArgumentTypeError(f"expected a number of seconds, 0 or more, not {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    import argparse
    from typing import NoReturn

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:  # usage errors exit 2 with a clear message (argparse's too)
            self.print_usage(sys.stderr)
            self.exit(EXIT_ERROR, f"sharpbits: error: {message}\n")

    parser = _Parser(prog="sharpbits", description="Find and fix JAX's sharp bits; trace what JAX builds.")
    parser.add_argument("--version", action="version", version=f"sharpbits {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    check = sub.add_parser("check", help="lint files and folders (default: the current folder)")
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH")
    check.add_argument("--format", choices=["text", "json", "sarif", "github"], default="text",
                       help="output format (default: text)")
    check.add_argument("--select", default=None, help="only these rules (codes or names, comma-separated)")
    check.add_argument("--ignore", default=None, help="skip these rules (codes or names, comma-separated)")
    check.add_argument("--no-exclude", action="store_true", help="do not skip .gitignore'd files, venvs, build folders")
    check.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    check.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff: also apply unsafe fixes")
    check.add_argument("--diff", action="store_true", help="print the changes fixes would make; change nothing")

    check.add_argument("--jobs", "-j", type=_positive_int, default=None, metavar="N",
                       help="analyse in N processes (default: one per core)")
    check.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT_S, metavar="SECONDS",
                       help="stop the analysis of a file that takes longer and report it as skipped "
                            f"(default: {DEFAULT_TIMEOUT_S:g}; 0: no limit)")
    check.add_argument("--no-cache", action="store_true",
                       help="neither read nor write the cache of unchanged files' results")
    check.add_argument("--cache-dir", default=None, metavar="DIR",
                       help="where the cache lives (default: $SHARPBITS_CACHE_DIR, else the user cache dir/sharpbits)")

    serve = sub.add_parser("serve", help="run the language server over stdio")
    serve.add_argument("--stdio", action="store_true", help="accepted for editors that pass it; stdio is the default")

    rule = sub.add_parser("rule", help="print a rule's documentation (by code or name), or list the rules")
    rule.add_argument("rule", nargs="?", help="rule code or name; omit to list every rule")

    trace = sub.add_parser("trace", help="trace a function and show its jaxpr, HLO, cost and timings")
    from sharpbits.trace.cli import add_arguments  # argparse only: no jax, no worker start

    add_arguments(trace)

    # ---- sharpbits run (issue 25): runs the user's program with the runtime agent; only this command runs user code
    run = sub.add_parser("run", help="run a program with runtime checks, e.g. `sharpbits run -- python train.py`")
    from sharpbits.runtime.command import add_arguments as add_run_arguments  # argparse only: no jax

    add_run_arguments(run)
    # ---- end of sharpbits run
    return parser


def main(argv: list[str] | None = None) -> int:
    if (sys.argv[1:] if argv is None else argv) in (["serve"], ["serve", "--stdio"]):
        # the editor starting the server: no parser to build (its subcommands' imports are ~30 ms of a ~60 ms
        # start to the initialize answer)
        from sharpbits.lsp.start import serve

        serve()
        return EXIT_OK
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    try:
        if args.command == "check":
            from sharpbits.check_command import run_check

            return run_check(args)
        if args.command == "serve":
            from sharpbits.lsp.start import serve  # answers initialize before importing the server

            serve()
            return EXIT_OK
        if args.command == "rule":
            from sharpbits.check_command import run_rule

            return run_rule(args)
        if args.command == "trace":
            from sharpbits.trace.cli import run

            return run(args)
        if args.command == "run":  # sharpbits run (issue 25)
            from sharpbits.runtime.command import run as run_program

            return run_program(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # an internal error: one clear line, exit 2, details only on request
        import os
        import traceback

        from sharpbits.output_formats import printable

        print(f"sharpbits: internal error: {type(exc).__name__}: {printable(exc)}", file=sys.stderr)
        if os.environ.get("SHARPBITS_DEBUG"):
            traceback.print_exc()
        else:
            print("sharpbits: set SHARPBITS_DEBUG=1 for the full traceback", file=sys.stderr)
        return EXIT_ERROR
    parser.error(f"unknown command {args.command!r}")
    return EXIT_ERROR
