"""Round 13 (issue 22) classes in the project index: a split's pieces are followed (splitting alone draws no
number), and ahead-of-time lowering (`jax.jit(f).lower(..., key)`, `jax.make_jaxpr(f)(..., key)`) draws nothing."""

from pathlib import Path

import pytest
from sharpbits.analysis import project_index
from sharpbits.analysis.engine import analyze
from sharpbits.analysis.project_index import ProjectIndex, summarise

STEPS = '''\
import jax


def cast(values, key):
    del key
    return values


def dither(values, key):
    return values + jax.random.normal(key, values.shape)


def compress(values, key):
    for _ in range(3):
        key, subkey = jax.random.split(key)
        values = cast(values, subkey)
    return values


def compress_drawing(values, key):
    key, subkey = jax.random.split(key)
    return dither(values, subkey)


def next_key(key):
    key, subkey = jax.random.split(key)
    return key, subkey


def layer_keys(key, sizes):
    keys = jax.random.split(key, len(sizes))
    return [jax.random.normal(k, (n,)) for k, n in zip(keys, sizes)]


def first_of(key):
    keys = jax.random.split(key, 3)
    return jax.random.normal(keys[0], ())


def shown(key):
    key, subkey = jax.random.split(key)
    print(f"{subkey}", subkey.shape)
    return None


def compiled(step, x, key):
    return jax.jit(step).lower(x, key).compile()


def traced(step, x, key):
    return jax.make_jaxpr(step)(x, key)
'''

MAIN = '''\
import jax
from pkg.steps import compress, compress_drawing, compiled


def step(x, key):
    return x + jax.random.normal(key, x.shape)


def run(x):
    key = jax.random.PRNGKey(0)
    x = compress(x, key)
    fast = compiled(step, x, key)
    key, subkey = jax.random.split(key)
    return fast(x, subkey)


def run_drawing(x):
    key = jax.random.PRNGKey(0)
    x = compress_drawing(x, key)
    key, subkey = jax.random.split(key)
    return x, subkey
'''


@pytest.fixture(autouse=True)
def _no_shared_index():
    project_index._shared = None
    yield
    project_index._shared = None


def _index(tmp_path: Path) -> tuple[ProjectIndex, Path]:
    pkg = tmp_path / "proj" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "steps.py").write_text(STEPS)
    (pkg / "main.py").write_text(MAIN)
    index = ProjectIndex()
    for path in pkg.glob("*.py"):
        index.update(path, path.read_text())
    return index, pkg


def test_a_split_consumes_its_key_only_as_surely_as_its_pieces_are_drawn(tmp_path):
    index, _ = _index(tmp_path)
    answers = {}
    for name in ("compress", "compress_drawing", "next_key", "layer_keys", "first_of", "shown", "compiled", "traced"):
        fn = index.function(f"pkg.steps.{name}")
        assert fn is not None, name
        answers[name] = index.consumption(fn, "key")
    assert answers == {
        "compress": None,  # every piece goes to `cast`, which deletes it
        "compress_drawing": "always",  # the subkey is drawn from by `dither`
        "next_key": "always",  # the pieces are returned: the caller draws from them
        "layer_keys": "always",  # the pieces move on through zip into a comprehension's draws
        "first_of": "always",  # an element of the pieces is drawn from
        "shown": None,  # a piece only formatted and measured
        "compiled": None, "traced": None,  # ahead-of-time lowering traces on abstract values
    }


def test_summaries_of_lowering_say_the_key_is_ignored():
    summary = summarise(STEPS, "pkg.steps", "steps.py")
    assert summary.functions["compiled"].param("key").uses == {"ignore"}
    assert summary.functions["traced"].param("key").uses == {"ignore"}


def test_key_reuse_through_a_split_whose_pieces_are_drawn_and_not_otherwise(tmp_path):
    index, pkg = _index(tmp_path)
    found = analyze(MAIN, str(pkg / "main.py"), project=index).findings
    assert [(f.rule, f.line) for f in found] == [("prng-key-reuse", 20)]


IN_MODULE = '''\
import jax


def place(objects, key):
    key, subkey = jax.random.split(key)
    first = objects[0].place_on_grid(key=subkey)
    key, subkey = jax.random.split(key)
    return first, objects[1].place_on_grid(key=subkey)


def step_all(xs, key):
    keys = jax.random.split(key, 4)

    def one(x, k):
        return x + jax.random.normal(k, x.shape)

    stepped = jax.vmap(one)
    return stepped(xs, keys)


def setup(objects, xs):
    key = jax.random.PRNGKey(0)
    placed = place(objects, key)
    applied = place(objects, key)
    return placed, applied


def run(xs):
    key = jax.random.PRNGKey(0)
    ys = step_all(xs, key)
    return ys + jax.random.normal(key, xs.shape)
'''


def test_pieces_handed_to_methods_of_unknown_objects_may_draw_and_to_local_functions_surely():
    # place(): pieces go only to `obj.place_on_grid`, a method of an object of unknown class: a maybe, so two
    # such calls on one key stay silent (as two calls we cannot see do); step_all(): pieces go to vmap(one), a
    # local function, so the split counts as surely as before and the later draw is a reuse
    found = analyze(IN_MODULE, "case.py").findings
    assert [(f.rule, f.line) for f in found] == [("prng-key-reuse", 31)]
