import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Every property test in the suite draws the same examples on every run (and replays no local example database),
# so a failure in CI reproduces and a pass means what the last one meant. The long random run is bench/fuzz.py.
settings.register_profile("deterministic", derandomize=True, database=None, deadline=None)
settings.load_profile("deterministic")

# The CLI's result cache: one fresh folder for this test session (never the user's own cache).
os.environ["SHARPBITS_CACHE_DIR"] = tempfile.mkdtemp(prefix="sharpbits-test-cache-")

ROOT = Path(__file__).resolve().parent.parent
# The console script the README tells users to run; tests go through it, not through imports.
SHARPBITS = str(Path(sys.executable).with_name("sharpbits"))


@pytest.fixture
def run_cli():
    import subprocess

    def run(*args: str, cwd: str | os.PathLike | None = None, input: str | None = None):
        return subprocess.run([SHARPBITS, *args], capture_output=True, text=True, cwd=cwd, input=input, timeout=120)

    return run
