"""Classes of round 35 (first contact on 4d69c86) that need more than one module: a project helper that copies a
key's data to NumPy to check it (pygfmc's `key_data(rng_key)` before a run) draws nothing from it. Run under JAX
0.10.2 on CPU when written: `np.asarray(jnp.asarray(key))` gives the key's two uint32 words and changes nothing the
next draw gives."""

from pathlib import Path

from tests.analysis.small_projects import findings_in_folder, no_shared_index  # noqa: F401 (autouse fixture)

WALKER = '''\
import jax
import jax.numpy as jnp
import numpy as np


def key_data(rng_key):
    rng_key = jnp.asarray(rng_key)
    if str(jax.random.key_impl(rng_key)) not in ("threefry2x32", "fry"):
        raise ValueError("checkpointing needs threefry keys")
    return np.asarray(rng_key, dtype=np.uint32)


def noise(rng_key, n):
    return np.asarray(jax.random.normal(rng_key, (n,)))
'''

DRIVER = '''\
import jax
from walkers.walker import key_data, noise


def run(rng_key, n):
    key_data(rng_key)  # fail early if the stream cannot be checkpointed
    return jax.random.normal(rng_key, (n,))


def run_twice(rng_key, n):
    first = noise(rng_key, n)
    return first, jax.random.normal(rng_key, (n,))
'''


def test_a_helper_copying_the_key_to_numpy_draws_nothing(tmp_path: Path) -> None:
    found = findings_in_folder(tmp_path, {"walkers/__init__.py": "", "walkers/walker.py": WALKER,
                                          "driver.py": DRIVER}, "driver.py")
    # not after key_data (a copy of the key's data); after noise (a draw, its result handed to NumPy)
    assert sorted(f.line for f in found if f.rule == "prng-key-reuse") == [12]


LAYERS = '''\
import jax


class Transport:
    def __init__(self, shape, key, **kwargs):
        self.shape = shape


class Stack:
    def __init__(self, n, key):
        def make(k):
            return jax.random.normal(k, (n,))
        self.weights = [make(k) for k in jax.random.split(key, n)]


class General(Stack):
    def __init__(self, n, key):
        super().__init__(n, key=key)


class Flow(General):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
'''

DEMO = '''\
import jax
from flows.layers import *


def build(key):
    x = jax.random.normal(key, (3,))
    return Transport(x.shape, key=key), x


def train(key):
    flow = Flow(4, key=key)
    batches = jax.random.split(key, 8)
    return flow, batches
'''


def test_star_imports_and_keywords_forwarded_to_super_are_followed(tmp_path: Path) -> None:
    """generax: `from generax.flows.affine import *` gives `ConditionalOptionalTransport`, whose constructor never
    reads its key; `RealNVP(key=key)` reaches the layers that draw through `**kwargs` and `super().__init__`
    (generax/misc/realnvp_vi.py). Run under JAX 0.10.2: `Flow(4, key=key)` draws from `split(key, 4)`, and
    `split(key, 8)` after it repeats those keys as its first four."""
    found = findings_in_folder(tmp_path, {"flows/__init__.py": "", "flows/layers.py": LAYERS, "demo.py": DEMO},
                               "demo.py")
    assert sorted(f.line for f in found if f.rule == "prng-key-reuse") == [12]
