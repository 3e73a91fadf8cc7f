"""The key flow on long functions (issue 24 item 5: it was quadratic; bench/key_flow_scaling.py prints the ratios):
the findings on the shapes the benchmark times are the right ones, at a length where the old walk took seconds."""

import sys

import pytest
from sharpbits.analysis.engine import analyze

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
from key_flow_scaling import draws_from_one_key, draws_in_a_test, split_and_draw, split_chain

N = 400


def reuses(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message.split(":")[0]) for f in analyze(text, "long.py").findings if f.rule == "prng-key-reuse"]


def test_a_chain_of_splits_reuses_nothing():
    assert reuses(split_chain(N)) == []


def test_every_later_draw_from_one_key_is_a_finding_at_its_own_line():
    # issue 22: four draws from one key are three findings, each naming the first draw
    first = "PRNG key `key` was already consumed at line 5 by `jax.random.normal(...)`"
    # ... and the function hands the key it drew from back to its caller (`return key`): one more
    returned = "PRNG key `key` was drawn from at line 5 by `jax.random.normal(...)` and is returned as the next key"
    assert reuses(draws_from_one_key(N)) == [(line, first) for line in range(6, 5 + N)] + [(5 + N, returned)]


def test_a_test_comparing_two_draws_is_not_told_about_those_two():
    # k_0 and k_1 are compared on purpose (a reproduced draw); every later draw repeats them for nothing
    text = draws_in_a_test(N)
    first = "PRNG key `key` was already consumed at line 6 by `jax.random.normal(...)`"
    assert reuses(text) == [(line, first) for line in range(8, 6 + N)]
    assert text.splitlines()[7].strip() == "k_2 = jax.random.normal(key, (3,))"


@pytest.mark.parametrize("n", [3, N])
def test_split_then_draw_finds_only_the_last_extra_draw(n):
    last = 4 + 2 * n + 1  # the `y = jax.random.normal(sub, ...)` line after the loop-free chain
    assert reuses(split_and_draw(n)) == [(last, f"PRNG key `sub` was already consumed at line {last - 1} by "
                                                "`jax.random.normal(...)`")]
