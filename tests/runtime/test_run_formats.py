"""`sharpbits run`'s report formats carry the recompile finding whole: what changed and how to avoid it, in text,
json, sarif and github, through the real command (one program, run once per format)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.runtime.helpers import env, line_of, write

PROGRAM = """
import jax
import jax.numpy as jnp

@jax.jit
def step(x):
    return (x * 2).sum()

for batch in (8, 16, 24, 32):
    step(jnp.ones((batch, 4)))  # call:step
"""

WHAT_CHANGED = "argument `x` changed shape (4 shapes: f32[8,4], f32[16,4], f32[24,4], f32[32,4])"
HOW_TO_AVOID = "To avoid it: pad `x` to a fixed shape, or bucket it to a few sizes"


def _run(folder: Path, fmt: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "sharpbits", "run", "--format", fmt, "-o", "report.out", "--",
                           sys.executable, "prog.py"], cwd=folder, env=env(), capture_output=True, text=True,
                          timeout=240)
    assert proc.returncode == 0, proc.stderr
    return (folder / "report.out").read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_every_format_carries_what_changed_and_how_to_avoid_it(tmp_path: Path, fmt: str):
    program = write(tmp_path, "prog.py", PROGRAM)
    line = line_of(program, "call:step")
    out = _run(tmp_path, fmt)
    if fmt == "json":
        [finding] = json.loads(out)
        assert (finding["code"], finding["line"], finding["count"]) == ("SB601", line, 4)
        message = finding["message"]
    elif fmt == "sarif":
        [sarif_run] = json.loads(out)["runs"]
        [result] = sarif_run["results"]
        assert result["ruleId"] == "SB601" and result["level"] == "warning"
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] == line
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("prog.py")
        message = result["message"]["text"]
    elif fmt == "github":
        [annotation] = [row for row in out.splitlines() if row.startswith("::")]
        assert annotation.startswith(f"::warning file=prog.py,line={line},")
        assert "SB601" in annotation
        message = annotation
    else:
        assert out.startswith(f"prog.py:{line}:")
        assert "SB601 [recompilation]" in out and "sharpbits: 1 runtime finding in the program." in out
        message = out
    assert WHAT_CHANGED in message and HOW_TO_AVOID in message
    assert "seen at runtime: 4 compiles" in message
