"""Issue 22 (round 20's snnax class): a key handed to a function that draws from it only while a flag parameter
has one truth (`if deterministic: return x` before the draw, or `if not inference:` around it, also handed on as
`dropout(h, key, deterministic=inference)`) is not drawn from by a call that passes the other truth or leaves the
flag at such a default; equinox's `Dropout` in inference mode draws nothing."""

import pytest
from sharpbits.analysis.engine import analyze

CASE = '''\
import jax
import jax.numpy as jnp
import equinox as eqx


def dropout(x, key, rate=0.5, deterministic=False):
    if deterministic:
        return x
    keep = jax.random.bernoulli(key, 1 - rate, x.shape)
    return jnp.where(keep, x / (1 - rate), 0.0)


def forward(x, key, inference=False):
    return dropout(jnp.tanh(x), key, deterministic=inference)


def train_only(x, key, train=False):
    if train:
        x = dropout(x, key)
    return x


def run(x, key):
    a = CALL
    b = jax.random.normal(key, x.shape)
    return a + b
'''


def _reuse_lines(call: str) -> list[int]:
    return [f.line for f in analyze(CASE.replace("CALL", call), "case.py").findings if f.rule == "prng-key-reuse"]


@pytest.mark.parametrize("call", [
    "dropout(x, key, deterministic=True)",
    "forward(x, key, inference=True)",
    "forward(x, key, True)",
    "train_only(x, key)",  # the default leaves the draw off
    "train_only(x, key, train=False)",
    "eqx.nn.Dropout(0.5)(x, key=key, inference=True)",
    "eqx.nn.Dropout(0.5)(x, key=key, deterministic=True)",
    "eqx.nn.Dropout(0.5, inference=True)(x, key=key)",
    "eqx.nn.Dropout(p=0.0)(x, key=key)",
])
def test_a_draw_switched_off_by_the_flag_the_caller_passes_is_no_use(call):
    assert _reuse_lines(call) == []


@pytest.mark.parametrize("call", [
    "dropout(x, key)",
    "forward(x, key, inference=False)",
    "forward(x, key)",
    "forward(x, key, inference=flag)",  # not known at the call
    "train_only(x, key, train=True)",
    "forward(x, key, **options)",  # the flag may be among them
    "eqx.nn.Dropout(0.5)(x, key=key)",
    "eqx.nn.Dropout(0.5, inference=True)(x, key=key, inference=False)",
])
def test_a_draw_the_call_leaves_on_is_still_a_use(call):
    assert _reuse_lines(call) == [25]


def test_a_flag_the_callee_rebinds_guards_nothing():
    text = CASE.replace("    if deterministic:\n", "    deterministic = deterministic or rate == 0\n    if deterministic:\n")
    text = text.replace("CALL", "dropout(x, key, deterministic=True)")
    assert [f.line for f in analyze(text, "case.py").findings if f.rule == "prng-key-reuse"] == [26]
