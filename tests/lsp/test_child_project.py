"""A document analysed in child processes (its analysis overran the in-thread limit: lsp/analysis_process.py) has
the project index too: a finding that depends on another module of the project (a key handed to a function there
that draws from it) is the one `sharpbits check` reports, and the other module's text is the editor's while it is
open (unsaved). A rule made to spin (engine.STALL_RULE, fault injection) sends the document to the children;
prng-key-reuse, the rule that asks the index, runs there. Over stdio."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sharpbits.analysis.engine import STALL_MARK

from .raw_client import RawClient

MAIN = """import jax
from pkg.helpers import use


def f(key):
    a = use(key)
    b = jax.random.normal(key, ())
    return a, b
"""
KEEPS = "def use(key):\n    del key\n    return 0\n"
DRAWS = "import jax\n\n\ndef use(key):\n    return jax.random.normal(key, ())\n"
STALLED = "unblocked-timing"  # finds nothing here: only the notice says it was stopped


@pytest.fixture
def stalled(tmp_path, monkeypatch):
    monkeypatch.setenv("SHARPBITS_DEBUG_STALL_RULE", STALLED)
    client = RawClient(cwd=tmp_path)
    yield client
    client.close()


def check(path: Path) -> list[tuple[str, int, int, str]]:
    """`sharpbits check` of one file (its project found from it, as the CLI does), without fault injection."""
    env = {k: v for k, v in os.environ.items() if k != "SHARPBITS_DEBUG_STALL_RULE"}
    out = subprocess.run([str(Path(sys.executable).with_name("sharpbits")), "check", "--format", "json",
                          "--no-cache", str(path)], capture_output=True, text=True, env=env, cwd=path.parent,
                         timeout=120)
    return sorted((f["code"], f["line"] - 1, f["column"] - 1, f["message"]) for f in json.loads(out.stdout))


def test_a_document_analysed_in_a_child_process_sees_the_project(stalled, tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    helpers = pkg / "helpers.py"
    helpers.write_text(DRAWS)  # on disk `use` draws from its key; in the editor (unsaved) it dels it
    main = pkg / "main.py"
    main.write_text(MAIN + STALL_MARK + "\n")

    stalled.initialize({"analysisBudgetMs": 1500})
    stalled.open(helpers.as_uri(), KEEPS)
    stalled.published(helpers.as_uri(), 1, timeout=60)
    stalled.open(main.as_uri(), MAIN + STALL_MARK + "\n")
    shown = stalled.published(main.as_uri(), 1, timeout=120)
    (notice,) = [d for d in shown if d["code"] == "stopped"]
    assert f"rule {STALLED} did not finish" in notice["message"]  # so the rest ran in child processes
    found = sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"], d["message"])
                   for d in shown if d["code"] != "stopped")
    # `use` dels the key: the draw is its first use (unknown, or as on disk, `use` may consume it: SB201)
    assert found == []
    assert check(main) == [("SB201", 6, 26, check(main)[0][3])]  # the file on disk draws: the CLI says so

    helpers.write_text(KEEPS)  # what the editor showed, saved
    assert found == check(main)
    stalled.change(main.as_uri(), MAIN + "\n" + STALL_MARK + "\n", 2)
    assert [d["code"] for d in stalled.published(main.as_uri(), 2, timeout=120)] == ["stopped"]

    stalled.change(helpers.as_uri(), DRAWS, 2)  # the editor's text draws again: so does the next child's
    stalled.published(helpers.as_uri(), 2, timeout=60)
    stalled.change(main.as_uri(), MAIN + STALL_MARK + "\n", 3)
    shown = stalled.published(main.as_uri(), 3, timeout=120)
    found = sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"], d["message"])
                   for d in shown if d["code"] != "stopped")
    helpers.write_text(DRAWS)
    assert [f[:2] for f in found] == [("SB201", 6)] and found == check(main)
    stalled.still_serving()
