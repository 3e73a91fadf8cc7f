"""Round 30's classes that need more than one module (a labelled pair cannot be one file): a registry decorator of
another module (adjaxt's `@init_fn_for(Config)`, reached through `from pkg.config import *`) hands the function
back, so what the function does with its key is known; a package that turns x64 on at import through its own
set-up function (jaxvacua's `set_precision(default)`). Each project was run under JAX on CPU when written: the bug
twins repeat numbers or give float32, the clean ones do not."""

import json
import subprocess
import sys
from pathlib import Path

from tests.analysis.small_projects import findings_in_project, no_shared_index  # noqa: F401 (autouse fixture)
from tests.conftest import ROOT

CONFIG = '''\
import jax.numpy as jnp


def init_fn_for(cfg_class):
    """Decorator factory to attach an init function to a config class."""
    def decorator(fn):
        cfg_class.init_fn = staticmethod(fn)
        return fn
    return decorator


def register(fn):
    REGISTRY[fn.__name__] = fn
    return fn


REGISTRY = {}


class NormConfig:
    dim = 4
'''

LAYERS = '''\
import jax
import jax.numpy as jnp
from pkg.config import *


@init_fn_for(NormConfig)
def norm_init(key, cfg):
    return jnp.ones((cfg.dim,))


@register
def dense_init(key, cfg):
    return jax.random.normal(key, (2, cfg.dim))
'''

USE = '''\
import jax
from pkg.config import NormConfig
from pkg.layers import dense_init, norm_init


def test_norm():
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (2, 4))
    w = norm_init(key, NormConfig)
    return x * w


def test_dense():
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (2, 4))
    w = dense_init(key, NormConfig)
    return x @ w.T
'''


def test_a_registry_decorator_of_another_module_hands_the_function_back(tmp_path):
    """`norm_init` never reads its key (weights of ones): drawing `x` from the key first is no reuse. `dense_init`
    draws its weights from the key `x` came from: `w` repeats `x`'s numbers (True under JAX), reported."""
    found = findings_in_project(tmp_path, {"config.py": CONFIG, "layers.py": LAYERS, "use.py": USE}, "use.py")
    assert found == [("prng-key-reuse", 16)]


def test_an_unknown_decorator_still_hides_the_function(tmp_path):
    """A decorator that returns something else (a wrapper it builds) is not seen through: the call is unknown,
    and a key handed to an unknown call counts as consumed (as before)."""
    config = CONFIG.replace("        return fn\n    return decorator", "        return lambda *a: fn(*a)\n    return decorator")
    found = findings_in_project(tmp_path, {"config.py": config, "layers.py": LAYERS, "use.py": USE}, "use.py")
    assert found == [("prng-key-reuse", 9), ("prng-key-reuse", 16)]


INIT_WITH_SETTER = '''\
import os

import jax


def set_precision(mode="float64"):
    if mode == "float64":
        jax.config.update("jax_enable_x64", True)
    else:
        jax.config.update("jax_enable_x64", False)


set_precision(os.environ.get("PKG_PRECISION", "float64"))
'''

TEST_MODULE = '''\
import jax.numpy as jnp

import pkg


def test_flux():
    flux = jnp.array([2, -1, 3]).astype(jnp.float64)
    assert flux.dtype == jnp.float64
'''


def test_x64_turned_on_by_a_setter_the_package_calls_at_import(tmp_path):
    """Importing `pkg` runs `set_precision(...)`, which turns x64 on by default: `jnp.float64` in a test of the
    package is 64-bit (the test passes under JAX). Without the call at import it would be float32: reported."""
    files = {"__init__.py": INIT_WITH_SETTER, "tests/test_flux.py": TEST_MODULE}
    assert findings_in_project(tmp_path / "a", files, "tests/test_flux.py") == []
    never_called = INIT_WITH_SETTER.replace('set_precision(os.environ.get("PKG_PRECISION", "float64"))\n', "")
    files = {"__init__.py": never_called, "tests/test_flux.py": TEST_MODULE}
    assert [rule for rule, _ in findings_in_project(tmp_path / "b", files, "tests/test_flux.py")] == [
        "float64-without-x64"]


def test_the_cli_reads_a_src_layout_registry(tmp_path):
    """Through `sharpbits check` on a folder laid out as adjaxt is (`src/pkg/...`, `tests/...`): the same answers."""
    src = tmp_path / "src" / "pkg"
    src.mkdir(parents=True)
    (src / "__init__.py").write_text("")
    (src / "config.py").write_text(CONFIG)
    (src / "layers.py").write_text(LAYERS)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_layers.py").write_text(USE)
    run = subprocess.run([sys.executable, "-m", "sharpbits", "check", str(tmp_path), "--format", "json"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120,
                         env={"PYTHONPATH": str(ROOT / "server"), "PATH": "/usr/bin:/bin"})
    findings = json.loads(run.stdout)
    found = sorted((Path(f["path"]).name, f["line"], f["rule"]) for f in findings)
    assert found == [("test_layers.py", 16, "prng-key-reuse")], run.stdout + run.stderr
