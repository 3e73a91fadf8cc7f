"""Issue 22's remaining classes that need more than one module (a labelled pair cannot be one file): each test
builds a small project, analyses its file through the project index, and checks the bug twin is still found.
Every project here was run under JAX on CPU when written: the bug twins raise or repeat numbers, the clean ones
do not (the expectations in the docstrings)."""

from pathlib import Path

from sharpbits.analysis.engine import analyze

from tests.analysis.small_projects import findings_in_project, no_shared_index  # noqa: F401 (autouse fixture)


def _findings(tmp_path: Path, files: dict[str, str], target: str) -> list[tuple[str, int]]:
    return findings_in_project(tmp_path / "proj", files, target)


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


MODULES = 'import jax\n\n\n@jax.tree_util.register_pytree_node_class\nclass Module:\n    def compress(self, values, key):\n        raise NotImplementedError\n\n    def tree_flatten(self):\n        return (), None\n\n    @classmethod\n    def tree_unflatten(cls, aux, children):\n        return cls()\n\n\n@jax.tree_util.register_pytree_node_class\nclass Cast(Module):\n    def compress(self, values, key):\n        del key\n        return values.astype("float32")\n'

RECORDER = 'from typing import Self\n\nimport jax\n\nfrom pkg.modules import Module\n\n\nclass Recorder:\n    def __init__(self, modules):\n        self.modules = modules\n\n    def init_state(self, n) -> tuple[Self, int]:\n        return self, n\n\n    def compress(self, values, key):\n        def helper(m, values, key):\n            if isinstance(m, Module):\n                return m.compress(values, key=key)\n            raise TypeError(m)\n\n        def dummy(m, values, key):\n            del key\n            return values\n\n        for m in self.modules:\n            key, sub = jax.random.split(key)\n            values = jax.lax.cond(values.sum() < 0, dummy, helper, m, values, sub)\n        return values\n\n\nclass Config:\n    recorder: Recorder | None = None\n'

USE = 'import jax\nimport jax.numpy as jnp\n\nfrom pkg.modules import Cast\nfrom pkg.recorder import Config, Recorder\n\n\ndef step(config: Config, values, key):\n    return config.recorder.compress(values, key)\n\n\ndef run():\n    recorder = Recorder([Cast()])\n    rec, _ = recorder.init_state(3)\n    key = jax.random.PRNGKey(0)\n    values = jnp.arange(3.0)\n    out = rec.compress(values, key)\n    config = Config()\n    config.recorder = rec\n    out = step(config, out, key)\n    key, sub = jax.random.split(key)\n    return out, jax.random.normal(sub, (3,))\n\n\nif __name__ == "__main__":\n    print(run())\n'

NOISY = 'import jax\n\nfrom pkg.modules import Module\n\n\n@jax.tree_util.register_pytree_node_class\nclass Noisy(Module):\n    def compress(self, values, key):\n        return values + jax.random.normal(key, values.shape)\n'

NOISY_USE = 'import jax\n\nfrom pkg.noisy import Noisy\nfrom pkg.recorder import Recorder\n\n\ndef run():\n    rec, _ = Recorder([Noisy()]).init_state(3)\n    key = jax.random.PRNGKey(0)\n    values = jax.numpy.zeros(3)\n    noise = rec.compress(values, key)\n    key, sub = jax.random.split(key)\n    again = jax.random.normal(sub, (3,))\n    return noise, again\n\n\nif __name__ == "__main__":\n    noise, again = run()\n    print(noise, again, "same:", bool((noise == again).all()))\n'


def test_a_method_every_project_implementation_of_which_draws_nothing(tmp_path):
    """fdtdx's Recorder: `rec, _ = recorder.init_state(...)` (`-> tuple[Self, int]`), then `rec.compress(values,
    key)` and `config.recorder.compress(values, key)` (annotated parameter and field); compress splits the key per
    module and hands the piece through `lax.cond` to a helper that calls `m.compress(..., key=key)` under
    `isinstance(m, Module)`, and every `Module.compress` of the project does `del key`. Nothing is drawn, so the
    split that follows is the key's first use (run: no repeated numbers)."""
    files = {"modules.py": MODULES, "recorder.py": RECORDER, "use.py": USE}
    assert _findings(tmp_path, files, "use.py") == []


def test_one_implementation_that_draws_anywhere_in_the_project_keeps_the_finding(tmp_path):
    """The same project with a `Noisy(Module)` in another file, whose compress draws from its key: any
    `Module` may be that one, so the split after the calls may repeat the noise (run with `Noisy`: the
    caller's draw equals the noise compress added)."""
    files = {"modules.py": MODULES, "recorder.py": RECORDER, "use.py": USE, "noisy.py": NOISY,
             "noisy_use.py": NOISY_USE}
    assert _findings(tmp_path / "a", files, "use.py") == [("prng-key-reuse", 21)]
    assert _findings(tmp_path / "b", files, "noisy_use.py") == [("prng-key-reuse", 12)]
