"""A hostile repository, round two (issue 24), through the real CLI: no code of the folder runs in the worker
processes, a hostile file or .gitignore stalls or stops nothing, a malformed pyproject.toml is reported and the
check goes on with defaults, `--fix` never rewrites a file it cannot give back byte for byte, nothing a file or
symlink is named (or points at) forges a line in a CI log, and the CLI's own writes cannot be redirected."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from tests.conftest import SHARPBITS
from tests.hostile import plant, written

MODEL = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1.0\n"
FIXED = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx = x.at[0].set(1.0)\n"

# The CLI's own entry point on a platform that only has the `spawn` start method (Windows), as a script file:
# its folder (not the working directory) is first on its sys.path, and a spawned child imports it again as
# `__mp_main__`, which does not run main.
SPAWN_ONLY = """
import multiprocessing
import sys

multiprocessing.get_all_start_methods = lambda: ["spawn"]

from sharpbits.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
"""


def lines_of(out: subprocess.CompletedProcess) -> list[str]:
    return out.stdout.splitlines() + out.stderr.splitlines()


# ---- 1. worker processes started with `spawn` -----------------------------------------------------------------

def test_spawned_workers_run_nothing_from_the_checked_folder(tmp_path):
    folder, markers = tmp_path / "repo", tmp_path / "markers"
    plant(folder, markers, ["multiprocessing", "concurrent", "pickle", "runpy", "sharpbits"])
    for index in range(6):
        (folder / f"model_{index}.py").write_text(MODEL)
    harness = tmp_path / "harness" / "spawn_only.py"
    harness.parent.mkdir()
    harness.write_text(SPAWN_ONLY)
    out = subprocess.run([sys.executable, str(harness), "check", "--jobs", "2", "--no-cache", "--format", "json", "."],
                         cwd=folder, capture_output=True, text=True, timeout=300)
    assert "internal error" not in out.stderr and out.returncode == 1, out.stderr
    assert written(markers) == []
    found = json.loads(out.stdout)
    assert sorted({f["path"] for f in found if f["code"] == "SB101"}) == [f"model_{i}.py" for i in range(6)]


# ---- 4. a .gitignore (or `exclude`) pattern that a backtracking matcher needs years for -----------------------

REDOS = "*a" * 14 + "*b"  # 14 segments: hours with a backtracking regular expression


def test_a_catastrophic_gitignore_pattern_is_matched_at_once(tmp_path):
    (tmp_path / ".gitignore").write_text(REDOS + "\n")
    (tmp_path / ("a" * 40 + ".py")).write_text(MODEL)
    (tmp_path / ("a" * 14 + "b")).mkdir()  # matched: not walked into
    (tmp_path / ("a" * 14 + "b") / "gone.py").write_text(MODEL)
    out = subprocess.run([SHARPBITS, "check", "--format", "json", "--no-cache", "."], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1, out.stderr
    assert {f["path"] for f in json.loads(out.stdout)} == {"a" * 40 + ".py"}


def test_a_catastrophic_exclude_pattern_is_matched_at_once(tmp_path):
    (tmp_path / "pyproject.toml").write_text(f'[tool.sharpbits]\nexclude = ["{REDOS}", "*ab"]\n')
    (tmp_path / ("a" * 40 + ".py")).write_text(MODEL)
    (tmp_path / "kept.py").write_text(MODEL)
    (tmp_path / "xab").mkdir()
    (tmp_path / "xab" / "gone.py").write_text(MODEL)
    out = subprocess.run([SHARPBITS, "check", "--format", "json", "--no-cache", "."], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1, out.stderr
    assert {f["path"] for f in json.loads(out.stdout)} == {"a" * 40 + ".py", "kept.py"}


# ---- 6. a pyproject.toml that is malformed in any way ---------------------------------------------------------

@pytest.mark.parametrize(
    ("content", "line", "says"),
    [
        ("[tool.sharpbits]\nselect = " + "[" * 3000 + "\n", 0, "nested too deeply"),
        ('tool = "sharpbits"\n', 1, "`tool`"),
        ('[tool]\nsharpbits = "on"\n', 2, "[tool.sharpbits] must be a table"),
        ('[tool.sharpbits]\nignore = ["SB201"]\nseverity = "x"\n', 3, "`severity`"),
        ('[tool.sharpbits]\nper-file-ignores = 1\n', 2, "`per-file-ignores`"),
        ('[tool.sharpbits]\nexclude = "build"\n', 2, "`exclude`"),
        ('[tool.sharpbits.severity]\nprng-key-reuse = "x"\n', 2, "severity.prng-key-reuse"),
        ('[tool.sharpbits.per-file-ignores]\n"*.py" = [1]\n', 2, "per-file-ignores"),
        ('[tool.sharpbits]\nselect = ["SB999"]\n', 2, "unknown rule 'SB999'"),
        ('[tool.sharpbits]\nselects = ["SB101"]\n', 2, "unknown setting(s) selects"),
    ],
    ids=["nested", "tool-string", "sharpbits-string", "severity-string", "per-file-int", "exclude-string",
         "severity-value", "per-file-value", "unknown-rule", "unknown-key"],
)
def test_a_malformed_pyproject_is_one_message_and_the_check_goes_on(tmp_path, run_cli, content, line, says):
    (tmp_path / "pyproject.toml").write_text(content)
    (tmp_path / "m.py").write_text(MODEL)
    out = run_cli("check", "--no-cache", ".", cwd=tmp_path)
    assert "internal error" not in out.stderr and "Traceback" not in out.stderr
    pyproject = (tmp_path / "pyproject.toml").resolve()
    errors = [text for text in out.stderr.splitlines() if str(pyproject) in text]
    assert len(errors) == 1, out.stderr
    assert errors[0].startswith(f"sharpbits: error: {pyproject}:{line}:" if line else f"sharpbits: error: {pyproject}:")
    assert says in errors[0], errors[0]
    assert "m.py:3:1: SB101" in out.stdout  # checked with the defaults for what could not be read
    assert out.returncode == 2  # a broken configuration fails the run, after everything was reported


def test_a_malformed_pyproject_in_a_parent_folder_that_never_names_sharpbits_is_passed_over(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text("a = " + "[" * 3000 + "\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "m.py").write_text(MODEL)
    out = run_cli("check", "--no-cache", ".", cwd=project)
    assert out.returncode == 1 and "m.py:3:1: SB101" in out.stdout, out.stderr
    assert out.stderr == ""


def test_with_a_malformed_pyproject_fix_changes_nothing(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text('[tool.sharpbits]\nseverity = "x"\n')
    (tmp_path / "m.py").write_text(MODEL)
    out = run_cli("check", "--fix", "--no-cache", ".", cwd=tmp_path)
    assert out.returncode == 2 and "not fixing" in out.stderr, out.stderr
    assert (tmp_path / "m.py").read_text() == MODEL  # no fix under settings that were not read


# ---- 7. one hostile file never aborts the check of the others -------------------------------------------------

NOTEBOOK_CELL = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": MODEL}


@pytest.mark.parametrize(
    ("hostile", "reason"),
    [
        ('{"cells": ' + "[" * 50_000 + "]" * 50_000 + "}", "skipped: "),
        ('{"cells": [], "metadata": {"n": ' + "7" * 5000 + '}, "nbformat": 4, "nbformat_minor": 5}', "skipped: "),
    ],
    ids=["nested-50000", "5000-digit-number"],
)
@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_a_hostile_notebook_is_skipped_and_the_rest_reported(tmp_path, run_cli, hostile, reason, fmt):
    (tmp_path / "evil.ipynb").write_text(hostile)
    (tmp_path / "good.ipynb").write_text(json.dumps({"cells": [NOTEBOOK_CELL], "metadata": {}, "nbformat": 4,
                                                     "nbformat_minor": 5}))
    (tmp_path / "m.py").write_text(MODEL)
    out = run_cli("check", "--no-cache", "--format", fmt, ".", cwd=tmp_path)
    assert "internal error" not in out.stderr and out.returncode == 1, out.stderr
    assert f"evil.ipynb: {reason}" in out.stderr
    assert "good.ipynb" in out.stdout and "m.py" in out.stdout


def test_a_gitignore_pattern_that_git_accepts_is_never_fatal(tmp_path, run_cli):
    (tmp_path / ".gitignore").write_text("[z-a].py\nignored.py\n[\n\\\n")
    (tmp_path / "m.py").write_text(MODEL)
    (tmp_path / "z.py").write_text(MODEL)
    (tmp_path / "ignored.py").write_text(MODEL)
    out = run_cli("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert out.returncode == 1 and "internal error" not in out.stderr, out.stderr
    assert {f["path"] for f in json.loads(out.stdout)} == {"m.py", "z.py"}


# ---- 8. --fix never changes a file whose encoding does not give back its bytes --------------------------------

def test_fix_leaves_a_file_whose_encoding_does_not_round_trip(tmp_path, run_cli):
    original = b"# coding: unicode_escape\n" + MODEL.encode()
    (tmp_path / "m.py").write_bytes(original)
    out = run_cli("check", "--fix", "--no-cache", "m.py", cwd=tmp_path)
    assert (tmp_path / "m.py").read_bytes() == original
    assert "m.py: " in out.stderr and "not fixed" in out.stderr, out.stderr
    out = run_cli("check", "--diff", "--no-cache", "m.py", cwd=tmp_path)
    assert out.stdout == "" and "not fixed" in out.stderr
    # a coding the file round-trips through is still fixed
    (tmp_path / "m.py").write_bytes(b"# coding: latin-1\n# caf\xe9\n" + MODEL.encode())
    run_cli("check", "--fix", "--no-cache", "m.py", cwd=tmp_path)
    assert (tmp_path / "m.py").read_bytes() == b"# coding: latin-1\n# caf\xe9\n" + FIXED.encode()


# ---- 9. nothing a path or a link's target holds forges a line in a CI log ------------------------------------

FORGED = "::stop-commands::x"


def forged_lines(out: subprocess.CompletedProcess) -> list[str]:
    """Lines a runner would read as a command that no finding of ours wrote."""
    return [line for line in lines_of(out) if line.startswith(("::error file=x.py", "::error::forged", FORGED))]


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_a_symlink_target_cannot_forge_a_workflow_command(tmp_path, run_cli, fmt):
    (tmp_path / "a.py").symlink_to(f"\n{FORGED}\n\x1b[2K")
    (tmp_path / "m.py").write_text(MODEL)
    out = run_cli("check", "--no-cache", "--format", fmt, ".", cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    assert forged_lines(out) == [] and "\x1b" not in out.stderr + out.stdout
    assert "a.py: skipped: broken symlink (to \\n::stop-commands::x\\n\\x1b[2K)" in out.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_a_file_name_cannot_forge_a_workflow_command(tmp_path, run_cli, fmt):
    name = "a\n::error file=x.py,line=1::forged\r\u2028\x85.py"
    (tmp_path / name).write_text(MODEL)
    out = run_cli("check", "--no-cache", "--format", fmt, ".", cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    assert forged_lines(out) == []
    assert not any(c in out.stdout + out.stderr for c in "\r\u2028\x85")
    if fmt == "json":  # the data itself is exact
        assert {f["path"] for f in json.loads(out.stdout)} == {name}


def test_a_skip_reason_cannot_forge_a_workflow_command(tmp_path, run_cli):
    name = "b\n::error::forged.py"
    (tmp_path / name).write_bytes(b"\x00binary")
    (tmp_path / "m.py").write_text(MODEL)
    out = run_cli("check", "--no-cache", "--format", "github", ".", cwd=tmp_path)
    assert forged_lines(out) == [] and "b\\n::error::forged.py: skipped: binary file" in out.stderr


# ---- 10. the CLI's own writes cannot be redirected ------------------------------------------------------------

# The CLI's entry point in a process of its own; `os.fsync` (called on the temporary file --fix writes, before its
# mode is set) is wrapped to swap that temporary file for a symlink to a private file: the race a local attacker
# runs. Setting the mode by path would follow the link and make the private file readable by everyone.
RACE_THE_MODE = """
import glob, os, sys

from sharpbits.cli import main

victim = sys.argv[1]
real_fsync = os.fsync

def fsync_then_swap(fd):
    real_fsync(fd)
    for temporary in glob.glob(os.path.join(os.getcwd(), ".m.py.*.sharpbits-fix")):
        os.unlink(temporary)
        os.symlink(victim, temporary)

os.fsync = fsync_then_swap
sys.exit(main(sys.argv[2:]))
"""


def test_fix_sets_the_mode_of_what_it_wrote_not_of_what_a_path_names(tmp_path):
    victim = tmp_path / "private"
    victim.write_text("secret")
    victim.chmod(0o600)
    project = tmp_path / "project"
    project.mkdir()
    (project / "m.py").write_text(MODEL)
    (project / "m.py").chmod(0o644)
    subprocess.run([sys.executable, "-c", RACE_THE_MODE, str(victim), "check", "--fix", "--no-cache", "m.py"],
                   cwd=project, capture_output=True, text=True, timeout=120)
    assert stat.S_IMODE(victim.stat().st_mode) == 0o600
    assert victim.read_text() == "secret"


PLANT_CACHE_LINK = """
import os, sys
from pathlib import Path

from sharpbits.analysis.engine import Selection
from sharpbits.cli import main
from sharpbits.result_cache import ResultCache

cache, victim = Path(sys.argv[1]), Path(sys.argv[2])
key = ResultCache.key(Path("m.py").read_bytes(), "m.py", Selection(), False)
folder = ResultCache(cache).folder / key[:2]
folder.mkdir(parents=True)
os.symlink(victim, folder / f".{key}.{os.getpid()}.tmp")  # the name the cache used for its temporary file
sys.exit(main(["check", "--cache-dir", str(cache), "m.py"]))
"""


def test_the_cache_writes_through_no_planted_symlink(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    project = tmp_path / "project"
    project.mkdir()
    (project / "m.py").write_text(MODEL)
    out = subprocess.run([sys.executable, "-c", PLANT_CACHE_LINK, str(tmp_path / "cache"), str(victim)],
                         cwd=project, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stderr
    assert victim.read_text() == "precious"


def test_a_cache_folder_inside_the_checked_tree_is_refused(tmp_path, run_cli):
    """A repository cannot ship results: a cache folder inside what is checked is neither read nor written."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "m.py").write_text(MODEL)
    cache = project / ".sharpbits-cache"
    first = run_cli("check", "--format", "json", "--cache-dir", str(tmp_path / "elsewhere"), ".", cwd=project)
    assert first.returncode == 1
    # a planted entry saying "no findings" for m.py, where the cache would look for it
    for entry in (tmp_path / "elsewhere").rglob("*"):
        if entry.is_file():
            target = cache / entry.relative_to(tmp_path / "elsewhere")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps({"key": entry.name, "findings": []}))
    for args in (["--cache-dir", str(cache)], ["--cache-dir", ".sharpbits-cache"]):
        out = run_cli("check", "--format", "json", *args, ".", cwd=project)
        assert out.returncode == 1 and len(json.loads(out.stdout)) >= 1, out.stderr
        assert "inside the folder being checked" in out.stderr and "not used" in out.stderr
    env = {**os.environ, "SHARPBITS_CACHE_DIR": str(cache)}
    out = subprocess.run([SHARPBITS, "check", "--format", "json", "."],
                         cwd=project, capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 1 and len(json.loads(out.stdout)) >= 1, out.stderr


# ---- 5. an analysis that runs out of time is stopped for real ------------------------------------------------

# The CLI's entry point with the analysis of any file named `slow*.py` stuck in C (a backtracking regular
# expression: no signal or exception can interrupt it) or in Python, the way a pathological input would hold it.
# Workers are forked, so they inherit the stuck analysis.
STUCK_ANALYSIS = """
import re
import sys

import sharpbits.check_command as check_command
import sharpbits.notebooks as notebooks
from sharpbits.cli import main

real_analyze = check_command.analyze
real_check_notebook = notebooks.check_notebook

def analyze(text, path, selection, **options):
    if "slow_c" in path:
        re.match("(a*)*b", "a" * 64)
    if "slow_py" in path:
        while True:
            pass
    return real_analyze(text, path, selection, **options)

def check_notebook(path, data, selection, **options):
    if "slow_nb" in path:
        re.match("(a*)*b", "a" * 64)
    return real_check_notebook(path, data, selection, **options)

check_command.analyze = analyze
notebooks.check_notebook = check_notebook
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_analysis_out_of_time_is_killed_and_the_rest_reported(tmp_path, jobs):
    for name in ("slow_c.py", "slow_py.py", *(f"model_{i}.py" for i in range(5))):
        (tmp_path / name).write_text(MODEL)
    notebook = json.dumps({"cells": [NOTEBOOK_CELL], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    (tmp_path / "slow_nb.ipynb").write_text(notebook)
    (tmp_path / "fine.ipynb").write_text(notebook)
    # the stuck files never finish (catastrophic backtracking); the budget is far above what an ordinary file takes
    # on a loaded machine (a worker's start included), so no ordinary file is ever skipped by chance
    out = subprocess.run([sys.executable, "-c", STUCK_ANALYSIS, "check", "--timeout", "6", "--jobs", jobs,
                          "--no-cache", "--format", "json", "."], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 1, out.stderr
    for slow in ("slow_c.py", "slow_py.py", "slow_nb.ipynb"):
        assert f"{slow}: skipped: analysis took longer than 6 s" in out.stderr
    assert sorted({f["path"] for f in json.loads(out.stdout)}) == ["fine.ipynb", *(f"model_{i}.py" for i in range(5))]


def test_a_worker_that_dies_is_one_skipped_file(tmp_path):
    for name in ("dies.py", *(f"model_{i}.py" for i in range(4))):
        (tmp_path / name).write_text(MODEL)
    script = STUCK_ANALYSIS.replace('if "slow_c" in path:', 'if "dies" in path:\n        import os; os._exit(9)\n    if "slow_c" in path:')
    out = subprocess.run([sys.executable, "-c", script, "check", "--jobs", "2", "--no-cache", "."], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stderr
    assert "dies.py: skipped: the analysis process stopped unexpectedly (exit code 9)" in out.stderr
    assert all(f"model_{i}.py:3:1: SB101" in out.stdout for i in range(4))
