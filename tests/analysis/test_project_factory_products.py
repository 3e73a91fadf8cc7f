"""Factory products of another module (issue 22, blackjax's test_trajectory.py): a local name bound once to a call
of a factory the project index summarised (`integrate = trajectory.integration(...)`), or to one element of the
tuple (or NamedTuple record) of inner functions it returns (`momentum_generator, kinetic_energy =
metrics.gaussian(...)`), runs that inner function when called, also through `jax.jit(f)` or chex's
`self.variant(f)`, which pass the arguments on. The bug project was run under JAX on CPU when written: the
integrator's noise is the momentum's draw (`moved - position == momentum`); the clean one's is not."""

from pathlib import Path

from sharpbits.analysis.project_index import ProjectIndex

from tests.analysis.small_projects import findings_in_project, no_shared_index  # noqa: F401 (autouse fixture)

METRICS = '''\
from typing import Callable, NamedTuple

import jax


class Metric(NamedTuple):
    sample_momentum: Callable
    kinetic_energy: Callable


class Builder:
    def __init__(self, first, second):
        self.parts = (second, first)


def gaussian(scale):
    def momentum_generator(rng_key, position):
        return scale * jax.random.normal(rng_key, position.shape)

    def kinetic_energy(momentum):
        return 0.5 * (momentum ** 2).sum()

    return Metric(momentum_generator, kinetic_energy)


def gaussian_built(scale):
    def momentum_generator(rng_key, position):
        return scale * jax.random.normal(rng_key, position.shape)

    def kinetic_energy(momentum):
        return 0.5 * (momentum ** 2).sum()

    return Builder(momentum_generator, kinetic_energy)


def integration(step_size):
    def integrate(rng_key, position):
        return position + step_size * jax.random.normal(rng_key, position.shape)

    return integrate
'''


def _use(split: bool, wrap: str, factory: str = "gaussian") -> str:
    keys = ("momentum_key, step_key = jax.random.split(rng_key)" if split
            else "momentum_key = step_key = None  # unused: both draw from rng_key")
    first, second = ("momentum_key", "step_key") if split else ("rng_key", "rng_key")
    return f'''\
import jax
import jax.numpy as jnp

from pkg import metrics


def step(rng_key, position):
    {keys}
    momentum_generator, kinetic_energy = metrics.{factory}(1.0)
    integrate = metrics.integration(1.0)
    momentum = momentum_generator({first}, position)
    moved = {wrap}(integrate)({second}, position)
    return momentum, moved, kinetic_energy(momentum)


if __name__ == "__main__":
    momentum, moved, _ = step(jax.random.key(0), jnp.zeros(3))
    print("same noise:", bool(jnp.allclose(moved, momentum)))
'''


def test_another_modules_factory_products_share_a_key(tmp_path: Path) -> None:
    found = findings_in_project(tmp_path / "a", {"metrics.py": METRICS, "use.py": _use(False, "jax.jit")}, "use.py")
    assert found == [("prng-key-reuse", 12)]


def test_own_keys_for_another_modules_factory_products(tmp_path: Path) -> None:
    found = findings_in_project(tmp_path / "b", {"metrics.py": METRICS, "use.py": _use(True, "jax.jit")}, "use.py")
    assert found == []


def test_chex_variant_passes_the_arguments_on(tmp_path: Path) -> None:
    use = _use(False, "self.variant").replace("def step(rng_key", "def step(self, rng_key")
    use = use.replace("def step(", "class T:\n    def step(").replace("\n    ", "\n        ").replace(
        "class T:\n        def", "class T:\n    def")
    use = use.split("\n\nif __name__")[0] + "\n"
    found = findings_in_project(tmp_path / "c", {"metrics.py": METRICS, "use.py": use}, "use.py")
    assert found == [("prng-key-reuse", 13)]


def test_the_index_names_the_products_by_position(tmp_path: Path) -> None:
    pkg = tmp_path / "e" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "metrics.py").write_text(METRICS)
    index = ProjectIndex()
    for path in pkg.rglob("*.py"):
        index.update(path, path.read_text())
    view = index.view(pkg / "__init__.py")
    assert view.factory_product("pkg.metrics.gaussian", 0, 2) == "pkg.metrics.gaussian.<locals>.momentum_generator"
    assert view.factory_product("pkg.metrics.gaussian", 1, 2) == "pkg.metrics.gaussian.<locals>.kinetic_energy"
    assert view.factory_product("pkg.metrics.gaussian", 0, 3) is None  # unpacked into another width
    assert view.factory_product("pkg.metrics.gaussian", None) is None  # the record itself is no function
    assert view.factory_product("pkg.metrics.integration", None) == "pkg.metrics.integration.<locals>.integrate"
    assert view.factory_product("pkg.metrics.integration", 0, 1) is None
    # Builder keeps its arguments in another order: a class that is no record says nothing about positions
    assert view.factory_product("pkg.metrics.gaussian_built", 0, 2) is None
