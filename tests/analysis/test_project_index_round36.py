"""Classes of held-out set 8 (recall28) that need more than one module: a project module's function jitted with
`donate_argnums`, called from another module (the caller's array is deleted), and a settings module that names
`jnp.float64` for the program that asks JAX for it. Each project was run under JAX 0.10.2 on CPU when written:
the bug scripts raise "Array has been deleted" and get float32; the clean ones run as meant."""

from pathlib import Path

from tests.analysis.small_projects import findings_in_folder, no_shared_index  # noqa: F401 (autouse fixture)

UPDATE = '''\
from functools import partial

import jax


@partial(jax.jit, donate_argnums=(0,))
def sgd(params, grads, lr=0.1):
    return params - lr * grads


@jax.jit
def sgd_keeping(params, grads, lr=0.1):
    return params - lr * grads
'''

TRAIN = '''\
import jax.numpy as jnp
from trainlib import update
from trainlib.update import sgd, sgd_keeping


def train(params, grads):
    new = update.sgd(params, grads)
    return new, jnp.abs(new - params).max()


def train_imported(params, grads):
    new = sgd(params, grads)
    return new, params.sum()


def train_rebound(params, grads):
    before = jnp.abs(params).max()
    params = sgd(params, grads)
    return params, before


def train_keeping(params, grads):
    new = sgd_keeping(params, grads)
    return new, params.sum()
'''


def _lines(found, rule: str) -> list[int]:
    return sorted(f.line for f in found if f.rule == rule)


def test_a_donating_function_of_another_module_deletes_the_callers_array(tmp_path: Path) -> None:
    found = findings_in_folder(tmp_path, {"trainlib/__init__.py": "", "trainlib/update.py": UPDATE,
                                          "train.py": TRAIN}, "train.py")
    # `params` read after `update.sgd(params, ...)` and `sgd(params, ...)`; not after rebinding it, not after a
    # jitted function that donates nothing
    assert _lines(found, "donated-buffer-reuse") == [8, 13]
    assert all("may be invalid" in f.message for f in found if f.rule == "donated-buffer-reuse")


def test_without_the_project_index_nothing_is_known_of_the_callee() -> None:
    from sharpbits.analysis.engine import analyze

    assert not [f for f in analyze(TRAIN, "train.py").findings if f.rule == "donated-buffer-reuse"]


DTYPES = '''\
import jax.numpy as jnp

REAL = jnp.float64
INDEX = jnp.int32
WIDE = jnp.float64
WIDE = jnp.float32
'''

SIM = '''\
import jax.numpy as jnp
from simcfg import dtypes
from simcfg.dtypes import INDEX, REAL, WIDE


def positions(n):
    return jnp.zeros(n, dtype=REAL)


def velocities(n):
    return jnp.ones(n, dtype=dtypes.REAL)


def cells(n):
    return jnp.zeros(n, dtype=INDEX) + jnp.zeros(n, dtype=WIDE)


if __name__ == "__main__":
    print(positions(4).dtype, velocities(4).dtype, cells(4).dtype)
'''


def test_a_settings_module_naming_float64_is_a_float64_request(tmp_path: Path) -> None:
    found = findings_in_folder(tmp_path, {"simcfg/__init__.py": "", "simcfg/dtypes.py": DTYPES, "sim.py": SIM},
                               "sim.py")
    # REAL (bound once to jnp.float64) by name and through the module; not INDEX, not WIDE (bound twice)
    assert _lines(found, "float64-without-x64") == [7, 11]


def test_a_settings_module_naming_float64_with_x64_enabled_is_silent(tmp_path: Path) -> None:
    enabled = "import jax\njax.config.update('jax_enable_x64', True)\n" + SIM
    found = findings_in_folder(tmp_path, {"simcfg/__init__.py": "", "simcfg/dtypes.py": DTYPES, "sim.py": enabled},
                               "sim.py")
    assert _lines(found, "float64-without-x64") == []


SAMPLERS = '''\
import jax


class FixedSampler:
    def __init__(self, key):
        self.key = key

    def draw(self, n):
        return jax.random.normal(self.key, (n,))


class StreamSampler:
    def __init__(self, key):
        self.key = key

    def draw(self, n):
        self.key, sub = jax.random.split(self.key)
        return jax.random.normal(sub, (n,))
'''

BATCHES = '''\
import jax
from samplers.gaussian import FixedSampler, StreamSampler


def fixed(seed):
    sampler = FixedSampler(jax.random.key(seed))
    return sampler.draw(4), sampler.draw(4)


def streamed(seed):
    sampler = StreamSampler(jax.random.key(seed))
    return sampler.draw(4), sampler.draw(4)


def fixed_by_keyword(key):
    sampler = FixedSampler(key=key)
    first = sampler.draw(4)
    return first, jax.random.normal(key, (4,))
'''


def test_an_object_of_another_module_drawing_its_stored_key_draws_the_same_numbers(tmp_path: Path) -> None:
    found = findings_in_folder(tmp_path, {"samplers/__init__.py": "", "samplers/gaussian.py": SAMPLERS,
                                          "batches.py": BATCHES}, "batches.py")
    # FixedSampler keeps its key: the second draw repeats the first, and a draw from the key it was given repeats
    # it too; StreamSampler splits its key on every draw
    assert _lines(found, "prng-key-reuse") == [7, 18]
