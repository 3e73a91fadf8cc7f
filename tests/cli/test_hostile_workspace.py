"""Checking a folder never runs its code, even a folder whose modules are named like the ones sharpbits imports
(json.py, enum.py, typing_extensions.py, pygls.py, ... each writing a marker file when imported)."""

import subprocess
import sys
from pathlib import Path

from tests.hostile import every_module_name, plant, written

SHARPBITS = str(Path(sys.executable).with_name("sharpbits"))
MODEL = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1\n"


def modules_python_imports_before_our_code() -> set[str]:
    """What `python -m` imports (runpy and its importlib helpers) after putting the working directory on sys.path
    and before sharpbits/__main__.py runs: no package can defend those (hence the console script)."""
    out = subprocess.run([sys.executable, "-I", "-c", "import sys; before = set(sys.modules); import runpy; "
                          "print(' '.join(sorted(set(sys.modules) - before)))"],
                         capture_output=True, text=True, check=True)
    return {name.split(".")[0] for name in out.stdout.split()} | {"sharpbits"}  # -m imports the package first


def test_the_hostile_folder_is_real(tmp_path):
    """Python itself imports these files when the folder is first on sys.path: the markers can be written."""
    folder, markers = tmp_path / "repo", tmp_path / "markers"
    plant(folder, markers, ["json", "enum"])
    subprocess.run([sys.executable, "-c", "import json"], cwd=folder, check=True)
    assert written(markers) == ["json"]


def test_python_m_sharpbits_check_imports_nothing_from_the_working_directory(tmp_path):
    folder, markers = tmp_path / "repo", tmp_path / "markers"
    unavoidable = modules_python_imports_before_our_code()
    assert {"runpy", "sharpbits"} <= unavoidable and "json" not in unavoidable
    plant(folder, markers, every_module_name() - unavoidable)
    (folder / "model.py").write_text(MODEL)
    out = subprocess.run([sys.executable, "-m", "sharpbits", "check", "model.py"], cwd=folder, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 1 and "SB101" in out.stdout, out.stderr
    assert written(markers) == []


def test_the_console_script_imports_nothing_from_the_working_directory(tmp_path):
    folder, markers = tmp_path / "repo", tmp_path / "markers"
    plant(folder, markers, every_module_name())  # runpy.py and sharpbits.py too
    (folder / "model.py").write_text(MODEL)
    out = subprocess.run([SHARPBITS, "check", "."], cwd=folder, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "model.py:3:1: SB101" in out.stdout, out.stderr
    assert written(markers) == []
