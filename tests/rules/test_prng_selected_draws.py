"""Issue 22 (round 24, goal-jax): two draws from one key whose values are each kept only in opposite alternatives of
selections on one condition never meet, also when they reach the selections through names (a rejection sampler
that draws both envelopes' proposals and keeps one by `jnp.where(nu >= 1, ...)` for each value it carries on)."""

import pytest
from sharpbits.analysis.engine import analyze

HEAD = '''\
import jax
import jax.numpy as jnp


def f(key, c, d):
    a = jax.random.normal(key)
    sa = a * 2.0
'''


def _reuse_lines(body: str) -> list[int]:
    return [f.line for f in analyze(HEAD + body, "case.py").findings if f.rule == "prng-key-reuse"]


@pytest.mark.parametrize("body", [
    # through names into two selections on one condition
    "    b = jax.random.uniform(key)\n    sb = jnp.log(b)\n"
    "    return jnp.where(c > 0, a, b), jnp.where(c > 0, sa, sb)\n",
    # lax.select and a conditional expression on one test
    "    b = jax.random.uniform(key)\n    return jax.lax.select(c, sa, b), (a if c else -b)\n",
])
def test_draws_kept_in_opposite_arms_of_one_condition_do_not_meet(body):
    assert _reuse_lines(body) == []


@pytest.mark.parametrize("body", [
    # two conditions: both draws may be kept
    "    b = jax.random.uniform(key)\n    return jnp.where(c > 0, a, b), jnp.where(d > 0, sa, b)\n",
    # the second draw also used outside the selection
    "    b = jax.random.uniform(key)\n    return jnp.where(c > 0, sa, b) + b\n",
    # the same arm
    "    b = jax.random.uniform(key)\n    return jnp.where(c > 0, a + b, sa)\n",
    # a name on the way bound twice
    "    b = jax.random.uniform(key)\n    b = b + a\n    return jnp.where(c > 0, sa, b)\n",
    # the condition depends on the draw
    "    b = jax.random.uniform(key)\n    return jnp.where(b > 0.5, sa, b)\n",
    # the condition's name rebound between the selections
    "    b = jax.random.uniform(key)\n    x = jnp.where(c > 0, a, b)\n    c = -c\n    return x, jnp.where(c > 0, sa, b)\n",
])
def test_draws_that_may_meet_are_still_reported(body):
    assert _reuse_lines(body) != []
