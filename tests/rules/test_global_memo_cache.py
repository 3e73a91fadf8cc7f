"""Round 24 part A (issue 22, ace-jax): a memo cache read at trace time is not a global that goes stale.

`if key in CACHE: return CACHE[key]`, then the value computed from the key is stored: each entry is written once,
while absent, so a trace reads the one value its key ever has. An entry written unconditionally (a setter, a store
outside the guard, the key bound again after the test) is a change a kept trace does not see."""

import pytest
from sharpbits.analysis.engine import analyze

CACHED = '''\
import jax

_SIZES = {}


def size(shape):
    key = tuple(shape)
    GUARD
    n = shape[0] * 2
    STORE
    return n


@jax.jit
def f(x):
    return x * size(x.shape)
'''


def _lines(guard: str, store: str) -> list[int]:
    text = CACHED.replace("GUARD", guard).replace("STORE", store)
    return [f.line for f in analyze(text, "case.py").findings if f.rule == "global-captured-in-jit"]


@pytest.mark.parametrize(("guard", "store"), [
    ("if key in _SIZES:\n        return _SIZES[key]", "_SIZES[key] = n"),
    ("if key is not None and key in _SIZES:\n        return _SIZES[key]", "if key is not None:\n        _SIZES[key] = n"),
    ("pass", "if key not in _SIZES:\n        _SIZES[key] = n"),
])
def test_an_entry_written_once_while_absent_is_no_change(guard, store):
    assert _lines(guard, store) == []


@pytest.mark.parametrize(("guard", "store"), [
    # the store runs whether or not the key was there: it overwrites the entry a trace may have read
    ("if key in _SIZES:\n        n = _SIZES[key] + 1", "_SIZES[key] = n"),
    # the key bound again between the test and the store: another entry is written
    ("if key in _SIZES:\n        return _SIZES[key]\n    key = key + (1,)", "_SIZES[key] = n"),
    # the guard tests another key
    ("if shape in _SIZES:\n        return _SIZES[shape]", "_SIZES[key] = n"),
])
def test_an_entry_written_outside_the_guard_is_a_change(guard, store):
    assert _lines(guard, store) != []


@pytest.mark.parametrize("other", ["def reset():\n    _SIZES.clear()\n", "def pin(k, n):\n    _SIZES[k] = n\n"])
def test_a_cache_also_cleared_or_set_elsewhere_is_a_change(other):
    text = CACHED.replace("GUARD", "if key in _SIZES:\n        return _SIZES[key]").replace(
        "STORE", "_SIZES[key] = n") + "\n\n" + other
    assert [f.line for f in analyze(text, "case.py").findings if f.rule == "global-captured-in-jit"] != []
