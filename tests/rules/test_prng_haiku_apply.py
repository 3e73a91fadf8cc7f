"""Issue 22 (rounds 18A and 20, dopamax's and catx's haiku nets): `net.apply(params, rng, x)` of `net =
hk.transform(f)` draws from `rng` only through `hk.next_rng_key()` and its kin. Where `f` and everything it calls
can be read in the module and never asks haiku for a key, the rng is not drawn from; a network that cannot be read
(a parameter, a registry's entry, a class of unknown base) stays a possible draw, as before."""

import pytest
from sharpbits.analysis.engine import analyze

CASE = '''\
import haiku as hk
import jax
import jax.numpy as jnp


class Head(hk.Module):
    def __init__(self, n):
        super().__init__(name="head")
        self.n = n

    def __call__(self, h):
        return self.project(jax.nn.tanh(h)).reshape(-1)

    def project(self, h):
        return hk.Linear(self.n)(h)


def plain(x):
    h = hk.nets.MLP([8, 4])(x)
    return Head(2)(h)


def noisy(x):
    return hk.dropout(hk.next_rng_key(), 0.5, hk.Linear(4)(x))


def deeper(x):
    return noisy(x) + 1.0


NETS = {"plain": plain}
LAYERS = [hk.Linear(4), noisy]
net = hk.transform(@NET@)


def loss(params, key, x):
    y = APPLY
    eps = jax.random.normal(key, y.shape)
    return jnp.sum(y + eps)
'''


def _reuse_lines(net: str, apply: str = "net.apply(params, key, x)") -> list[int]:
    text = CASE.replace("@NET@", net).replace("APPLY", apply)
    return [f.line for f in analyze(text, "case.py").findings if f.rule == "prng-key-reuse"]


EPS = CASE.splitlines().index("    eps = jax.random.normal(key, y.shape)") + 1  # the draw after the apply


@pytest.mark.parametrize(("net", "apply"), [
    ("plain", "net.apply(params, key, x)"),
    ("plain", "net.apply(params, rng=key, x=x)"),
    ("plain", "jax.jit(net.apply)(params, key, x)"),
    ("lambda v: Head(3)(v)", "net.apply(params, key, x)"),
])
def test_apply_of_a_network_that_never_asks_for_a_key_draws_nothing(net, apply):
    assert _reuse_lines(net, apply) == []


@pytest.mark.parametrize("net", [
    "noisy",  # hk.next_rng_key()
    "deeper",  # through a function of the module
    'NETS["plain"]',  # a registry's entry: not read
    "lambda v: NETS['plain'](v)",
    "jax.nn.relu",  # not a function of the module
    "lambda v: jax.lax.map(noisy, v)",  # a function handed to JAX runs too
    "lambda v: jax.tree_util.Partial(noisy)(v)",
    "lambda v: hk.Sequential([hk.Linear(4), noisy])(v)",  # a layer list: each function in it runs
    "lambda v: hk.Sequential(LAYERS)(v)",  # the same list bound to a name first
    "lambda v, layers=(): hk.Sequential(layers)(v)",  # layers given by the caller: not read
])
def test_apply_of_a_network_that_may_draw_or_cannot_be_read_stays_a_use(net):
    assert _reuse_lines(net) == [EPS]


def test_transform_with_state_takes_its_rng_third():
    text = CASE.replace("hk.transform(@NET@)", "hk.transform_with_state(plain)").replace(
        "APPLY", "net.apply(params, {}, key, x)[0]")
    assert [f.line for f in analyze(text, "case.py").findings if f.rule == "prng-key-reuse"] == []
    text = CASE.replace("hk.transform(@NET@)", "hk.transform_with_state(plain)").replace(
        "APPLY", "net.apply(params, key, None, x)[0]")  # the key as the state: handed on, a possible draw
    assert [f.line for f in analyze(text, "case.py").findings if f.rule == "prng-key-reuse"] == [EPS]


def test_a_class_of_unknown_base_may_draw():
    text = CASE.replace("class Head(hk.Module):", "class Head(Base):").replace("import jax\n", "import jax\nfrom lib import Base\n", 1)
    text = text.replace("@NET@", "plain").replace("APPLY", "net.apply(params, key, x)")
    assert [f.line for f in analyze(text, "case.py").findings if f.rule == "prng-key-reuse"] == [EPS + 1]
