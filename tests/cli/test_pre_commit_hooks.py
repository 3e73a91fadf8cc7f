"""The pre-commit hook definitions run the real console script with arguments it accepts."""

import shlex
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_hooks_point_at_working_commands(tmp_path, run_cli):
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"] for h in hooks} == {"sharpbits", "sharpbits-fix"}
    (tmp_path / "ok.py").write_text("import numpy as np\nx = np.zeros(2)\nx[0] = 1\n")
    for hook in hooks:
        program, *args = shlex.split(hook["entry"])
        assert program == "sharpbits" and hook["language"] == "python"
        out = run_cli(*args, str(tmp_path / "ok.py"))  # pre-commit appends the staged file names
        assert out.returncode == 0, out.stderr
        # notebooks are staged files too (identify's `jupyter` type)
        assert "jupyter" in hook["types_or"]
        notebook = ROOT / "tests" / "notebooks" / "data" / "jit_and_updates.ipynb"
        (tmp_path / "nb.ipynb").write_bytes(notebook.read_bytes())
        out = run_cli(*args, str(tmp_path / "nb.ipynb"))
        assert out.returncode == 1 and "nb.ipynb:cell 3:3:5: SB101" in out.stdout, out.stdout  # (an unsafe fix)
