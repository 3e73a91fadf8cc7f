"""The project index (analysis/project_index.py): module summaries read statically, updated when a file changes,
installed packages found without importing them, and key reuse through functions of other modules, in-process
and through `sharpbits check` with its worker processes."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sharpbits.analysis import project_index
from sharpbits.analysis.engine import analyze
from sharpbits.analysis.project_index import ProjectIndex, summarise

HELPERS = '''\
import logging
import jax


def draw_noise(key, shape):
    return jax.random.normal(key, shape)


def split_then_draw(key, flag):
    a, b = jax.random.split(key)
    if flag:
        return jax.random.normal(a, ())
    return b


def maybe_draw(key, flag):
    if flag:
        return jax.random.normal(key, ())
    return None


def log_key(key):
    logging.info("using key %s", key)
    print(f"key={key}")


def drop(key, x):
    del key
    return x


def unused(key, x):
    return x


def passthrough(key):
    return key


def step_key(key, step):
    return jax.random.fold_in(key, step)


def hand_on(key):
    return draw_noise(key, (2,))


class Holder:
    def __init__(self, key, name):
        self.key = key
        self.name = name

    def describe(self):
        return self.name


class Sampler:
    def __init__(self, key):
        self.key = key

    def sample(self):
        return jax.random.normal(self.key, ())
'''

GENERATOR = '''\
import jax


class Keys:
    def __init__(self, seed=0):
        self._key = jax.random.PRNGKey(seed)

    def __next__(self):
        self._key, key = jax.random.split(self._key)
        return key

    @property
    def fresh(self):
        return next(self)
'''


def _project(tmp_path: Path, main: str) -> Path:
    pkg = tmp_path / "proj" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .helpers import draw_noise, hand_on\n")
    (pkg / "helpers.py").write_text(HELPERS)
    (pkg / "keys.py").write_text(GENERATOR)
    (pkg / "main.py").write_text(main)
    return pkg


@pytest.fixture(autouse=True)
def _no_shared_index():
    project_index._shared = None
    yield
    project_index._shared = None


def test_summaries_say_what_each_function_does_with_its_key():
    summary = summarise(HELPERS, "pkg.helpers", "helpers.py")
    uses = {name: fn.params[0].uses for name, fn in summary.functions.items() if fn.params}
    assert uses["draw_noise"] == {"draw"}
    assert uses["split_then_draw"] == {"split"}
    assert uses["log_key"] == {"ignore"}
    assert uses["drop"] == {"ignore"}
    assert uses["unused"] == {"ignore"}
    assert uses["passthrough"] == {"return"}
    assert uses["step_key"] == {"derive"}
    assert uses["hand_on"] == {"call"}
    assert uses["Holder.__init__"] == {"ignore"}  # stored on self, never read
    assert uses["Sampler.__init__"] == {"store"}  # stored on self and drawn from by `sample`
    assert summary.functions["draw_noise"].params[1].uses == {"ignore"}  # the shape is no key


def test_consumption_follows_calls_across_modules(tmp_path):
    pkg = _project(tmp_path, "")
    index = ProjectIndex()
    for path in pkg.glob("*.py"):
        index.update(path, path.read_text())
    answers = {}
    for name in ("draw_noise", "split_then_draw", "maybe_draw", "log_key", "drop", "unused", "passthrough",
                 "step_key", "hand_on", "Holder", "Sampler"):
        fn = index.function(f"pkg.helpers.{name}")
        assert fn is not None, name
        answers[name] = index.consumption(fn, "key")
    assert answers == {"draw_noise": "always", "split_then_draw": "always", "maybe_draw": "maybe", "log_key": None,
                       "drop": None, "unused": None, "passthrough": None, "step_key": None, "hand_on": "always",
                       "Holder": None, "Sampler": "maybe"}
    assert index.function("pkg.draw_noise") is index.function("pkg.helpers.draw_noise")  # a package's re-export
    assert index.key_generator("pkg.keys.Keys", "fresh") and index.key_generator("pkg.keys.Keys", "__next__")


def test_a_changed_file_updates_its_summary_and_an_unchanged_one_is_kept(tmp_path):
    pkg = _project(tmp_path, "")
    index = ProjectIndex()
    path = pkg / "helpers.py"
    first = index.update(path, HELPERS)
    assert index.update(path, HELPERS) is first  # the same text: not summarised again
    parsed = index.parsed
    fn = index.function("pkg.helpers.unused")
    assert fn is not None and index.consumption(fn, "key") is None
    changed = HELPERS.replace("def unused(key, x):\n    return x", "def unused(key, x):\n    return jax.random.normal(key, ())")
    index.update(path, changed, lazy=True)  # the language server's way: summarised when first asked
    assert index.parsed == parsed
    fn = index.function("pkg.helpers.unused")
    assert fn is not None and index.consumption(fn, "key") == "always"
    assert index.parsed == parsed + 1


def test_installed_packages_are_read_from_the_search_path_never_imported(tmp_path, monkeypatch):
    site = tmp_path / "site"
    (site / "boobytrap").mkdir(parents=True)
    (site / "boobytrap" / "__init__.py").write_text("raise SystemExit('imported!')\nfrom .core import sample\n")
    (site / "boobytrap" / "core.py").write_text("import jax\n\ndef sample(key):\n    return jax.random.normal(key, ())\n")
    monkeypatch.syspath_prepend(str(site))
    index = ProjectIndex()
    fn = index.function("boobytrap.sample")
    assert fn is not None and index.consumption(fn, "key") == "always"
    assert "boobytrap" not in sys.modules and "boobytrap.core" not in sys.modules
    text = "import jax\nfrom boobytrap import sample\n\ndef f(key):\n    a = sample(key)\n    b = sample(key)\n    return a, b\n"
    found = analyze(text, str(tmp_path / "user.py"), project=index).findings
    assert [(f.rule, f.line) for f in found] == [("prng-key-reuse", 6)]



def test_a_namespace_folder_inside_an_installed_package_is_read_never_imported(tmp_path, monkeypatch):
    # a folder without __init__.py below a regular package (as some wheels ship): PathFinder would ask
    # sys.modules for the parent package, which is never imported here (this raised KeyError and stopped the
    # analysis of the file that imports it)
    site = tmp_path / "site"
    (site / "nsbooby" / "ops").mkdir(parents=True)
    (site / "nsbooby" / "__init__.py").write_text("raise SystemExit('imported!')\n")
    (site / "nsbooby" / "ops" / "noise.py").write_text(
        "import jax\n\ndef sample(key):\n    return jax.random.normal(key, ())\n")
    monkeypatch.syspath_prepend(str(site))
    index = ProjectIndex()
    fn = index.function("nsbooby.ops.noise.sample")
    assert fn is not None and index.consumption(fn, "key") == "always"
    assert index.function("nsbooby.ops.missing.sample") is None
    assert not any(name.startswith("nsbooby") for name in sys.modules)
    text = ("import jax\nfrom nsbooby.ops.noise import sample\n\n"
            "def f(key):\n    a = sample(key)\n    b = sample(key)\n    return a, b\n")
    found = analyze(text, str(tmp_path / "user.py"), project=index).findings
    assert [(f.rule, f.line) for f in found] == [("prng-key-reuse", 6)]

MAIN = '''\
import jax
from pkg import draw_noise
from pkg.helpers import Holder, Sampler, drop, hand_on, log_key, maybe_draw, unused
from pkg.keys import Keys


def twice(key):
    a = draw_noise(key, (3,))
    b = hand_on(key)
    return a, b


def keeps_then_draws(key, x):
    log_key(key)
    x = drop(key, x)
    x = unused(key, x)
    h = Holder(key, "run")
    return jax.random.normal(key, (3,)) + x, h


def stored_then_drawn(key):
    s = Sampler(key)
    return s.sample(), jax.random.normal(key, ())


def generated():
    keys = Keys(0)
    return jax.random.normal(keys.fresh, ()), jax.random.normal(keys.fresh, ())


def two_maybes(key, flag):
    return maybe_draw(key, flag), maybe_draw(key, not flag)
'''

EXPECTED = [("prng-key-reuse", 9), ("prng-key-reuse", 23)]


def test_key_reuse_through_other_modules(tmp_path):
    pkg = _project(tmp_path, MAIN)
    index = ProjectIndex()
    for path in pkg.glob("*.py"):
        index.update(path, path.read_text())
    found = analyze(MAIN, str(pkg / "main.py"), project=index).findings
    assert [(f.rule, f.line) for f in found] == EXPECTED
    # without the index the callees are unknown: the cross-module reuse is missed and the keeping callees flagged
    plain = analyze(MAIN, str(pkg / "main.py")).findings
    assert [(f.rule, f.line) for f in plain] == [("prng-key-reuse", 18), ("prng-key-reuse", 23),
                                                 ("prng-key-reuse", 28)]


def test_check_indexes_the_run_first_in_worker_processes(tmp_path):
    pkg = _project(tmp_path, MAIN)
    for i in range(4):  # enough files for worker processes
        (pkg / f"extra_{i}.py").write_text(f"X = {i}\n")
    env = {**os.environ, "PYTHONPATH": ""}
    cmd = [sys.executable, "-m", "sharpbits", "check", str(pkg.parent), "--format", "json", "--no-cache",
           "--jobs", "2", "--timeout", "60"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert out.returncode == 1, out.stderr
    findings = [(f["rule"], Path(f["path"]).name, f["line"]) for f in json.loads(out.stdout)]
    assert sorted(findings) == [(rule, "main.py", line) for rule, line in EXPECTED]


def test_the_result_cache_follows_a_callee_that_changed(tmp_path):
    pkg = _project(tmp_path, MAIN)
    cache = tmp_path / "cache"
    cmd = [sys.executable, "-m", "sharpbits", "check", str(pkg / "main.py"), str(pkg / "helpers.py"),
           str(pkg / "__init__.py"), "--format", "json", "--cache-dir", str(cache), "--jobs", "1"]

    def lines() -> list[int]:
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, check=False)
        return sorted(f["line"] for f in json.loads(out.stdout) if f["path"].endswith("main.py"))

    assert lines() == [9, 23]
    helpers = pkg / "helpers.py"
    helpers.write_text(HELPERS.replace('    logging.info("using key %s", key)\n',
                                       '    logging.info("using key %s", key)\n    jax.random.normal(key, ())\n'))
    assert lines() == [9, 18, 23]  # log_key now draws: main.py's cached findings are not used


def test_an_edit_no_caller_can_see_keeps_the_other_files_cached(tmp_path):
    """The cache key holds the project's shape (what each module shows its callers), not every file's text: an
    edit inside a function that changes no summary re-analyses the edited file alone; one that changes what a
    function does with its key re-analyses its callers too."""
    pkg = _project(tmp_path, MAIN)
    cache = tmp_path / "cache"
    cmd = [sys.executable, "-m", "sharpbits", "check", str(pkg / "main.py"), str(pkg / "helpers.py"),
           str(pkg / "__init__.py"), "--format", "json", "--cache-dir", str(cache), "--jobs", "1"]

    def run() -> tuple[list[int], set[str]]:
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, check=False)
        found = sorted(f["line"] for f in json.loads(out.stdout) if f["path"].endswith("main.py"))
        return found, {p.name for p in cache.rglob("*") if p.is_file()}

    found, entries = run()
    assert found == [9, 23]
    helpers = pkg / "helpers.py"
    assert '"using key %s"' in helpers.read_text()
    helpers.write_text(helpers.read_text().replace('"using key %s"', '"the key in use: %s"'))  # still only logged
    found, after = run()
    assert found == [9, 23]
    assert len(after - entries) == 2  # helpers.py's findings and its module's shape; main.py's entry still holds
    helpers.write_text(helpers.read_text().replace('    logging.info("the key in use: %s", key)\n',
                                                   '    logging.info("the key in use: %s", key)\n'
                                                   '    jax.random.normal(key, ())\n'))
    found, last = run()
    assert found == [9, 18, 23] and len(last - after) == 4  # a new shape: every file of the run again


STAR_HELPERS = '''\
import builtins

import jax
import jax.numpy as jnp
import numpy as onp


def which_np(*args):
    checker = lambda a: isinstance(a, jnp.ndarray) and not isinstance(a, onp.ndarray)
    if builtins.any(jax.tree_util.tree_leaves(jax.tree_util.tree_map(checker, args))):
        return jnp
    return onp


def kinds(*args):
    return [type(a).__name__ for a in args]


def first(*args):
    return jax.random.normal(args[0], (3,))


def each(*keys):
    return [jax.random.normal(k, (3,)) for k in keys]


def forward(*args):
    return first(*args)


def unpacked(*args):
    a, b = args
    return jax.random.normal(a, (3,)), b


def mapped(*args):
    return jax.tree_util.tree_map(lambda k: jax.random.normal(k, (3,)), args)
'''

STAR_MAIN = '''\
import jax
from pkg.star import each, first, forward, kinds, mapped, unpacked, which_np


def uniform(rng, shape=()):
    if which_np(rng) is jax.numpy:
        return jax.random.uniform(rng, shape=shape)
    return None


def described(key):
    return kinds(key), jax.random.normal(key, (3,))


def drawn_first(key):
    return first(key), jax.random.normal(key, (3,))


def drawn_each(key):
    return each(key), jax.random.normal(key, (3,))


def drawn_forward(key):
    return forward(key), jax.random.normal(key, (3,))


def drawn_unpacked(key, other):
    return unpacked(key, other), jax.random.normal(key, (3,))


def drawn_mapped(key):
    return mapped(key), jax.random.normal(key, (3,))
'''


def test_a_star_args_callee_consumes_a_key_as_its_uses_say(tmp_path):
    """A key handed to `*args` is consumed when the tuple is: an element drawn from (`args[0]`, a loop over it,
    `f(*args)` on), unpacked or mapped by a function that may draw ("maybe"); a function that only asks what
    its arguments are (jax-jumpy's `which_np`: `isinstance` over the leaves) draws nothing. Before, every key
    handed to `*args` counted as consumed."""
    pkg = tmp_path / "proj" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "star.py").write_text(STAR_HELPERS)
    (pkg / "main.py").write_text(STAR_MAIN)
    index = ProjectIndex()
    for path in pkg.glob("*.py"):
        index.update(path, path.read_text())
    found = analyze(STAR_MAIN, str(pkg / "main.py"), project=index).findings
    assert [(f.rule, f.line) for f in found] == [("prng-key-reuse", line) for line in (16, 20, 24, 28, 32)]
    assert {name: index.consumption(index.function(f"pkg.star.{name}"), project_index.STAR)
            for name in ("which_np", "kinds", "first", "each", "forward", "unpacked", "mapped")} == {
        "which_np": None, "kinds": None, "first": "always", "each": "always", "forward": "always",
        "unpacked": "maybe", "mapped": "maybe"}
