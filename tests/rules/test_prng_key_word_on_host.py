"""Round 22 part B (issue 22): a NumPy copy of a single key indexed at once by an int literal,
`np.array(subkey)[0]`, is one uint32 word on the host (pyRDDLGym-jax seeds its environment with it): it draws
nothing from the key. The whole copy (`np.asarray(subkey)`) is still the key, and so is a word of a parameter,
which may hold a key array whose row `np.array(keys)[0]` is a whole key."""

from sharpbits.analysis.engine import analyze

CASE = '''\
import jax
import numpy as np


def init(key):
    return jax.random.normal(key, (3,))


def run(reset, key):
    BIND
    params = init(sub)
    state = reset(seed=READ)
    return params, state
'''


def _reuse_lines(bind: str, read: str) -> list[int]:
    text = CASE.replace("BIND", bind).replace("READ", read)
    return [f.line for f in analyze(text, "case.py").findings if f.rule == "prng-key-reuse"]


def test_a_word_of_a_split_piece_is_not_a_key():
    assert _reuse_lines("key, sub = jax.random.split(key)", "np.array(sub)[0]") == []
    assert _reuse_lines("key, sub = jax.random.split(key, 2)", "int(np.asarray(sub)[1])") == []
    assert _reuse_lines("sub = jax.random.PRNGKey(3)", "np.array(sub)[0]") == []
    # unpacked into two names, a split of any count made two single keys (or raised)
    assert _reuse_lines("key, sub = jax.random.split(key, n)", "np.array(sub)[0]") == []


def test_the_whole_copy_is_the_key():
    assert _reuse_lines("key, sub = jax.random.split(key)", "np.asarray(sub)") == [12]


def test_a_name_not_known_to_be_one_key_stays_a_use():
    # a name bound to a parameter (which may hold a key array), a key array, a slice rather than one word
    assert _reuse_lines("sub = key", "np.array(sub)[0]") == [12]
    assert _reuse_lines("sub = jax.random.split(key, 4)", "np.array(sub)[0]") == [12]
    assert _reuse_lines("key, sub = jax.random.split(key)", "np.array(sub)[:1]") == [12]
