"""Runs programs and test suites under `sharpbits run` / `pytest --sharpbits` as subprocesses (the real entry
points) and reads the JSON report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join([str(ROOT / "server"), *([out["PYTHONPATH"]] if out.get("PYTHONPATH") else [])])
    out["JAX_PLATFORMS"] = "cpu"
    out.pop("SHARPBITS_RUNTIME_OPTIONS", None)
    return out


def write(folder: Path, name: str, code: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(code), encoding="utf-8")
    return path


def line_of(path: Path, marker: str) -> int:
    """The 1-based line holding `# <marker>`."""
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text.rstrip().endswith(f"# {marker}"):
            return number
    raise AssertionError(f"no line marked {marker!r} in {path}")


def sharpbits_run(folder: Path, program: Path, *options: str, timeout: float = 240) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    report = folder / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "sharpbits", "run", "--format", "json", "-o", str(report), *options, "--",
         sys.executable, program.name],
        cwd=folder, env=env(), capture_output=True, text=True, timeout=timeout)
    findings = json.loads(report.read_text(encoding="utf-8")) if report.exists() else []
    return proc, findings


def by_code(findings: list[dict[str, Any]], code: str) -> list[dict[str, Any]]:
    return [f for f in findings if f["code"] == code]
