"""Property: whatever the text, analysis returns findings inside the text, and fixes either apply cleanly
(the result parses) or are withheld. No exception escapes."""

import ast
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sharpbits.analysis.engine import analyze
from sharpbits.findings import apply_edits
from sharpbits.source import split_lines

from .mutations import SEEDS, mutate


def check_document(text: str) -> None:
    result = analyze(text, "fuzz.py")
    lines = split_lines(text)
    for f in result.findings:
        assert 1 <= f.line <= f.end_line <= len(lines)
        assert f.column >= 1 and f.end_column <= len(lines[f.end_line - 1]) + 1
        fix = f.fix()
        if fix is not None:
            ast.parse(apply_edits(text, fix.edits))
    if result.syntax_error is not None:
        assert result.findings == []


@settings(max_examples=2500, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.sampled_from(SEEDS), rng_seed=st.integers(0, 2**32 - 1))
def test_mutated_documents(seed, rng_seed):
    check_document(mutate(seed, random.Random(rng_seed)))


@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_arbitrary_text(text):
    check_document(text)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(
        st.sampled_from(
            ["x[0] = 1", "x = jnp.zeros(3)", "@jax.jit", "def f(x):", "    x[i] += 2", "for i in range(3):",
             "    ", "import jax.numpy as jnp", "import jax", "y = x", "if x:", "else:", "return x", "\t", "x[", "]"]
        ),
        max_size=40,
    )
)
def test_generated_statement_soup(lines):
    check_document("\n".join(lines) + "\n")
