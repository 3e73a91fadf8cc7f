"""The project index summarises a module's functions when first asked for (`LazyFunctions`), each from its own
lines, and takes a file's summary from the tree its analysis parsed (`ProjectIndex.adopt`): the summaries must be
those of summarising every function up front, whatever order they are asked in."""

import ast
import pickle
import random
from pathlib import Path

from sharpbits.analysis.engine import Selection, analyze
from sharpbits.analysis.project_index import (
    FunctionSummary,
    LazyFunctions,
    ParamSummary,
    ProjectIndex,
    summarise,
)

MODULE = '''\
import jax
from jax import lax


class Sampler:
    def __init__(self, key):
        self.key = key

    @property
    def next(self):
        self.key, sub = jax.random.split(self.key)
        return sub

    def draw(self, key, shape):
        return jax.random.normal(key, shape)


@jax.jit
@(lambda f:
  f)
def step(key, n):
    def left(k): return jax.random.normal(k)
    def right(k): return k
    return lax.cond(n > 0, left, right, key)


def step(key, n):  # defined again: the last one is kept, the first one's nested summaries stay
    def left(k): return k
    def other(k): return jax.random.uniform(k)
    return lax.cond(n > 0, left, other, key)


async def noted(key):
    """a docstring
  less indented than the code"""
    return (jax.random.normal(
key))


def keep(key): x = key; return x
'''


def _eager_shape(text: str) -> tuple[str, list[str]]:
    summary = summarise(text, "pkg.mod", "mod.py")
    return summary.shape(), list(summary.functions)  # (iterating summarises every function, in the module's order)


def test_functions_are_summarised_when_asked_and_alike_in_any_order() -> None:
    shape, order = _eager_shape(MODULE)
    assert order == ["Sampler.__init__", "Sampler.next", "Sampler.draw", "step", "noted", "keep",
                     "step.<locals>.left", "step.<locals>.right", "step.<locals>.other"]
    names = ["step.<locals>.other", "keep", "Sampler.draw", "step", "noted", "Sampler.next", "Sampler.__init__"]
    for seed in range(5):
        summary = summarise(MODULE, "pkg.mod", "mod.py")
        functions = summary.functions
        assert isinstance(functions, LazyFunctions)
        asked = random.Random(seed).sample(names, 3)
        for name in asked:
            assert functions[name].qualname == name
        # only what was asked (and, for a nested name, its owner) is summarised so far
        assert set(functions._done) - {n for n in functions._done if "<locals>" in n} == {
            n.split(".<locals>.")[0] for n in asked}
        assert summary.shape() == shape
        assert list(functions) == order


def test_a_function_parsed_again_from_its_lines_matches_the_module_tree() -> None:
    for text in (MODULE, MODULE.replace("\n", "\r\n")):
        summary = summarise(text, "pkg.mod", "mod.py")
        assert _key(summary.functions["noted"]).direct == "always"
        assert _key(summary.functions["Sampler.draw"]).direct == "always"
        assert _key(summary.functions["keep"]).uses == {"return"}
        assert summary.shape() == _eager_shape(text)[0]


def test_a_summary_pickles_whole() -> None:
    summary = summarise(MODULE, "pkg.mod", "mod.py")
    summary.functions["keep"]
    copy = pickle.loads(pickle.dumps(summary))
    assert copy.shape() == summary.shape()
    assert list(copy.functions) == list(summary.functions)


def test_the_summary_made_from_the_analysis_parse_is_the_one_a_caller_gets(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    mod, main = package / "mod.py", package / "main.py"
    caller = "import jax\nfrom pkg.mod import keep\n\ndef f(key):\n    keep(key)\n    return jax.random.normal(key)\n"
    for path, text in ((mod, MODULE), (main, caller)):
        path.write_text(text)
    index = ProjectIndex()
    for path in (mod, main):
        index.update(path, path.read_text(), lazy=True)
    analyze(MODULE, str(mod), Selection(), project=index)  # its parse summarises it, aside
    assert "pkg.mod" in index._adopted and index.parsed == 0
    found = analyze(caller, str(main), Selection(), project=index)
    taken = index.module("pkg.mod")
    assert taken is not None and "pkg.mod" not in index._adopted
    assert taken.shape() == _eager_shape_of(MODULE, "pkg.mod", str(mod.absolute()))
    fresh = ProjectIndex()
    for path in (mod, main):
        fresh.update(path, path.read_text(), lazy=True)
    assert [f.code for f in analyze(caller, str(main), Selection(), project=fresh).findings] == [
        f.code for f in found.findings]


def test_an_adopted_summary_of_an_older_text_is_not_taken(tmp_path: Path) -> None:
    mod = tmp_path / "mod.py"
    mod.write_text(MODULE)
    index = ProjectIndex()
    index.update(mod, MODULE, lazy=True)
    index.adopt(mod, MODULE, ast.parse(MODULE))
    changed = MODULE.replace("def keep(key): x = key; return x", "def keep(key): return jax.random.normal(key)")
    index.update(mod, changed, lazy=True)
    module = index.module("mod")
    assert module is not None and _key(module.functions["keep"]).direct == "always"


def _eager_shape_of(text: str, name: str, path: str) -> str:
    return summarise(text, name, path).shape()


def _key(fn: FunctionSummary) -> ParamSummary:
    found = fn.param("key")
    assert found is not None
    return found
