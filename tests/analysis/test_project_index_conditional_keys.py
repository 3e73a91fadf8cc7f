"""A callee that draws from its key only while another argument is None (round 35b's false class in generax:
`ContinuousNormalizingFlow(net=net, key=key)` builds a default network from `key` only when no `net` is given,
through `FFJORDTransform(net=net, key=key)` in another module). A caller that gives that argument a value draws
nothing from the key; one that leaves it out, or passes None, still draws. Run under JAX 0.10.2 on CPU when written:
`Flow(3, net=None, key=key)` builds a network whose weights equal `Net(3, key=key)`'s; with `net=a` the network is
`a` itself."""

from pathlib import Path

from tests.analysis.small_projects import findings_in_folder, no_shared_index  # noqa: F401 (autouse fixture)

LAYERS = '''\
import jax


class Net:
    def __init__(self, dim, key):
        self.w = jax.random.normal(key, (dim, dim))


class Transform:
    def __init__(self, dim, net=None, *, key):
        if net is None:
            net = Net(dim, key=key)
        self.net = net


class Flow:
    def __init__(self, dim, net=None, *, key):
        self.transform = Transform(dim, net=net, key=key)


class EagerFlow:
    def __init__(self, dim, net=None, *, key):
        self.default = Net(dim, key=key)  # drawn whatever `net` is
        self.net = net if net is not None else self.default


def pick(dim, net=None, key=None):
    return net if net is not None else Net(dim, key)
'''

DRIVER = '''\
import jax
from flows.layers import EagerFlow, Flow, Net, pick


def given_a_net(dim, other):
    key = jax.random.PRNGKey(0)
    net = Net(dim, key=key)
    flow = Flow(dim, net=net, key=key)
    return flow, Flow(dim, Net(dim, other), key=key), pick(dim, net, key)


def left_out(dim):
    key = jax.random.PRNGKey(0)
    net = Net(dim, key=key)
    return net, Flow(dim, key=key)


def passed_none(dim):
    key = jax.random.PRNGKey(0)
    net = Net(dim, key=key)
    return net, Flow(dim, net=None, key=key)


def drawn_anyway(dim):
    key = jax.random.PRNGKey(0)
    net = Net(dim, key=key)
    return EagerFlow(dim, net=net, key=key)


def maybe_none(dim, net):
    key = jax.random.PRNGKey(0)
    first = Net(dim, key=key)
    return first, Flow(dim, net=net, key=key)
'''


def test_a_key_drawn_only_without_an_argument_draws_nothing_when_it_is_given(tmp_path: Path) -> None:
    found = findings_in_folder(tmp_path, {"flows/__init__.py": "", "flows/layers.py": LAYERS,
                                          "driver.py": DRIVER}, "driver.py")
    lines = sorted(f.line for f in found if f.rule == "prng-key-reuse")
    # given_a_net (8, 9): a value is given, so nothing is drawn again; left out (15), None (21), drawn whatever
    # the net (27), a parameter that may be None (33): drawn again
    assert lines == [15, 21, 27, 33]
