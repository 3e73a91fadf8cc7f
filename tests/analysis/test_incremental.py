"""IncrementalAnalysis gives exactly what a from-scratch `analyze` gives, version after version: checked over
random edit sequences (typing one character, inserting and deleting lines inside and between functions, undo
to an earlier version), with hypothesis' fixed seed (tests/conftest.py)."""

import ast

from hypothesis import given, settings
from hypothesis import strategies as st
from sharpbits.analysis.engine import AnalysisResult, Selection, analyze
from sharpbits.analysis.incremental import DocumentAnalyses, IncrementalAnalysis

from tests.conftest import ROOT

BASES = [p.read_text() for p in sorted((ROOT / "examples").glob("*.py"))]
# Lines that change what the rules see: keys drawn and reused, arrays written in place, globals that change,
# imports and aliases, decorators that make a function traced, suppressions, loops.
SNIPPETS = [
    "key = jax.random.PRNGKey(0)", "a = jax.random.normal(key, (3,))", "b = jax.random.uniform(key)",
    "y = jnp.zeros(3)", "y[0] = 1.0", "y = y.at[0].set(1.0)", "global SCALE", "SCALE = 2.0",
    "import numpy as jnp", "from jax import numpy as jnp", "@jax.jit", "for i in range(10):", "    pass",
    "x = x[x > 0]", "return x", "pass", "z = x  # noqa", "def helper(x):", "    return jnp.sum(x)",
    "helper = jax.jit(helper)", "if x > 0:", "while True:", "class Model:", "from __future__ import annotations",
    "a = 1; b = 2", "x = '''", "else:",
]

EDIT = st.one_of(
    st.tuples(st.just("insert"), st.integers(0, 10_000), st.sampled_from(SNIPPETS), st.integers(0, 2)),
    st.tuples(st.just("delete"), st.integers(0, 10_000)),
    st.tuples(st.just("type"), st.integers(0, 100_000), st.sampled_from(list("x(): =[]0#\n"))),
    st.tuples(st.just("undo"), st.integers(1, 4)),
)


def apply(history: list[str], edit: tuple) -> str:
    text = history[-1]
    lines = text.splitlines(keepends=True) or [""]
    if edit[0] == "insert":
        _, at, snippet, indent_level = edit
        at %= len(lines) + 1
        near = lines[min(at, len(lines) - 1)]
        indent = near[: len(near) - len(near.lstrip())] if indent_level == 1 else "    " * indent_level
        return "".join([*lines[:at], indent + snippet + "\n", *lines[at:]])
    if edit[0] == "delete":
        at = edit[1] % len(lines)
        return "".join(lines[:at] + lines[at + 1 :])
    if edit[0] == "type":
        at = edit[1] % (len(text) + 1)
        return text[:at] + edit[2] + text[at:]
    return history[-1 - min(edit[1], len(history) - 1)]


def summary(result: AnalysisResult) -> tuple:
    findings = [(f.to_json(with_fix=False), f.fixable, f.fix_title) for f in result.findings]
    error = result.syntax_error.to_json(with_fix=False) if result.syntax_error else None
    return findings, error, result.functions


@settings(max_examples=40)
@given(base=st.sampled_from(BASES), edits=st.lists(EDIT, min_size=1, max_size=12))
def test_every_version_gets_what_a_fresh_analysis_gets(base, edits):
    document = IncrementalAnalysis("m.py")
    history = [base]
    assert summary(document.update(base)) == summary(analyze(base, "m.py"))
    for edit in edits:
        history.append(apply(history, edit))
        assert summary(document.update(history[-1])) == summary(analyze(history[-1], "m.py"))


def parsed(text: str) -> str:
    try:
        return ast.dump(ast.parse(text), include_attributes=True)
    except (SyntaxError, ValueError) as exc:
        return type(exc).__name__


@settings(max_examples=60)
@given(base=st.sampled_from(BASES), edits=st.lists(EDIT, min_size=1, max_size=12))
def test_every_reused_parse_is_what_ast_parse_gives(base, edits):
    document = IncrementalAnalysis("m.py")
    history = [base]
    document.parse(base)
    for edit in edits:
        history.append(apply(history, edit))
        tree = document.parse(history[-1])
        mine = ast.dump(tree, include_attributes=True) if isinstance(tree, ast.Module) else type(tree).__name__
        assert mine == parsed(history[-1])


def test_typing_inside_a_function_parses_only_that_function():
    base = BASES[0]
    lines = base.splitlines(keepends=True)
    inside = next(i for i, line in enumerate(lines) if line.startswith("def ")) + 1
    document = IncrementalAnalysis("m.py")
    document.update(base)
    for typed in ("    z = 1\n", "    z = 12\n", "    z = x[x > 0]\n"):
        text = "".join([*lines[:inside], typed, *lines[inside + 1 :]])
        assert summary(document.update(text)) == summary(analyze(text, "m.py"))
    assert document.reused_parses == 3


def test_a_version_seen_again_is_answered_without_analysis():
    document = IncrementalAnalysis("m.py")
    first = document.update(BASES[0])
    document.update(BASES[0] + "\nx = 1\n")
    assert document.update(BASES[0]) is first and document.reused_results == 1


def test_new_settings_are_never_answered_from_old_results():
    document = IncrementalAnalysis("m.py")
    before = document.update(BASES[0])
    assert before.findings
    document.reconfigure(Selection(select=frozenset()))
    assert document.update(BASES[0]).findings == [] and document.reused_results == 0


def test_settings_passed_with_a_version_replace_the_old_ones():
    documents = DocumentAnalyses()
    everything = documents.update("file:///m.py", "m.py", BASES[0])
    nothing = documents.update("file:///m.py", "m.py", BASES[0], Selection(select=frozenset()))
    assert everything.findings and nothing.findings == []
    assert summary(documents.update("file:///m.py", "m.py", BASES[0], Selection())) == summary(everything)
    documents.close("file:///m.py")
    assert documents.update("file:///m.py", "m.py", BASES[0]) is not everything
