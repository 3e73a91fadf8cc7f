"""Issue 22 (after round 20): uses of one key on paths that exclude each other through a Python flag never meet:
the tests of the `if`s around each use (true in the body, false in the `else`/`elif`) and of earlier `if`s whose
branch always leaves the block, on names the function never rebinds (gensbi's TARP: a draw under
`if refs is None and not boot:`, the bootstrap after `if not boot: return ...`)."""

import pytest
from sharpbits.analysis.engine import analyze

HEAD = '''\
import jax


def f(key, refs=None, boot=False, mode="a", x=None):
    if refs is None and not boot:
        refs = jax.random.uniform(key, (3,))
'''


def _reuse_lines(body: str) -> list[int]:
    return [f.line for f in analyze(HEAD + body, "case.py").findings if f.rule == "prng-key-reuse"]


@pytest.mark.parametrize("body", [
    # after a branch that returns on the opposite test
    "    if not boot:\n        return refs\n    return refs, jax.random.normal(key, (3,))\n",
    # in the body of the opposite test
    "    if boot:\n        return refs, jax.random.normal(key, (3,))\n    return refs\n",
    # in an `elif` of the opposite test
    "    if x is not None:\n        return x\n    elif boot:\n        return refs, jax.random.normal(key, (3,))\n",
    # after a guard that raises unless the flag is set
    "    if not boot:\n        raise ValueError(boot)\n    return refs, jax.random.normal(key, (3,))\n",
    # in the `else` of a disjunction that holds whenever the draw ran
    "    if not boot or x is None:\n        return refs\n    else:\n        return refs, jax.random.normal(key, (3,))\n",
])
def test_uses_on_paths_excluded_by_one_flag_do_not_meet(body):
    assert _reuse_lines(body) == []


@pytest.mark.parametrize("body", [
    # another flag: both paths may run in one call
    "    if x is None:\n        return refs\n    return refs, jax.random.normal(key, (3,))\n",
    # a branch that does not always leave: the use after it may follow the draw
    "    if not boot:\n        refs = refs + 1\n    return refs, jax.random.normal(key, (3,))\n",
    # the `else` of a conjunction says nothing of either operand
    "    if not boot and x is None:\n        return refs\n    return refs, jax.random.normal(key, (3,))\n",
])
def test_uses_on_paths_that_may_both_run_still_meet(body):
    assert _reuse_lines(body) == [len(HEAD.splitlines()) + body.count("\n")]


def test_a_flag_rebound_in_the_function_is_not_a_fixed_path():
    body = "    boot = x is not None\n    if boot:\n        return refs, jax.random.normal(key, (3,))\n    return refs\n"
    assert _reuse_lines(body) == [9]


def test_settings_compared_with_different_constants_stay_exclusive():
    text = ('import jax\n\n\ndef f(key, mode):\n    if mode == "a":\n        x = jax.random.normal(key, (3,))\n'
            '    if mode == "b":\n        x = jax.random.uniform(key, (3,))\n    return x\n')
    assert [f.line for f in analyze(text, "case.py").findings if f.rule == "prng-key-reuse"] == []
