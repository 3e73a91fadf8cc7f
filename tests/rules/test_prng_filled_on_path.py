"""Round 20 (issue 22): a helper that draws from its key only when another argument is None, called on a path
where the caller has just filled that argument (gensbi's TARP), draws nothing; a path where the filling may not
have run is left a possible draw."""

from sharpbits.analysis.engine import analyze

CASE = '''\
import jax
import jax.numpy as jnp


def make_refs(key, n):
    return jax.random.uniform(key, (n,))


def single(key, samples, refs):
    if refs is None:
        refs = make_refs(key, samples.shape[0])
    return jnp.mean(samples < refs)


def coverage(samples, key, refs=None, boot=False, fast=False):
    if refs is None and not boot:
        refs = make_refs(key, samples.shape[0])
    if refs is not None:
        refs = jnp.asarray(refs)
    if CALL_TEST:
        return single(key, samples, refs)
    return None
'''


def _reuse_lines(call_test: str) -> list[int]:
    text = CASE.replace("CALL_TEST", call_test)
    return [f.line for f in analyze(text, "case.py").findings if f.rule == "prng-key-reuse"]


def test_the_call_on_the_filled_path_draws_nothing():
    assert _reuse_lines("not boot") == []


def test_a_call_not_under_the_filling_test_is_left_a_possible_draw():
    # refs may still be None there (boot True), and the model does not weigh which path filled it: a possible
    # draw, as before (conservative: on the path where the filling ran, the helper would not draw)
    assert _reuse_lines("not fast") == [21]
    assert _reuse_lines("True") == [21]


def test_a_test_whose_names_are_rebound_between_is_not_the_same_test():
    text = CASE.replace("CALL_TEST", "not boot").replace("    if refs is not None:\n", "    boot = fast\n    if refs is not None:\n")
    assert [f.line for f in analyze(text, "case.py").findings if f.rule == "prng-key-reuse"] == [22]
