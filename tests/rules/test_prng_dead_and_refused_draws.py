"""Round 23 part A (issue 22): two ways a draw's numbers reach nothing.

A draw bound to a name that the next statement mentioning it binds again, unread (jaxsnn's test draws spike times,
splits that key and draws the times again from a piece): the first numbers are dead, so the split is the key's
first real use. And values handed only to a call the test expects to raise (neojax's tests draw inputs and
targets from one key only to check that a metric refuses them): no result comes back."""

from sharpbits.analysis.engine import analyze

DEAD = '''\
import jax
import jax.numpy as jnp


def spikes(data_rng, n, t_max, other):
    DRAW
    BETWEEN
    spike_rng, idx_rng = jax.random.split(data_rng)
    times = jnp.sort(jax.random.uniform(spike_rng, (n,), maxval=t_max))
    return times, jax.random.randint(idx_rng, (n,), 0, n)
'''


def _lines(text: str) -> list[int]:
    return [f.line for f in analyze(text, "case.py").findings if f.rule == "prng-key-reuse"]


def _dead(draw: str, between: str = "pass") -> list[int]:
    return _lines(DEAD.replace("DRAW", draw).replace("BETWEEN", between))


def test_a_draw_bound_again_before_any_read_is_dead():
    assert _dead("times = jnp.sort(jax.random.uniform(data_rng, (n,), maxval=t_max))") == []
    assert _dead("times = jax.random.uniform(data_rng, (n,)) * t_max", "scale = 2.0") == []


def test_a_draw_read_before_it_is_bound_again_is_used():
    assert _dead("times = jnp.sort(jax.random.uniform(data_rng, (n,)))", "first = times[0]") == [8]


def test_a_draw_kept_by_a_call_that_is_not_an_array_function_stays_a_use():
    # `other.push(...)` may keep what it is handed; the name bound to its result says nothing about that
    assert _dead("times = other.push(jax.random.uniform(data_rng, (n,)))") == [8]


def test_a_draw_whose_name_a_closure_reads_stays_a_use():
    assert _dead("times = jax.random.uniform(data_rng, (n,))", "show = lambda: print(times)") == [8]


RAISING = '''\
import jax
import pytest


def metric(x, target, key=None):
    if key is None:
        raise ValueError("needs a key")
    return ((x - target) ** 2).mean() + jax.random.normal(key, ()) * 0


def test_metric():
    key = jax.random.key(0)
    inputs = jax.random.normal(key, (4, 2))
    targets = jax.random.normal(key, (4, 2))
    with pytest.raises(ValueError):
        metric(inputs, target=targets)
    AFTER
'''


def _raising(after: str = "pass") -> list[int]:
    return _lines(RAISING.replace("AFTER", after))


def test_values_handed_only_to_a_refused_call_reach_nothing():
    assert _raising() == []


def test_values_also_read_after_the_refused_call_are_used():
    assert _raising("return metric(inputs, targets, key=jax.random.key(1))") == [14]


EXPECTED_TO_DIFFER = '''\
import jax
import numpy as np
import pytest


def test_two_samples_differ():
    key = jax.random.key(0)
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))
    with pytest.raises(RAISED):
        CHECK(a, b)
'''


def test_an_assertion_expected_to_fail_reads_the_values():
    # the values decide whether it raises: two draws of one key are equal, so the assertion passes
    for raised, check in (("AssertionError", "compare"), ("(ValueError, AssertionError)", "compare")):
        text = EXPECTED_TO_DIFFER.replace("RAISED", raised).replace("CHECK", check)
        assert _lines(text) == [9], (raised, check)


UNPACKED = '''\
import jax
import pytest


def init_mlp(key, width):
    mlp = Mlp(width)
    return mlp, {"kernel": jax.random.normal(key, (4, width))}


def test_wrong_width_raises():
    key = jax.random.key(0)
    mlp, params = init_mlp(key, 8)
    x = jax.random.normal(key, (10, 5))
    with pytest.raises(ValueError):
        CALL
    AFTER
'''


def _unpacked(call: str, after: str = "pass") -> list[int]:
    return _lines(UNPACKED.replace("CALL", call).replace("AFTER", after))


def test_an_unpacked_model_read_only_by_a_refused_method_call_reaches_nothing():
    # round 24 part A (nflojax): a tuple of names, the receiver of the method called, a dict literal argument
    assert _unpacked('mlp.apply({"params": params}, x)') == []
    assert _unpacked("mlp.apply([params], x)") == []


def test_an_unpacked_part_read_after_the_refused_call_is_used():
    assert _unpacked('mlp.apply({"params": params}, x)', "print(params)") == [13]
    assert _unpacked('mlp.apply({"params": params}, x)', "print(mlp.apply(params, x))") == [13]


def test_a_part_put_in_a_value_outside_the_refused_call_is_used():
    # `variables = {"params": params}` after the raising block: the part is read outside the refused call
    assert _unpacked('mlp.apply(variables, x)', 'variables = {"params": params}') == [13]
