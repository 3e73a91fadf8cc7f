"""CLI CPU per line on real code, beside pyflakes and Ruff (issue 26: "CLI CPU per line on real code <= 1.0x
pyflakes on the same files").

Each tool checks the same files, the real-code libraries of bench/realcode.py (the shared download cache,
`.cache/realcode/src/`), as a process started from here; its CPU is the user + system time of that process and
everything it waited for (resource.RUSAGE_CHILDREN), so worker processes and threads count. Medians over
`--runs` rounds, the tools alternated within a round, all in one run; printed per 1,000 lines and as a ratio to
pyflakes. sharpbits runs without its result cache (`--no-cache`: every file analysed) and, as the others, with
its default parallelism (its CPU is what it spends on all cores together). Ruff runs with `--isolated
--no-cache --select F` (its pyflakes rules). Needs the bench extra: `pip install -e '.[bench]'`.

Each tool runs as installed: with its bytecode compiled (pip compiles an installed package's modules; an editable
install writes them on its first import). So the processes run without PYTHONDONTWRITEBYTECODE, after one
untimed round that writes any bytecode still missing: otherwise an editable sharpbits compiled its ~70 modules
from source in every process (0.2 s a start) while pyflakes, installed, did not.
`--compare DIR`: also a second sharpbits, the one in the checkout DIR (`DIR/server` first on its path), in the
same rounds: before/after figures from one run.

    .venv/bin/python bench/cli_cpu.py [--packages optax,chex,...] [--runs 3] [--compare /tmp/before]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / ".cache" / "realcode" / "src"
DEFAULT = "optax,chex,flax,equinox,diffrax,numpyro,blackjax,jaxopt,rlax,brax,distrax,optimistix"


def folders(packages: list[str]) -> list[Path]:
    """The unpacked source folders of the packages, at the versions bench/realcode.py pins (a glob of `name-*`
    took flax-extra for flax and numpyro-ext for numpyro)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from realcode import PACKAGES

    out = []
    for name in packages:
        if name not in PACKAGES:
            raise SystemExit(f"{name}: not a bench/realcode.py package")
        folder = SRC / f"{name}-{PACKAGES[name][0]}"
        if not (folder / ".complete").exists():
            raise SystemExit(f"{name}: not in {SRC} (bench/realcode.py downloads it)")
        out.append(folder)
    return out


def cpu_of(command: list[str], env: dict[str, str] | None = None) -> float:
    """User + system seconds of `command` and its descendants (output discarded; exit status ignored: linters
    exit 1 when they find something)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, check=False, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--packages", default=DEFAULT)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--compare", metavar="DIR", help="also time the sharpbits of this checkout")
    args = parser.parse_args()
    try:
        import pyflakes  # noqa: F401  (the baseline: a missing one would time an import error and print nonsense)
    except ImportError:
        sys.exit("cli_cpu.py needs pyflakes, the figure's baseline: pip install -e '.[bench]'")
    dirs = folders([p.strip() for p in args.packages.split(",") if p.strip()])
    files = [f for d in dirs for f in d.rglob("*.py")]
    lines = sum(f.read_bytes().count(b"\n") for f in files)
    paths = [str(d) for d in dirs]
    tools: dict[str, list[str]] = {
        "sharpbits": [sys.executable, "-m", "sharpbits", "check", "--no-cache", "--no-exclude", *paths],
        "pyflakes": [sys.executable, "-m", "pyflakes", *paths],
    }
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    envs: dict[str, dict[str, str]] = {}
    if args.compare:
        other = Path(args.compare).resolve() / "server"
        if not (other / "sharpbits").is_dir():
            sys.exit(f"--compare: no server/sharpbits in {args.compare}")
        tools["sharpbits@compare"] = list(tools["sharpbits"])
        envs["sharpbits@compare"] = {**env, "PYTHONPATH": str(other)}
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if Path(ruff).exists():
        tools["ruff"] = [ruff, "check", "--isolated", "--no-cache", "--select", "F", "--quiet", *paths]
    print(f"{len(files)} files, {lines:,} lines from {len(dirs)} libraries; {args.runs} rounds"
          + (f"; sharpbits@compare is {args.compare}" if args.compare else ""))
    for name, command in tools.items():  # untimed: writes the bytecode an editable install has not written yet
        cpu_of(command, envs.get(name, env))
    seconds: dict[str, list[float]] = {name: [] for name in tools}
    for _ in range(args.runs):
        for name, command in tools.items():
            seconds[name].append(cpu_of(command, envs.get(name, env)))
    median = {name: statistics.median(values) for name, values in seconds.items()}
    base = median["pyflakes"] / lines
    for name, value in median.items():
        per = value / lines
        print(f"  {name:17s} CPU {value:6.2f} s = {per * 1e6:6.1f} us/line = {per / base:.2f}x pyflakes")


if __name__ == "__main__":
    main()
