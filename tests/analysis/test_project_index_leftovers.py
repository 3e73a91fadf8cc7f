"""Issue 22's remaining classes that need more than one module (a labelled pair cannot be one file): each test
builds a small project, analyses its file through the project index, and checks the bug twin is still found.
Every project here was run under JAX on CPU when written: the bug twins raise or repeat numbers, the clean ones
do not (the expectations in the docstrings)."""

from pathlib import Path

import pytest
from sharpbits.analysis import project_index
from sharpbits.analysis.engine import analyze
from sharpbits.analysis.project_index import ProjectIndex


@pytest.fixture(autouse=True)
def _no_shared_index():
    project_index._shared = None
    yield
    project_index._shared = None


def _findings(tmp_path: Path, files: dict[str, str], target: str) -> list[tuple[str, int]]:
    pkg = tmp_path / "proj" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for name, text in files.items():
        (pkg / name).write_text(text)
    index = ProjectIndex()
    for path in pkg.glob("*.py"):
        index.update(path, path.read_text())
    text = (pkg / target).read_text()
    return [(f.rule, f.line) for f in analyze(text, str(pkg / target), project=index).findings]


PAIR = '''\
import jax


@jax.tree_util.register_pytree_node_class
class Pair:
    def __init__(self, hi, lo):
        self.hi, self.lo = hi, lo

    def __setitem__(self, i, value):
        self.hi = self.hi.at[i].set(value.hi)
        self.lo = self.lo.at[i].set(value.lo)

    def tree_flatten(self):
        return (self.hi, self.lo), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


class Quad(Pair):
    pass
'''

USE_PAIR = '''\
import jax

from pkg.dd import Pair, Quad
from pkg import dd


@jax.jit
def refine(g: Pair, new: Pair, i: int):
    g[i] = new
    return g


@jax.jit
def refine_quoted(g: "dd.Quad", new, i: int):
    g[i] = new
    return g


@jax.jit
def refine_array(g: jax.Array, new: jax.Array, i: int):
    g[i] = new
    return g
'''


def test_item_assignment_defined_by_a_class_of_another_module(tmp_path):
    """jorbit's DoubleDouble: `g[i] = v` on an object whose class (in another module, or a subclass of it)
    defines `__setitem__` runs that method (it rebinds its arrays with `.at[].set`: no error under jit); on a
    `jax.Array` the same line raises TypeError."""
    assert _findings(tmp_path, {"dd.py": PAIR, "use.py": USE_PAIR}, "use.py") == [("in-place-update", 21)]


def test_without_the_index_the_annotation_is_unknown_and_nothing_changes(tmp_path):
    found = analyze(USE_PAIR, str(tmp_path / "use.py")).findings
    assert ("in-place-update", 21) in [(f.rule, f.line) for f in found]
