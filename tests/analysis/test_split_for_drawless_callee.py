"""Issue 22 (round 27, nflojax's flow builder): a split of a consumed key whose keys reach only a function of
another module that never draws from them (`LoftTransform.create(loft_key, ...)` does `del key`) gives no number to
anything, also when one of its names (`key`) was read before the split: in a function's straight-line code an
earlier read saw an older key. Confirmed under JAX (jax 0.10, partitionable threefry): `split(k)` equals
`split(k, n)[:2]`, so the drawing callee's key is `keys[1]` (the bug), while the drawless one reads no bit of it.
A read after the split, a split in a loop, or a callee that draws stays a use."""

from pathlib import Path

import jax

from tests.analysis.small_projects import findings_in_project, no_shared_index  # noqa: F401 (autouse fixture)

BLOCKS = '''\
import jax


class Loft:
    def __init__(self, dim):
        self.dim = dim

    @classmethod
    def create(cls, key, dim):
        del key  # no learnable parameters
        return cls(dim), {}


class Drawn:
    def __init__(self, dim):
        self.dim = dim

    @classmethod
    def create(cls, key, dim):
        return cls(dim), {"w": jax.random.normal(key, (dim,))}
'''


def _builder(block: str, tail: str = "return out, made") -> str:
    return f'''\
import jax

from pkg.blocks import {block}


def build(key, n, dim):
    keys = jax.random.split(key, n)
    out = [jax.random.normal(k, (dim,)) for k in keys]
    key, last_key = jax.random.split(key)
    made = {block}.create(last_key, dim=dim)
    {tail}
'''


def _loop_builder(block: str) -> str:
    return f'''\
import jax

from pkg.blocks import {block}


def build(key, n, dim):
    made = []
    for _ in range(n):
        x = jax.random.normal(key, (dim,))
        key, last_key = jax.random.split(key)
        made.append(({block}.create(last_key, dim=dim), x))
    return made
'''


def test_split_for_a_callee_that_deletes_its_key_after_earlier_reads(tmp_path: Path) -> None:
    found = findings_in_project(tmp_path / "a", {"blocks.py": BLOCKS, "use.py": _builder("Loft")}, "use.py")
    assert found == []


def test_split_for_a_callee_that_draws_stays_a_use(tmp_path: Path) -> None:
    found = findings_in_project(tmp_path / "b", {"blocks.py": BLOCKS, "use.py": _builder("Drawn")}, "use.py")
    assert found == [("prng-key-reuse", 9)]


def test_a_key_read_after_the_split_stays_a_use(tmp_path: Path) -> None:
    use = _builder("Loft", "return out, made, jax.random.normal(key, (dim,))")
    found = findings_in_project(tmp_path / "c", {"blocks.py": BLOCKS, "use.py": use}, "use.py")
    assert ("prng-key-reuse", 9) in found


def test_a_split_in_a_loop_stays_a_use(tmp_path: Path) -> None:
    found = findings_in_project(tmp_path / "d", {"blocks.py": BLOCKS, "use.py": _loop_builder("Loft")}, "use.py")
    assert ("prng-key-reuse", 10) in found


def test_under_jax_the_drawing_callee_gets_a_key_already_drawn_from() -> None:
    key = jax.random.PRNGKey(0)
    keys = jax.random.split(key, 4)
    _, last_key = jax.random.split(key)
    assert bool((last_key == keys[1]).all())  # raw uint32 keys


# ---- a call whose returned values computed from the key are all thrown away (nflojax's tests) ----------------

NETS = '''\
import flax.linen as nn
import jax.numpy as jnp


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


def init_mlp(key, dim):
    mlp = MLP()
    variables = mlp.init(key, jnp.zeros((1, dim)))
    params = variables["params"]
    return mlp, params


def init_logged(key, dim, log):
    mlp = MLP()
    params = mlp.init(key, jnp.zeros((1, dim)))["params"]
    log.append(params)
    return mlp, None


CACHE = {}


def init_cached(key, dim):
    mlp = MLP()
    params = mlp.init(key, jnp.zeros((1, dim)))["params"]
    CACHE[dim] = params
    return mlp, None


def init_kept(key, dim):
    mlp = MLP()
    draws = []
    draws.append(mlp.init(key, jnp.zeros((1, dim))))
    return draws, None
'''


def _test(init: str, target: str = "mlp, _", extra: str = "") -> str:
    return f'''\
import jax

from pkg.nets import {init}


def test_identity(key, dim):
    {target} = {init}(key, dim{extra})
    x = jax.random.normal(key, (4, dim))
    return {target.split(",")[0]}, x
'''


def test_returned_draws_thrown_away_are_no_use(tmp_path: Path) -> None:
    found = findings_in_project(tmp_path / "e", {"nets.py": NETS, "use.py": _test("init_mlp")}, "use.py")
    assert found == []


def test_returned_draws_kept_stay_a_use(tmp_path: Path) -> None:
    found = findings_in_project(tmp_path / "f", {"nets.py": NETS, "use.py": _test("init_mlp", "mlp, params")}, "use.py")
    assert found == [("prng-key-reuse", 8)]


def test_draws_stored_elsewhere_stay_a_use(tmp_path: Path) -> None:
    use = _test("init_logged", extra=", log=[]")
    found = findings_in_project(tmp_path / "g", {"nets.py": NETS, "use.py": use}, "use.py")
    assert found == [("prng-key-reuse", 8)]


def test_draws_written_into_a_module_global_stay_a_use(tmp_path: Path) -> None:
    found = findings_in_project(tmp_path / "i", {"nets.py": NETS, "use.py": _test("init_cached")}, "use.py")
    assert found == [("prng-key-reuse", 8)]


def test_draws_appended_to_a_returned_list_stay_a_use(tmp_path: Path) -> None:
    found = findings_in_project(tmp_path / "h", {"nets.py": NETS, "use.py": _test("init_kept", "draws, _")}, "use.py")
    assert found == [("prng-key-reuse", 8)]


def test_under_jax_kept_parameters_meet_the_later_draw() -> None:
    def init_mlp(key, dim):  # the same shape of code without flax: the module spec, and weights drawn from key
        return ("mlp", dim), {"w": jax.random.normal(key, (4, dim))}

    key = jax.random.PRNGKey(0)
    _, params = init_mlp(key, 3)
    x = jax.random.normal(key, (4, 3))
    assert bool((params["w"] == x).all())  # kept, the parameters are the inputs; thrown away, nothing meets x


STATE = '''\
from typing import NamedTuple


class State(NamedTuple):
    position: float
    key: object
    step: int
'''


def test_a_key_stored_in_a_record_of_another_module_stays_a_use(tmp_path: Path) -> None:
    use = '''\
import jax

from pkg.state import State


def euler_step(state):
    position, key, step = state
    noise = jax.random.normal(key, ())
    _, key_next = jax.random.split(key)
    return State(position + noise, key_next, step + 1)
'''
    found = findings_in_project(tmp_path / "j", {"state.py": STATE, "use.py": use}, "use.py")
    assert found == [("prng-key-reuse", 9)]  # diffuse-jax's Euler-Maruyama step: the stored key is drawn later
