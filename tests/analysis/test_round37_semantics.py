"""Round 37's classes (first contact on 4c449c3) at their edges: draws whose values reach only shapes, loops that
surely run, code after an `if` a constant decides, initializers that return constants. Each case states what JAX
does; the labelled pairs in tests/corpus/labelled/ run the main cases under JAX."""

import ast

import pytest
from sharpbits.analysis.engine import analyze
from sharpbits.analysis.flow import runs_at_least_once
from sharpbits.analysis.incremental import IncrementalAnalysis

HEAD = "import jax\nimport jax.numpy as jnp\n\n\n"


def _reuse_lines(text: str) -> list[int]:
    return [f.line for f in analyze(HEAD + text, "m.py").findings if f.rule == "prng-key-reuse"]


SHAPE_ONLY = """def f(key):
    w = jax.random.normal(key, (4, 2))
    x = jax.random.normal(key, (3, 4))
USE
    return w
"""


@pytest.mark.parametrize("use, reported", [
    ("    assert x.shape == (3, 4)", False),  # only its shape
    ("    buffer = jnp.zeros_like(x)\n    assert buffer.sum() == 0", False),  # zeros_like reads the shape
    ("    template = {'x': x}\n    assert template['x'].shape[0] == 3", False),  # moved unchanged, then shapes
    ("    y = jnp.tanh(x)\n    assert y.shape == (3, 4)", True),  # computed with: a test input, the convention
    ("    assert x.sum() > -100", True),  # a value is read
    ("    print(x)", True),  # shown: its numbers are used
    ("    hook = lambda: x.shape", True),  # a nested function reads it: counted as a use
])
def test_draw_values_reaching_only_shapes(use, reported):
    assert bool(_reuse_lines(SHAPE_ONLY.replace("USE", use))) is reported


@pytest.mark.parametrize("loop, sure", [
    ("for _ in range(5):\n    pass\n", True),
    ("for i in range(2, 4):\n    pass\n", True),
    ("for x in [1, 2]:\n    pass\n", True),
    ("for _ in range(0):\n    pass\n", False),
    ("for _ in range(n):\n    pass\n", False),
    ("for x in []:\n    pass\n", False),
    ("for _ in range(5):\n    if c:\n        break\n", False),  # may leave before its body's end
    ("for _ in range(5):\n    if c:\n        continue\n    x = 1\n", False),
    ("while True:\n    pass\n", False),
])
def test_loops_that_surely_run_their_body(loop, sure):
    assert runs_at_least_once(ast.parse(loop).body[0]) is sure


def test_a_fixed_step_loop_always_replaces_the_key():
    text = ("STEPS = 3\n\n\ndef f(key, base):\n    first = jax.random.normal(key, (2,))\n"
            "    for i in range(STEPS):\n        key, sub = jax.random.split(jax.random.fold_in(base, i))\n"
            "    return first, jax.random.normal(key, (2,))\n")
    assert _reuse_lines(text) == []
    assert _reuse_lines(text.replace("STEPS = 3", "STEPS = 0")) == [12]


JAX_MODE = """JAX_MODE = True


def f(x):
    if JAX_MODE:
        return x.at[0].set(1.0)
    out = jnp.zeros(3)
    out[0] = 1.0
    return out
"""


def test_code_after_an_if_a_constant_takes_and_that_returns_never_runs():
    assert [f.rule for f in analyze(HEAD + JAX_MODE, "m.py").findings] == []
    flipped = HEAD + JAX_MODE.replace("JAX_MODE = True", "JAX_MODE = False")
    assert [f.rule for f in analyze(flipped, "m.py").findings] == ["in-place-update"]


def test_flipping_the_module_constant_is_seen_by_the_next_version():
    """The answer reads a module-level statement: an edit of the constant alone changes it (the incremental
    analysis asks again rather than keep the function's answer)."""
    document = IncrementalAnalysis("m.py")
    for text in (HEAD + JAX_MODE, HEAD + JAX_MODE.replace("JAX_MODE = True", "JAX_MODE = False"), HEAD + JAX_MODE):
        got, fresh = document.update(text), analyze(text, "m.py")
        assert [f.to_json(with_fix=False) for f in got.findings] == [f.to_json(with_fix=False) for f in fresh.findings]


def test_initializers_that_return_constants_draw_nothing():
    text = ("import flax.linen as nn\n\n\ndef f(key, shape):\n"
            "    a = jax.nn.initializers.zeros(key, shape) + jax.random.normal(key, shape)\n"
            "    b = nn.initializers.constant(0.5)(key, shape) + jax.random.normal(key, shape)\n"
            "    c = jax.nn.initializers.normal()(key, shape) + jax.random.normal(key, shape)\n"
            "    return a, b, c\n")
    # line 9: zeros ignores the key; line 10: the key was drawn at line 9; line 11: both draws read a used key
    assert _reuse_lines(text) == [10, 11, 11]
