"""The project index's answers for round 12's key-reuse classes (issue 22): a flax layer whose `init` draws
nothing, an init run only under `jax.eval_shape`, chex assertions, a module imported beside a script, and a
method of an object built from a class the index can see."""

from __future__ import annotations

from pathlib import Path

import pytest
from sharpbits.analysis import project_index
from sharpbits.analysis.engine import analyze
from sharpbits.analysis.project_index import ProjectIndex

# MaxText's layout: `inference/` is no package; tests import `inference.paged_attention` because they run from
# the folder above it (a script's folder, or the rootdir, is on sys.path).
PAGED = '''
import jax.numpy as jnp
from flax import linen as nn
from inference import page_manager
from inference import kernels


class PagedAttentionOp(nn.Module):
    num_pages: int

    def init_or_get_kv_pages(self):
        if self.has_variable("cache", "key_pages"):
            pages = self.variable("cache", "key_pages")
        else:
            pages = self.variable("cache", "key_pages", nn.with_logical_partitioning(jnp.zeros, ("p",)),
                                  (self.num_pages,))
        return pages

    @nn.compact
    def __call__(self, query, state):
        pages = self.init_or_get_kv_pages()
        pages.value = pages.value.at[0].set(query.sum())
        new = page_manager.PageState(lengths=state.lengths + 1)
        return kernels.attend(query, pages.value), new


class WithScale(PagedAttentionOp):
    def __call__(self, query, state):
        scale = self.param("scale", nn.initializers.ones, (1,))
        return super().__call__(query * scale, state)


class Learned(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


class LearnedScale(PagedAttentionOp):
    def __call__(self, query, state):
        scale = self.param("scale", nn.initializers.normal(), (1,))
        return super().__call__(query * scale, state)
'''
PAGE_MANAGER = '''
from flax import struct


@struct.dataclass
class PageState:
    lengths: object
'''
KERNELS = '''
import jax.numpy as jnp


def attend(q, pages):
    return q * pages.sum()
'''
LAYERS_KERNELS = '''
from flax import linen as nn


def attend(q, pages):
    return nn.Dense(3)(q)
'''
UTILS = '''
import functools
import jax
import chex


def init_state(model, rng):
    return model.init(rng)


def abstract_state(model, rng):
    init = functools.partial(init_state, model, rng)
    return jax.eval_shape(init), jax.jit(init).eval_shape()


def real_state(model, rng):
    init = functools.partial(init_state, model, rng)
    return init()


def checked_split(key, num):
    chex.assert_shape(key, (2,))
    return jax.random.split(key, num)


class Schedule:
    def init(self, key):
        return 0

    def draw(self, key):
        return jax.random.uniform(key)
'''
TEST = '''
import jax
from inference.paged_attention import LearnedScale, PagedAttentionOp, WithScale
import utils


class PagedAttentionTest:
    def setUp(self):
        self.rng = jax.random.key(0)
        self.op = PagedAttentionOp(num_pages=4)

    def test_cache_only(self, state):
        q = jax.random.normal(self.rng, (4,))
        variables = self.op.init(self.rng, q, state)
        scaled = WithScale(num_pages=4).init(self.rng, q, state)
        return variables, scaled

    def test_learned(self, state):
        # q is read for its values too: a sample input read only by the init would meet nothing it draws
        q = jax.random.normal(self.rng, (4,))
        return LearnedScale(num_pages=4).init(self.rng, q, state), q.sum()


def test_abstract(model):
    rng = jax.random.key(0)
    rng1, rng2 = jax.random.split(rng)
    shapes = utils.abstract_state(model, rng)
    keys = utils.checked_split(rng1, 3)
    return shapes, keys, utils.real_state(model, rng1)


def test_schedule():
    key = jax.random.key(0)
    ignoring = utils.Schedule()
    state = ignoring.init(key)
    rng, sub = jax.random.split(key)
    drawing = utils.Schedule()
    first = drawing.draw(sub)
    return state, rng, first, drawing.draw(sub)
'''


@pytest.fixture(autouse=True)
def _no_shared_index():
    project_index._shared = None
    yield
    project_index._shared = None


def _maxtext(tmp_path: Path, kernels: str = KERNELS) -> tuple[ProjectIndex, Path]:
    root = tmp_path / "MaxText"
    (root / "inference").mkdir(parents=True)
    (root / "tests" / "inference").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "inference" / "paged_attention.py").write_text(PAGED)
    (root / "inference" / "page_manager.py").write_text(PAGE_MANAGER)
    (root / "inference" / "kernels.py").write_text(kernels)
    (root / "utils.py").write_text(UTILS)
    test = root / "tests" / "inference" / "paged_attention_test.py"
    test.write_text(TEST)
    index = ProjectIndex(installed=False)
    for path in sorted(root.rglob("*.py")):
        index.update(path, path.read_text(), lazy=True)
    return index, test


def test_a_layer_with_only_cache_variables_draws_nothing(tmp_path):
    index, test = _maxtext(tmp_path)
    view = index.view(test)
    assert view.drawless_layer("inference.paged_attention.PagedAttentionOp")  # found beside the test
    assert view.drawless_layer("inference.paged_attention.WithScale")  # a constant initialiser: still nothing
    assert not view.drawless_layer("inference.paged_attention.LearnedScale")  # a normal initialiser draws
    assert not view.drawless_layer("inference.paged_attention.Learned")  # a submodule with parameters


def test_a_layer_calling_a_function_that_may_build_layers_is_not_known_to_draw_nothing(tmp_path):
    index, test = _maxtext(tmp_path, LAYERS_KERNELS)
    assert not index.view(test).drawless_layer("inference.paged_attention.PagedAttentionOp")


def test_findings_through_the_index(tmp_path):
    index, test = _maxtext(tmp_path)
    found = analyze(TEST, str(test), project=index).findings
    lines = TEST.splitlines()
    # only the layer whose init draws a parameter, and the schedule's second draw from `sub`
    assert [lines[f.line - 1].strip() for f in found] == [
        "return LearnedScale(num_pages=4).init(self.rng, q, state), q.sum()",
        "return shapes, keys, utils.real_state(model, rng1)",
        "return state, rng, first, drawing.draw(sub)",
    ]
    # without the index, the calls it answers are unknown
    plain = analyze(TEST, str(test)).findings
    assert len(plain) > len(found)


def test_the_module_found_beside_a_file_is_looked_for_again_when_a_file_appears(tmp_path):
    index, test = _maxtext(tmp_path)
    assert index.beside("inference.missing.f", str(test)) is None
    extra = tmp_path / "MaxText" / "inference" / "missing.py"
    extra.write_text("def f(key):\n    return key\n")
    index.update(extra, extra.read_text(), lazy=True)
    assert index.beside("inference.missing.f", str(test)) == "missing.f"
