"""Round 16's engine classes that need more than one module: names bound by an import inside a function (a
test that does `from pkg.utils import GenerateRNG` in its body) resolve through the project index as module-level
imports do, and calling an object built from a class of another module runs that class's `__call__`. Each clean
case has its bug twin, found (run under JAX on CPU when written: the bug twins repeat or correlate numbers)."""

from pathlib import Path

import pytest

from tests.analysis.small_projects import findings_in_project, no_shared_index  # noqa: F401 (autouse fixture)


def _findings(tmp_path: Path, files: dict[str, str], target: str) -> list[tuple[str, int]]:
    return findings_in_project(tmp_path / target.removesuffix(".py"), {"utils/__init__.py": "", **files}, target)


GENERATOR = '''\
import jax


class GenerateRNG:
    def __init__(self, seed=0):
        self._rng = jax.random.PRNGKey(seed)

    def __next__(self):
        self._rng, key = jax.random.split(self._rng)
        return key

    @property
    def rng(self):
        return next(self)


class FixedRNG:
    def __init__(self, seed=0):
        self._rng = jax.random.PRNGKey(seed)

    @property
    def rng(self):
        return self._rng
'''

DRAW_TWICE = '''\
import jax


def test_attention():
    from {source} import {cls}

    g = {cls}()
    q = jax.random.normal(g.rng, (3,))
    k = jax.random.normal(g.rng, (3,))
    return q + k
'''


@pytest.mark.parametrize("source", ["pkg.utils", ".utils"])
def test_a_class_imported_inside_the_function_is_resolved(tmp_path: Path, source: str) -> None:
    """easydel's kernel tests: `from easydel.utils import GenerateRNG` in the test's body, and `_rng.rng` splits a
    fresh key on every read: q and k have keys of their own (no finding). `FixedRNG.rng` returns one key: found."""
    files = {"utils/__init__.py": "from .generators import GenerateRNG, FixedRNG\n", "utils/generators.py": GENERATOR,
             "fresh.py": DRAW_TWICE.format(source=source, cls="GenerateRNG"),
             "fixed.py": DRAW_TWICE.format(source=source, cls="FixedRNG")}
    assert _findings(tmp_path, files, "fresh.py") == []
    assert ("prng-key-reuse", 9) in _findings(tmp_path, files, "fixed.py")


HELPERS = '''\
import jax.numpy as jnp


def noise(key, n):
    from jax import random
    return random.normal(key, (n,))


def zeros(key, n):
    return jnp.zeros((n,))
'''

CALL_HELPER = '''\
def run():
    import jax
    from .helpers import {helper}

    key = jax.random.PRNGKey(0)
    a = {helper}(key, 3)
    b = jax.random.normal(key, (3,))
    return a + b
'''


def test_a_helper_imported_inside_the_function_is_asked(tmp_path: Path) -> None:
    """`noise` draws from its key (the later draw repeats its numbers: found); `zeros` never reads it (no finding)."""
    files = {"helpers.py": HELPERS, "a.py": CALL_HELPER.format(helper="noise"), "b.py": CALL_HELPER.format(helper="zeros")}
    assert ("prng-key-reuse", 7) in _findings(tmp_path, files, "a.py")
    assert _findings(tmp_path, files, "b.py") == []


LAYERS = '''\
import jax
import jax.numpy as jnp


class Attention:
    def __init__(self, *, key):
        self.w = jax.random.normal(key, (4, 4))

    def __call__(self, x, *, key=None):
        return jnp.tanh(self.w @ x)


class Dropout:
    def __init__(self, rate):
        self.rate = rate

    def __call__(self, x, *, key):
        keep = jax.random.bernoulli(key, 1.0 - self.rate, x.shape)
        return jnp.where(keep, x, 0.0)
'''

BLOCK = '''\
import jax
from .layers import Attention, Dropout


class Block:
    def __init__(self, *, key):
        self.inner = {make}

    def __call__(self, x, *, key):
        y = self.inner(x, key=key)
        return y + jax.random.normal(key, x.shape)


def forward(x, key):
    inner = {make}
    y = inner(x, key=key)
    return y + jax.random.normal(key, x.shape)
'''


def test_calling_an_object_of_another_modules_class_runs_its_call(tmp_path: Path) -> None:
    """foundax's DeepONet: `self.attn(x, key=key)` with `self.attn = AttentionBlock(...)`, whose `__call__` never
    reads its key: the later draw is the key's first (no finding). A `Dropout` draws its mask from it: found."""
    files = {"layers.py": LAYERS, "attn.py": BLOCK.format(make="Attention(key=jax.random.PRNGKey(1))"),
             "drop.py": BLOCK.format(make="Dropout(0.5)")}
    assert _findings(tmp_path, files, "attn.py") == []
    assert [f for f in _findings(tmp_path, files, "drop.py") if f[0] == "prng-key-reuse"] == [
        ("prng-key-reuse", 11), ("prng-key-reuse", 17)]
