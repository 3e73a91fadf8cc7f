"""jit-in-loop on a `@jax.jit` def inside a loop (recall26): a loop over cases (shapes, configurations) spelled as a
literal collection, a name bound once to one, or an arrangement of literals (`sorted(itertools.product([4, 8],
[16, 32]))`, kernex's conv2d benchmark) compiles each case anyway: info. `range(n)` or a collection the code does
not show repeats the same function: a warning."""

import pytest
from sharpbits.analysis.engine import analyze

TEMPLATE = '''\
import itertools
import jax
import jax.numpy as jnp


def run(sizes):
    CASES
    for LOOP:
        @jax.jit
        def f(x):
            return x * 2
        f(jnp.ones(3))
'''


def _severities(cases: str, loop: str) -> list[str]:
    text = TEMPLATE.replace("CASES", cases).replace("LOOP", loop)
    return [str(f.severity) for f in analyze(text, "case.py").findings if f.rule == "jit-in-loop"]


@pytest.mark.parametrize(("cases", "loop"), [
    ("pass", "n in (8, 16, 32)"),
    ("dims = [8, 16, 32]", "n in dims"),
    ("dims = list(sorted(itertools.product([4, 8], [16, 32])))", "c, h in dims"),
    ("pass", "c, h in itertools.product([4, 8], [16, 32])"),
])
def test_a_sweep_over_cases_is_info(cases, loop):
    assert _severities(cases, loop) == ["info"]


@pytest.mark.parametrize(("cases", "loop"), [
    ("pass", "i in range(100)"),
    ("pass", "n in sizes"),
    ("dims = sorted(sizes)", "n in dims"),
    ("dims = [8, 16]\n    dims = dims * 50", "n in dims"),
])
def test_a_loop_the_code_does_not_show_as_cases_warns(cases, loop):
    assert _severities(cases, loop) == ["warning"]
