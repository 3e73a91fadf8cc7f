"""`check --fix` loses nothing and reaches nothing beyond what it checks (issue 15), through the real CLI in a
subprocess: symlinks out of the folder, a file saved while the fixes were computed, read-only files,
unreadable folders and files, symlink loops, and a pyproject.toml that is not valid TOML.

Two cases need more than the console script:
- "changed since it was read" runs the CLI's own `main` in a subprocess whose `check_command.before_write`
  seam (called on the real write path, after the fixes are computed and before the file is compared) saves
  the file the way an editor would; nothing is mocked.
- unreadable folders and files: root reads through chmod 000, and the tests run as root in CI. There the CLI
  runs in a subprocess that imports sharpbits as root (the interpreter lives under /root), then drops to the
  `nobody` user before `main` runs, so the permission errors are real. As a non-root user the console script
  runs directly.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

BUGGY = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1.0\n"
FIXED = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx = x.at[0].set(1.0)\n"
EDITOR_SAVE = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1.0\nprint('saved in the editor meanwhile')\n"
NOBODY = 65534

# The CLI's own entry point in a subprocess, with the test seam set: the file is saved "by the editor" at the
# moment --fix is about to write it.
RUN_WITH_EDITOR_SAVE = """
import sys
from pathlib import Path

import sharpbits.check_command as check_command
from sharpbits.cli import main

def editor_saves(path: Path) -> None:
    if path.name == "edited.py":
        path.write_text(sys.argv[1])

check_command.before_write = editor_saves
sys.exit(main(sys.argv[2:]))
"""

# The CLI's own entry point as the `nobody` user. What it imports lazily is imported first, as root (the
# interpreter's standard library lives under /root, which nobody cannot read): the argument parser is built and
# a small module analysed once before the privileges are dropped.
RUN_AS_NOBODY = f"""
import os
import sys

import difflib, json, tempfile, traceback  # noqa: E401
import sharpbits.cli, sharpbits.config, sharpbits.files, sharpbits.output_formats, sharpbits.wildmatch  # noqa: E401
from sharpbits.analysis.engine import Selection
from sharpbits.check_command import fix_text

sharpbits.cli.build_parser().parse_args(sys.argv[1:])
fix_text({BUGGY!r}, "warm-up.py", Selection(), unsafe=True)

os.setgroups([])
os.setgid({NOBODY})
os.setuid({NOBODY})
sys.exit(sharpbits.cli.main(sys.argv[1:]))
"""


def cli_as_unprivileged(run_cli, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    if os.geteuid() != 0:
        return run_cli(*args, cwd=cwd)
    return subprocess.run([sys.executable, "-c", RUN_AS_NOBODY, *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


@pytest.fixture
def shared_tmp():
    """A folder the `nobody` user can reach (pytest's tmp_path lives under a root-only folder)."""
    folder = Path(tempfile.mkdtemp(prefix="sharpbits-safety-"))
    folder.chmod(0o755)
    yield folder
    for dirpath, dirnames, _ in os.walk(folder):
        for name in dirnames:
            os.chmod(os.path.join(dirpath, name), 0o755, follow_symlinks=False)
    shutil.rmtree(folder)


def no_internal_error(out: subprocess.CompletedProcess) -> None:
    assert "internal error" not in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert out.returncode in (0, 1), (out.returncode, out.stderr)


def test_symlink_to_a_file_outside_is_neither_read_nor_written(tmp_path, run_cli):
    outside = tmp_path / "outside"
    project = tmp_path / "project"
    outside.mkdir()
    project.mkdir()
    (outside / "victim.py").write_text(BUGGY)
    (project / "own.py").write_text(BUGGY)
    (project / "link.py").symlink_to(outside / "victim.py")
    out = run_cli("check", "--fix", "project", cwd=tmp_path)
    no_internal_error(out)
    assert (outside / "victim.py").read_text() == BUGGY
    assert (project / "link.py").is_symlink()
    assert (project / "own.py").read_text() == FIXED  # the run went on
    assert (f"project/link.py: skipped: symlink to {(outside / 'victim.py').resolve()}, outside the folder being "
            f"checked ({project.resolve()}); not followed") in out.stderr
    assert "Fixed 1 finding." in out.stdout and "(1 file checked)" in out.stdout
    # named on the command line, a link is judged against the folder it was named in
    out = run_cli("check", "--fix", "link.py", cwd=project)
    no_internal_error(out)
    assert "link.py: skipped: symlink to" in out.stderr
    assert (outside / "victim.py").read_text() == BUGGY


def test_symlink_inside_the_folder_fixes_its_target_and_stays_a_link(tmp_path, run_cli):
    (tmp_path / "real.py").write_text(BUGGY)
    (tmp_path / "alias.py").symlink_to("real.py")
    out = run_cli("check", "--fix", "alias.py", cwd=tmp_path)
    no_internal_error(out)
    assert (tmp_path / "alias.py").is_symlink() and os.readlink(tmp_path / "alias.py") == "real.py"
    assert (tmp_path / "real.py").read_text() == FIXED
    # walking the folder, the file is checked once (not once per name)
    (tmp_path / "real.py").write_text(BUGGY)
    out = run_cli("check", "--fix", ".", cwd=tmp_path)
    assert "Fixed 1 finding." in out.stdout and "(1 file checked)" in out.stdout, out.stdout


def test_a_file_saved_meanwhile_is_not_overwritten(tmp_path):
    edited, other = tmp_path / "edited.py", tmp_path / "other.py"
    edited.write_text(BUGGY)
    other.write_text(BUGGY)
    out = subprocess.run([sys.executable, "-c", RUN_WITH_EDITOR_SAVE, EDITOR_SAVE, "check", "--fix", "."],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    no_internal_error(out)
    assert edited.read_text() == EDITOR_SAVE  # the save survives
    assert "edited.py: changed since it was read; not fixed" in out.stderr
    assert other.read_text() == FIXED  # the run went on
    assert "Fixed 1 finding." in out.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["edited.py", "other.py"]  # no temporary file left


def test_fix_keeps_the_mode_and_leaves_no_temporary_file(tmp_path, run_cli):
    script = tmp_path / "tool.py"
    script.write_text(BUGGY)
    script.chmod(0o751)
    inode = script.stat().st_ino
    out = run_cli("check", "--fix", "tool.py", cwd=tmp_path)
    no_internal_error(out)
    assert script.read_text() == FIXED
    assert stat.S_IMODE(script.stat().st_mode) == 0o751
    assert script.stat().st_ino != inode  # replaced by rename, not rewritten in place
    assert [p.name for p in tmp_path.iterdir()] == ["tool.py"]


def test_read_only_file_is_reported_and_the_run_goes_on(tmp_path, run_cli):
    locked, other = tmp_path / "locked.py", tmp_path / "other.py"
    locked.write_text(BUGGY)
    other.write_text(BUGGY)
    locked.chmod(0o444)  # no write bit for anyone: left alone, also by root
    out = run_cli("check", "--fix", ".", cwd=tmp_path)
    assert locked.read_text() == BUGGY and stat.S_IMODE(locked.stat().st_mode) == 0o444
    assert "locked.py: read-only file; not fixed" in out.stderr
    assert other.read_text() == FIXED
    assert out.returncode == 1  # the unfixed finding is still reported
    assert "locked.py:3:1: SB101" in out.stdout and "internal error" not in out.stderr


def test_unreadable_folder_and_file_are_reported_and_the_run_goes_on(shared_tmp, run_cli):
    project = shared_tmp / "project"
    (project / "locked").mkdir(parents=True)
    (project / "locked" / "hidden.py").write_text(BUGGY)
    (project / "secret.py").write_text(BUGGY)
    (project / "open.py").write_text(BUGGY)
    for path in (project, project / "open.py"):
        path.chmod(0o777 if path.is_dir() else 0o666)  # the unprivileged run may fix what it can
    (project / "locked").chmod(0o000)
    (project / "secret.py").chmod(0o000)
    out = cli_as_unprivileged(run_cli, "check", "--fix", "project", cwd=shared_tmp)
    no_internal_error(out)
    assert "project/locked: skipped: cannot read folder: Permission denied" in out.stderr
    assert "project/secret.py: skipped: cannot read: Permission denied" in out.stderr
    assert (project / "open.py").read_text() == FIXED
    assert "Fixed 1 finding." in out.stdout and "(1 file checked)" in out.stdout


def test_symlink_loops_are_reported_and_the_run_goes_on(tmp_path, run_cli):
    (tmp_path / "self.py").symlink_to("self.py")
    (tmp_path / "ping").symlink_to("pong")
    (tmp_path / "pong").symlink_to("ping")
    (tmp_path / "dangling.py").symlink_to("gone.py")
    (tmp_path / "fine.py").write_text(BUGGY)
    out = run_cli("check", "--fix", ".", cwd=tmp_path)
    no_internal_error(out)
    for name in ("self.py", "ping", "pong"):
        assert f"{name}: skipped: symlink loop" in out.stderr, out.stderr
    assert "dangling.py: skipped: broken symlink (to gone.py)" in out.stderr
    assert (tmp_path / "fine.py").read_text() == FIXED
    # named on the command line
    out = run_cli("check", "self.py", "fine.py", cwd=tmp_path)
    assert "self.py: skipped: symlink loop" in out.stderr and out.returncode == 0, out.stderr


def test_invalid_toml_is_an_error_with_file_and_line(tmp_path, run_cli):
    (tmp_path / "m.py").write_text(BUGGY)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "m"\n\n[tool.sharpbits]\nignore = ["SB101"\n')
    out = run_cli("check", "--fix", ".", cwd=tmp_path)
    assert out.returncode == 2
    pyproject = (tmp_path / "pyproject.toml").resolve()
    assert out.stderr.startswith(f"sharpbits: error: {pyproject}:6:1: invalid TOML, so its [tool.sharpbits] "
                                 "settings cannot be read: "), out.stderr
    assert "internal error" not in out.stderr
    assert (tmp_path / "m.py").read_text() == BUGGY  # nothing was fixed under settings that were not read
    # a broken pyproject.toml that never names sharpbits cannot configure it: the check goes on with defaults
    (tmp_path / "pyproject.toml").write_text('[project\nname = "m"\n')
    out = run_cli("check", ".", cwd=tmp_path)
    assert out.returncode == 1 and "SB101" in out.stdout, out.stderr


def test_a_fifo_named_like_python_is_skipped_without_blocking(tmp_path, run_cli):
    os.mkfifo(tmp_path / "pipe.py")  # reading it would wait for a writer forever
    (tmp_path / "fine.py").write_text(BUGGY)
    out = run_cli("check", "--fix", "pipe.py", "fine.py", cwd=tmp_path)
    no_internal_error(out)
    assert "pipe.py: skipped: not a regular file" in out.stderr
    assert (tmp_path / "fine.py").read_text() == FIXED
