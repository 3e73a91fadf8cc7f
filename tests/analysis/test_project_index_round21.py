"""Round 21's engine class across modules: a key split and mapped, piece by piece, over a function through
`functools.partial` and `jax.vmap`/`eqx.filter_vmap` (transformer-flows' `evaluate`): what that function draws
from its key parameter is what the mapped call draws, with the call's arguments at the parameters after those the
partial filled. The function may sit in another module, asked through the project index from the module that
maps it and from a module that calls the mapping one. Each clean case has its bug twin (the labelled pair
`clean__vmapped_partial_ignores_its_key` / `prng-key-reuse__vmapped_partial_draws_from_its_key` ran under JAX on
CPU: the bug twin repeats its dropout masks)."""

from pathlib import Path

import pytest

from tests.analysis.small_projects import findings_in_project, no_shared_index  # noqa: F401 (autouse fixture)

LOSSES = '''\
import jax
import jax.numpy as jnp


def quiet_loss(w, key, x, scale=1.0):
    return scale * jnp.sum((w * x) ** 2)


def dropout_loss(w, key, x, scale=1.0):
    keep = jax.random.bernoulli(key, 0.5, x.shape)
    return scale * jnp.sum((w * jnp.where(keep, x, 0.0)) ** 2)
'''

BATCH = '''\
from functools import partial

import jax
import jax.numpy as jnp

from .losses import {loss}


def batch_loss(w, key, xs):
    keys = jax.random.split(key, xs.shape[0])
    fn = partial({loss}, w, scale=2.0)
    return jnp.mean({mapper}(fn)(keys, xs))
'''

TRAIN = '''\
import jax

from .batch import batch_loss


def train(w, xs, key):
    losses = []
    for step in range(3):
        losses.append(batch_loss(w, key, xs))
    return losses
'''

MAPPED_HERE = '''\
from functools import partial

import jax

from .losses import {loss}


def train(w, xs, key):
    keys = jax.random.split(key, xs.shape[0])
    losses = []
    for step in range(3):
        losses.append(jax.vmap(partial({loss}, w))(keys, xs))
    return losses
'''


def _project(loss: str, mapper: str = "jax.vmap") -> dict[str, str]:
    return {"losses.py": LOSSES, "batch.py": BATCH.format(loss=loss, mapper=mapper), "train.py": TRAIN,
            "here.py": MAPPED_HERE.format(loss=loss)}


@pytest.mark.parametrize("mapper", ["jax.vmap", "jax.jit"])
def test_a_caller_of_the_mapping_module_asks_the_mapped_function(tmp_path: Path, mapper: str) -> None:
    """train.py hands one key to `batch_loss` every step; batch.py splits it and maps `partial(loss, w)` over
    the pieces: `quiet_loss` never reads its key (no finding), `dropout_loss` draws masks from it (found)."""
    assert findings_in_project(tmp_path / "quiet", _project("quiet_loss", mapper), "train.py") == []
    assert ("prng-key-reuse", 9) in findings_in_project(tmp_path / "drop", _project("dropout_loss", mapper), "train.py")


def test_the_mapping_module_asks_the_function_of_another_module(tmp_path: Path) -> None:
    """here.py maps `partial(loss, w)` over the same split keys every step itself."""
    assert findings_in_project(tmp_path / "quiet", _project("quiet_loss"), "here.py") == []
    assert ("prng-key-reuse", 12) in findings_in_project(tmp_path / "drop", _project("dropout_loss"), "here.py")
