"""`sharpbits trace FILE::FUNC --args '...'`: one trace from the terminal (never imports jax here).

Exit status: 0 traced; 1 the traced code raised (a JAX error such as TracerBoolConversionError, or any error in
the module or the function); 2 usage error, missing spec, or a worker failure (time limit, crash, no jax).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from sharpbits.trace.protocol import (
    CLIENT_ERRORS,
    DEFAULT_VIEWS_CLI,
    LOWER_FOR_PLATFORMS,
    PLATFORMS,
    VIEWS,
    TraceResult,
)

SHOW_ALL = VIEWS
DEFAULT_SHOW = ",".join(DEFAULT_VIEWS_CLI)
USER_PHASES = {"module", "target", "arguments", "trace", "lower", "compile", "run", "eager", "done"}
WORKER_FAILURES = set(CLIENT_ERRORS)  # the worker failed (time limit, crash, no jax, ...), not the traced code
EXIT_OK, EXIT_TRACE_ERROR, EXIT_ERROR = 0, 1, 2


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", metavar="FILE::FUNC", help="the function to trace: path/to/file.py::func or path/to/file.py::Class.method")
    p.add_argument("--args", dest="spec", default=None, metavar="SPEC",
                   help="example inputs, e.g. 'x=f32[1000,10], n=i32[], key=key, neg=True' (default: the "
                        "'# sharpbits: trace(...)' comment above the def, then jaxtyping annotations)")
    p.add_argument("--platform", choices=PLATFORMS, default="auto",
                   help="JAX platform for the worker (sets JAX_PLATFORMS; gpu: JAX chooses and a GPU is required; default: auto)")
    p.add_argument("--lower-for", choices=LOWER_FOR_PLATFORMS, default=None,
                   help="lower the StableHLO for this platform from any host (no compile: hlo/cost/timing need a "
                        "worker on that platform)")
    p.add_argument("--show", default=DEFAULT_SHOW, metavar="LIST",
                   help=f"comma-separated: {','.join(SHOW_ALL)} or all (default: {DEFAULT_SHOW})")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
    p.add_argument("--timeout", type=float, default=120.0, metavar="S",
                   help="time limit in seconds for the trace (the worker is killed past it; default 120)")
    p.add_argument("--interpreter", default=None, metavar="PYTHON",
                   help="the Python that has your JAX (default: this one; env SHARPBITS_TRACE_PYTHON)")
    p.add_argument("--launch-prefix", default=None, metavar="CMD",
                   help="run the worker through this command, e.g. 'ssh gpu-box' (env SHARPBITS_TRACE_LAUNCH_PREFIX)")
    p.add_argument("--cache-dir", default=None, metavar="DIR",
                   help="persistent compilation cache (default ~/.cache/sharpbits/jax-cache; 'none': leave JAX's own setting)")
    p.add_argument("--memory-limit-mb", type=int, default=None, metavar="MB",
                   help="the worker's memory limit in MiB (RLIMIT_DATA: what the trace allocates on the host, not "
                        "accelerator memory; default: half the physical memory; 0: no limit)")
    p.add_argument("--budget", type=float, default=1.0, metavar="S",
                   help="seconds spent on repeated calls for the steady-state timing (default 1)")
    p.add_argument("--no-eager", action="store_true", help="skip the un-jitted (eager) timing")
    p.add_argument("--no-key-reuse-check", action="store_true",
                   help="trace without jax.debug_key_reuse (by default a reused PRNG key is reported as a finding "
                        "at its line, and the trace goes on)")


def parse_show(value: str) -> list[str]:
    items = [s.strip().lower() for s in value.split(",") if s.strip()]
    if "all" in items:
        return list(SHOW_ALL)
    bad = [s for s in items if s not in SHOW_ALL]
    if bad:
        raise ValueError(f"unknown --show item(s) {', '.join(bad)}: choose from {', '.join(SHOW_ALL)}, all")
    return items or list(SHOW_ALL)


def exit_code(result: TraceResult) -> int:
    err = result.get("error")
    if not err:
        return EXIT_OK
    if err.get("type") in WORKER_FAILURES:
        return EXIT_ERROR
    return EXIT_TRACE_ERROR if err.get("phase") in USER_PHASES else EXIT_ERROR


def run(args: argparse.Namespace) -> int:
    from sharpbits.trace.client import TraceClient, WorkerConfig
    from sharpbits.trace.specs import SpecError, resolve_spec, split_target

    try:
        path, function = split_target(args.target)
        show = parse_show(args.show)
    except (SpecError, ValueError) as exc:
        print(f"sharpbits: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        print(f"sharpbits: error: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        resolved = resolve_spec(text, function, args.spec)
    except SpecError as exc:
        print(f"sharpbits: error: {exc}", file=sys.stderr)
        return EXIT_ERROR

    if args.memory_limit_mb is not None and args.memory_limit_mb < 0:
        print("sharpbits: error: --memory-limit-mb must be 0 (no limit) or a size in MiB", file=sys.stderr)
        return EXIT_ERROR
    config = WorkerConfig(platform=args.platform)
    interpreter = args.interpreter or os.environ.get("SHARPBITS_TRACE_PYTHON")
    if interpreter:
        config.interpreter = interpreter
    prefix = args.launch_prefix or os.environ.get("SHARPBITS_TRACE_LAUNCH_PREFIX")
    if prefix:
        import shlex

        config.launch_prefix = shlex.split(prefix)
    if args.cache_dir:
        config.cache_dir = None if args.cache_dir.lower() == "none" else os.path.expanduser(args.cache_dir)
    config.memory_limit_mb = args.memory_limit_mb
    config.cwd = os.getcwd()  # the worker runs where the user ran us (their project), never in the temp folder
    config.warmup = False  # one trace: nothing to hide the warm-up behind

    client = TraceClient(config)
    try:
        result = client.trace(path=path, text=text, function=function, spec=resolved.spec, show=show,
                              timeout=args.timeout, time_budget_s=args.budget, eager=not args.no_eager,
                              root=os.getcwd(), lower_for=args.lower_for,
                              check_key_reuse=not args.no_key_reuse_check)
    finally:
        client.stop()
    result["spec"] = {"source": resolved.source, "text": resolved.spec.get("text"), "line": resolved.line}
    code = exit_code(result)
    if args.format == "json":
        json.dump(result, sys.stdout, indent=1, default=str)
        sys.stdout.write("\n")
    else:
        from sharpbits.trace.render import render_text

        note = {"explicit": "args from --args", "directive": f"args from the directive on line {resolved.line}",
                "jaxtyping": "args from jaxtyping annotations", "none-needed": "no arguments needed"}[resolved.source]
        if code != EXIT_ERROR:
            sys.stdout.write(render_text(result, os.path.abspath(path), text, show, note))
    if code == EXIT_ERROR:
        err = result.get("error") or {}
        print(f"sharpbits: error: {err.get('type', 'Error')}: {err.get('message', 'the trace failed')}",
              file=sys.stderr)
    return code
