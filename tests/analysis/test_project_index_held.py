"""Round 20 (issue 22) class in the project index: a method that hands its key to an object it holds
(`self.noise.apply(key, value)`) draws what that object's class draws. The classes the attribute may hold come
from every assignment to it; for an object built in the caller, a default its constructor was not given is what
it holds. Anything else (a value passed in, `**kwargs` forwarded, a write from outside the class) stays a
possible draw."""

from pathlib import Path

from sharpbits.analysis.engine import analyze
from sharpbits.analysis.project_index import ProjectIndex

NOISE = '''\
import jax


class Noiseless:
    def apply(self, key, value):
        return value


class Gaussian:
    def apply(self, key, value):
        return value + jax.random.normal(key, value.shape)
'''

PROBLEM = '''\
from .noise import Gaussian, Noiseless


class Problem:
    def __init__(self, dims, noise=None):
        self.dims = dims
        self.noise = Noiseless() if noise is None else noise

    def evaluate(self, key, x):
        return self.noise.apply(key, x)


class Quiet:
    def __init__(self):
        self.noise = Noiseless()

    def evaluate(self, key, x):
        return self.noise.apply(key, x)


class Loud(Quiet):
    def reset(self):
        self.noise = Gaussian()


class Forwarding(Problem):
    def __init__(self, dims, **kwargs):
        super().__init__(dims, **kwargs)
'''

MAIN = '''\
import jax

from .noise import Gaussian
from .problem import Forwarding, Problem


def default(x):
    problem = Problem(4)
    key = jax.random.key(0)
    y = jax.random.normal(key, (4,))
    return problem.evaluate(key, x + y)


def passed(x):
    problem = Problem(4, noise=Gaussian())
    key = jax.random.key(0)
    y = jax.random.normal(key, (4,))
    return problem.evaluate(key, x + y)


def positional(x):
    problem = Problem(4, Gaussian())
    key = jax.random.key(0)
    y = jax.random.normal(key, (4,))
    return problem.evaluate(key, x + y)


def transformed(x):
    problem = Problem(4)
    key = jax.random.key(0)
    y = jax.random.normal(key, (4,))
    return jax.jit(jax.vmap(problem.evaluate))(key, x + y)


def forwarded(x):
    problem = Forwarding(4)
    key = jax.random.key(0)
    y = jax.random.normal(key, (4,))
    return problem.evaluate(key, x + y)
'''


def _index(tmp_path: Path, main: str = MAIN) -> tuple[ProjectIndex, Path]:
    pkg = tmp_path / "proj" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "noise.py").write_text(NOISE)
    (pkg / "problem.py").write_text(PROBLEM)
    (pkg / "main.py").write_text(main)
    index = ProjectIndex([tmp_path / "proj"])
    for path in pkg.glob("*.py"):
        index.update(path, path.read_text())
    return index, pkg


def test_the_classes_an_attribute_holds_as_assigned_and_as_built(tmp_path):
    index, _ = _index(tmp_path)
    assert index.held_classes("pkg.problem.Quiet", "noise") == [  # a subclass's object may hold a Gaussian
        "pkg.noise.Noiseless", "pkg.noise.Gaussian"]
    assert index.held_classes("pkg.problem.Quiet", "noise", ("pkg.problem.Quiet", frozenset(), 0, ())) == [
        "pkg.noise.Noiseless"]
    assert sorted(index.held_classes("pkg.problem.Quiet", "noise", ("pkg.problem.Loud", frozenset(), 0, ())) or ()) == [
        "pkg.noise.Gaussian", "pkg.noise.Noiseless"]  # `reset` may run: either
    assert index.held_classes("pkg.problem.Problem", "noise") is None  # the value passed in is unknown
    assert index.held_classes("pkg.problem.Problem", "noise", ("pkg.problem.Problem", frozenset(), 1, ())) == [
        "pkg.noise.Noiseless"]
    assert index.held_classes("pkg.problem.Problem", "noise",
                              ("pkg.problem.Problem", frozenset({"noise"}), 1, ())) is None
    assert index.held_classes("pkg.problem.Problem", "noise", ("pkg.problem.Problem", frozenset(), 2, ())) is None
    # the constructor that runs is the subclass's, which forwards **kwargs: the default may be replaced
    assert index.held_classes("pkg.problem.Problem", "noise", ("pkg.problem.Forwarding", frozenset(), 1, ())) is None


def test_a_key_handed_only_to_a_default_that_draws_nothing_is_not_consumed(tmp_path):
    index, pkg = _index(tmp_path)
    found = analyze(MAIN, str(pkg / "main.py"), project=index).findings
    lines = sorted(f.line for f in found if f.rule == "prng-key-reuse")
    # passed (Gaussian by keyword), positional (Gaussian as the second argument), forwarded (**kwargs): reuse;
    # default and transformed: the default Noiseless ignores the key
    assert lines == [18, 25, 39]


def test_a_write_from_outside_the_class_keeps_the_call_a_possible_draw(tmp_path):
    main = MAIN.replace("    problem = Problem(4)\n", "    problem = Problem(4)\n    problem.noise = Gaussian()\n", 1)
    index, pkg = _index(tmp_path, main)
    assert index.held_classes("pkg.problem.Problem", "noise", ("pkg.problem.Problem", frozenset(), 1, ())) is None
    found = analyze(main, str(pkg / "main.py"), project=index).findings
    assert 12 in {f.line for f in found if f.rule == "prng-key-reuse"}


METRICS = '''\
import jax
import jax.numpy as jnp


class Count:
    def init(self, key):
        return jnp.zeros(())


class Sampled:
    def init(self, key):
        return jax.random.normal(key, (3,))


class Multi:
    def __init__(self, metrics):
        self.metrics = metrics

    def init(self, key):
        keys = jax.random.split(key, len(self.metrics))
        by_name = dict(zip(self.metrics.keys(), keys))
        return {name: metric.init(by_name[name]) for name, metric in self.metrics.items()}
'''

USES = '''\
import jax

from .metrics import Count, Multi, Sampled


def quiet():
    key = jax.random.key(0)
    test_set = jax.random.normal(key, (3,))
    multi = Multi({"count": Count()})
    return multi.init(key), test_set


def drawing():
    key = jax.random.key(0)
    test_set = jax.random.normal(key, (3,))
    multi = Multi({"count": Count(), "sampled": Sampled()})
    return multi.init(key), test_set
'''


def test_the_elements_a_container_was_built_with_are_what_its_methods_call(tmp_path):
    pkg = tmp_path / "proj" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "metrics.py").write_text(METRICS)
    (pkg / "uses.py").write_text(USES)
    index = ProjectIndex([tmp_path / "proj"])
    for path in pkg.glob("*.py"):
        index.update(path, path.read_text())
    multi = index.function("pkg.metrics.Multi.init")
    assert multi is not None
    assert index.consumption(multi, "key") == "maybe"  # built elsewhere with anything
    assert index.held_classes("pkg.metrics.Multi", "metrics[]", ("pkg.metrics.Multi", frozenset(), 1, (
        ("metrics", ("pkg.metrics.Count",)),))) == ["pkg.metrics.Count"]
    assert index.consumption(multi, "key", built=("pkg.metrics.Multi", frozenset(), 1, (
        ("metrics", ("pkg.metrics.Count",)),))) is None
    assert index.consumption(multi, "key", built=("pkg.metrics.Multi", frozenset(), 1, (
        ("metrics", ("pkg.metrics.Count", "pkg.metrics.Sampled")),))) == "maybe"
    found = analyze(USES, str(pkg / "uses.py"), project=index).findings
    assert [f.line for f in found if f.rule == "prng-key-reuse"] == [17]


def test_tree_at_or_replace_of_the_attribute_anywhere_in_the_project_is_a_write(tmp_path):
    for extra in ("import equinox as eqx\n\n\ndef swap(p, n):\n    return eqx.tree_at(\n        lambda m: m.noise, p, n)\n",
                  "import dataclasses\n\n\ndef swap(p, n):\n    return dataclasses.replace(p, noise=n)\n"):
        root = tmp_path / str(len(extra))
        index, pkg = _index(root)
        (pkg / "swap.py").write_text(extra)
        index.update(pkg / "swap.py", extra)
        assert index.held_classes("pkg.problem.Problem", "noise", ("pkg.problem.Problem", frozenset(), 1, ())) is None


def test_a_container_whose_elements_may_be_set_holds_unknown_elements(tmp_path):
    built = ("pkg.metrics.Multi", frozenset(), 1, (("metrics", ("pkg.metrics.Count",)),))
    for n, (where, extra) in enumerate((
            ("metrics.py", "\n    def add(self, name, metric):\n        self.metrics[name] = metric\n"),
            ("metrics.py", "\n    def add(self, more):\n        self.metrics.update(more)\n"),
            ("other.py", "def add(multi, metric):\n    multi.metrics['sampled'] = metric\n"))):
        pkg = tmp_path / str(n) / "proj" / "pkg"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "metrics.py").write_text(METRICS + (extra if where == "metrics.py" else ""))
        if where == "other.py":
            (pkg / "other.py").write_text(extra)
        index = ProjectIndex([tmp_path / str(n) / "proj"])
        for path in pkg.glob("*.py"):
            index.update(path, path.read_text())
        assert index.held_classes("pkg.metrics.Multi", "metrics[]", built) is None, extra
