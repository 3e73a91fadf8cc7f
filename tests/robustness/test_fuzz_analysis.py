"""The fuzzed properties (tests/robustness/properties.py), bounded and deterministic: `derandomize=True` draws
the same examples on every run (no example database either), so a CI failure reproduces and a pass means the
same as the last one. The long run with random seeds is bench/fuzz.py."""

from hypothesis import HealthCheck, given, settings

from .properties import (
    arbitrary_text,
    check_document,
    check_fix_check_is_sound,
    document_and_edit,
    mutated_documents,
    statement_soup,
)


def bounded(examples: int) -> settings:
    return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))


@bounded(1500)
@given(mutated_documents)
def test_mutated_documents(text):
    check_document(text)


@bounded(400)
@given(arbitrary_text)
def test_arbitrary_text(text):
    check_document(text)


@bounded(300)
@given(statement_soup)
def test_generated_statement_soup(text):
    check_document(text)


@bounded(600)
@given(document_and_edit())
def test_fix_check_never_accepts_what_a_full_parse_rejects(case):
    check_fix_check_is_sound(*case)


def test_mixed_tabs_loop_found_by_the_fuzz():
    """The document the fuzz run found (a loop body re-indented with a tab): its rewrite now parses."""
    text = ("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    total = 0.0\n"
            "    for i in range(3):\n\t    total = total + x[i]\n    return total\n")
    check_document(text)
