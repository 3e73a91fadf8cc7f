"""prng-key-reuse's key flow across versions of a document (rules/prng_key_reuse/reuse.py): what is taken from the
last version is what a fresh analysis finds."""

from sharpbits.analysis.engine import analyze
from sharpbits.analysis.incremental import IncrementalAnalysis

from tests.analysis.test_incremental import replaced, summary


def lines(result) -> list[int]:
    return [f.line for f in result.findings if f.rule == "prng-key-reuse"]


def test_a_module_constant_stored_in_another_function_is_asked_again():
    """A walk taken from the last version read `SEED` as a module constant: storing it anywhere else (here, a
    local of another function) makes it none, so the walk is not taken again."""
    base = ("import jax\n\nSEED = 0\n\n\ndef f():\n    a = jax.random.normal(jax.random.PRNGKey(SEED), ())\n"
            "    b = jax.random.normal(jax.random.PRNGKey(SEED), ())\n    return a + b\n\n\ndef g():\n"
            "    x = 1\n    return x\n")
    document = IncrementalAnalysis("m.py")
    assert lines(document.update(base)) == [8]
    text = replaced(base, "    x = 1\n    return x\n", "    SEED = 1\n    return SEED\n")
    result = document.update(text)
    assert summary(result) == summary(analyze(text, "m.py")) and lines(result) == []
