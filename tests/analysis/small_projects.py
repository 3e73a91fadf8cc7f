"""Small projects written to disk for tests that need more than one module: each file of a package `pkg`, read by
a fresh project index, and one module analysed through it."""

from pathlib import Path

import pytest
from sharpbits.analysis import project_index
from sharpbits.analysis.engine import analyze
from sharpbits.analysis.project_index import ProjectIndex
from sharpbits.findings import Finding


@pytest.fixture(autouse=True)
def no_shared_index():
    """Imported by a test module, it runs around each of its tests: no index is left shared between them."""
    project_index._shared = None
    yield
    project_index._shared = None


def findings_in_folder(folder: Path, files: dict[str, str], target: str) -> list[Finding]:
    """What the analysis of `folder/<target>` reports, with `files` (paths inside `folder`) written there and every
    module under `folder` read by a fresh project index."""
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    index = ProjectIndex()
    for path in folder.rglob("*.py"):
        index.update(path, path.read_text())
    text = (folder / target).read_text()
    return analyze(text, str(folder / target), project=index).findings


def findings_in_project(root: Path, files: dict[str, str], target: str) -> list[tuple[str, int]]:
    """(rule, line) of what the analysis of `pkg/<target>` reports, with `files` (paths inside `pkg`, subpackages
    too) written under `root` and indexed."""
    found = findings_in_folder(root / "pkg", {"__init__.py": "", **files}, target)
    return [(f.rule, f.line) for f in found]
