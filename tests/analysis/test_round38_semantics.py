"""Round 38's classes (first contact on 3ad3002) at their edges: parameters annotated as dtypes, lists of objects
handed to jit, parameters past a vmap's `in_axes`, code after `exit()`, and a reproducibility check written as
one `assert` comparison. Each case states what JAX does; the labelled pairs in tests/corpus/labelled/ run the
main cases under JAX."""

import pytest
from sharpbits.analysis.engine import analyze
from sharpbits.analysis.incremental import IncrementalAnalysis

HEAD = "import sys\nimport jax\nimport jax.numpy as jnp\nfrom typing import Optional\n\n\n"


def _rules(text: str) -> list[tuple[int, str]]:
    return [(f.line - HEAD.count("\n"), f.rule) for f in analyze(HEAD + text, "m.py").findings
            if f.severity in ("warning", "error")]


@pytest.mark.parametrize("annotation, statics, expected", [
    # jit cannot take a dtype argument (a call passing one raises TypeError before tracing): the `or` sees only
    # the default, and the parameter itself is the defect: reported as such
    ("jnp.dtype | None", "", "annotated as a dtype but is not static"),
    ("Optional[jnp.dtype]", "", "annotated as a dtype but is not static"),
    ("jax.typing.DTypeLike", "", "annotated as a dtype but is not static"),
    ("jnp.dtype | None", ", static_argnames='out'", None),  # static: a Python test of a compile-time value
    ("jnp.ndarray | None", "", "`or` on a traced value"),  # an array, traced: `or` asks a tracer
    ("float | None", "", "`or` on a traced value"),  # a Python float passed to jit is traced too
])
def test_dtype_annotated_parameter_or_default(annotation, statics, expected):
    text = (f"from functools import partial\n\n\n@partial(jax.jit{statics})\n"
            f"def f(g, out: {annotation} = None):\n    out = out or g\n    return g\n")
    messages = [f.message for f in analyze(HEAD + text, "m.py").findings if f.rule == "traced-control-flow"]
    assert (messages[0] if messages else None) is None if expected is None else expected in messages[0]


def test_dtype_parameter_rebound_before_its_test_is_not_the_argument():
    text = ("@jax.jit\ndef f(g, out: jnp.dtype | None = None):\n    out = None\n    out = out or g.dtype\n"
            "    return g.astype(out)\n")
    assert _rules(text) == []


ELEMENTS = """@jax.jit
def step(particles, dt):
    if particles:
        USE
    return particles
"""


@pytest.mark.parametrize("use, reported", [
    ("total = [s.positions() for s in particles]", False),  # a method no JAX array has: a list of objects
    ("particles[0].update_position()", True),  # a constant index: not the loop's element read (not asked)
    ("total = [s.sum() for s in particles]", True),  # rows of an array have `.sum()`: still an array
    ("total = [s._private() for s in particles]", True),  # private names are not known: unknown is an array here
])
def test_elements_with_attributes_no_array_has(use, reported):
    assert bool(_rules(ELEMENTS.replace("USE", use))) is reported


def test_indexed_element_method_makes_a_list():
    text = ("@jax.jit\ndef step(particles, dt):\n    for i in range(2):\n"
            "        particles[i] = particles[i] * dt\n        particles[i].update_position()\n    return particles\n")
    assert _rules(text) == []


@pytest.mark.parametrize("in_axes, reported", [
    ("(0, None)", False),  # two positional arguments exactly: `clip` keeps its default
    ("(0, None, 0)", True),  # `clip` mapped: a batched tracer
    ("(0, None, None)", False),  # passed unbatched: whatever the caller passes
    ("0", True),  # every argument mapped
])
def test_vmap_parameter_past_in_axes(in_axes, reported):
    text = (f"def value(x, field, clip=None):\n    if clip:\n        return x\n    return x * field\n\n\n"
            f"value_vec = jax.vmap(value, in_axes={in_axes})\n")
    assert bool(_rules(text)) is reported


@pytest.mark.parametrize("stop, reported", [
    ("exit()", False),
    ("quit()", False),
    ("sys.exit(1)", False),
    ("print('done')", True),
    ("exit", True),  # not called: nothing happens
])
def test_code_after_exit_never_runs(stop, reported):
    text = (f"def demo():\n    key = jax.random.PRNGKey(0)\n    a = jax.random.normal(key, (3,))\n    {stop}\n"
            "    return jax.random.uniform(key, (3,)) + a\n")
    assert bool(_rules(text)) is reported


def test_exit_shadowed_by_an_import_is_not_the_builtin():
    text = ("from mylib import exit\n\n\ndef demo():\n    key = jax.random.PRNGKey(0)\n"
            "    a = jax.random.normal(key, (3,))\n    exit()\n    return jax.random.uniform(key, (3,)) + a\n")
    assert _rules(text)


SAMPLER = """def sample(key):
    return jax.random.uniform(key, (8,))


def test_same():
    key = jax.random.PRNGKey(0)
    CHECK
"""


@pytest.mark.parametrize("check, reported", [
    ("assert jnp.array_equal(sample(key), sample(key))", False),  # a comparing call inside `assert`
    ("assert float(sample(key)[0]) == float(sample(key)[0])", False),  # the two sides of one comparison
    ("assert not jnp.allclose(sample(key), sample(key) + 1)", False),  # still the two sides of one check
    ("assert float(sample(key)[0] + sample(key)[1]) > 0", True),  # the two draws meet: no comparison of them
    ("ok = jnp.array_equal(sample(key), sample(key))", True),  # not asserted: a computation with both
])
def test_one_assert_comparing_the_two_uses(check, reported):
    assert bool(_rules(SAMPLER.replace("CHECK", check))) is reported


def test_incremental_equals_full_for_the_new_classes():
    texts = [HEAD + "def demo():\n    key = jax.random.PRNGKey(0)\n    a = jax.random.normal(key, (3,))\n"
             "    exit()\n    return jax.random.uniform(key, (3,)) + a\n"]
    texts.append(texts[0].replace("    exit()\n", "    print()\n"))
    texts.append(texts[0].replace("import sys\n", "from mylib import exit\n"))
    inc = IncrementalAnalysis("m.py")
    for text in texts + texts[::-1]:
        assert inc.update(text).findings == analyze(text, "m.py").findings


MEMO = """import numpy as np

_cache = {}


def table(a, b):
GUARD
    _cache[(a, b)] = np.ones(a * b)
    return _cache[(a, b)]


@jax.jit
def f(x):
    return x + table(2, 3).sum()
"""


@pytest.mark.parametrize("guard, reported", [
    ("    if (hit := _cache.get((a, b))) is not None:\n        return hit", False),  # add-only: one value per key
    ("    if _cache.get((a, b)) is not None:\n        return _cache[(a, b)]", False),
    ("    if (a, b) in _cache:\n        return _cache[(a, b)]", False),
    ("    if (b, a) in _cache:\n        return _cache[(b, a)]", True),  # another key tested: the entry is overwritten
    ("    if (hit := _cache.get((a, b))) is None:\n        return hit", True),  # returns when absent: overwrites
    ("    if (a, b) in _cache:\n        return _cache[(a, b)]\n    a = a + 1", True),  # the stored key is not the tested one
    ("    pass", True),  # written on every call
])
def test_memo_keyed_by_an_expression(guard, reported):
    found = [f for f in analyze(HEAD + MEMO.replace("GUARD", guard), "m.py").findings if f.rule == "global-captured-in-jit"]
    assert bool(found) is reported
