"""float64-without-x64 with x64 turned on outside the module: by a project module it imports, or by a conftest."""

from __future__ import annotations

from pathlib import Path

import pytest
from sharpbits.analysis import project_index
from sharpbits.analysis.engine import Selection, analyze
from sharpbits.analysis.project_index import ProjectIndex
from sharpbits.analysis.x64_reach import x64_facts

ENABLES = "import jax\njax.config.update('jax_enable_x64', True)\n"
ASKS = "import jax.numpy as jnp\n{imports}\ndef test_wide():\n    return jnp.zeros(3, dtype=jnp.float64)\n"


@pytest.fixture(autouse=True)
def _no_shared_index():
    project_index._shared = None
    yield
    project_index._shared = None


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _findings(root: Path, target: str) -> list[str]:
    """The float64-without-x64 findings of `target`, analysed as `sharpbits check` does (every file fed first)."""
    index = ProjectIndex()
    for path in sorted(root.rglob("*.py")):
        index.update(path, path.read_text(), lazy=True)
    path = root / target
    result = analyze(path.read_text(), str(path), Selection(), project=index)
    return [f.rule for f in result.findings if f.rule == "float64-without-x64"]


def _project(tmp_path: Path, extra: dict[str, str]) -> Path:
    root = tmp_path / "proj"
    _write(root, {"pyproject.toml": "[project]\nname = 'pkg'\n", "pkg/__init__.py": "", "pkg/plain.py": "X = 1\n",
                  **extra})
    return root


def test_an_imported_module_that_enables_x64_at_import_silences_the_rule(tmp_path):
    root = _project(tmp_path, {"pkg/backend.py": ENABLES,
                               "pkg/wide_test.py": ASKS.format(imports="from pkg.backend import *")})
    assert _findings(root, "pkg/wide_test.py") == []


def test_through_other_modules_and_package_inits(tmp_path):
    root = _project(tmp_path, {
        "pkg/sub/__init__.py": "from . import backend\n",  # importing pkg.sub.model runs pkg/sub/__init__ first
        "pkg/sub/backend.py": "import jax\nif True:\n    jax.config.jax_enable_x64 = True\n",
        "pkg/sub/model.py": "Y = 2\n",
        "pkg/test_model.py": ASKS.format(imports="from pkg.sub.model import Y"),
    })
    assert _findings(root, "pkg/test_model.py") == []


def test_a_module_not_imported_on_the_way_does_not_count(tmp_path):
    root = _project(tmp_path, {
        "pkg/backend.py": ENABLES,
        "pkg/other.py": "import jax\ndef setup():\n    jax.config.update('jax_enable_x64', True)\n",
        "pkg/late.py": "def f():\n    from pkg import backend\n",  # imported inside a function only
        "pkg/wide_test.py": ASKS.format(imports="from pkg import plain, other, late"),
    })
    assert _findings(root, "pkg/wide_test.py") == ["float64-without-x64"]


def test_a_module_that_turns_x64_off_does_not_count(tmp_path):
    root = _project(tmp_path, {
        "pkg/off.py": "import jax\njax.config.update('jax_enable_x64', False)\n",
        "pkg/wide_test.py": ASKS.format(imports="import pkg.off"),
    })
    assert _findings(root, "pkg/wide_test.py") == ["float64-without-x64"]


def test_a_module_that_turns_x64_on_from_a_setting_may_enable_it(tmp_path):
    """What a setting decides is unknown: the rule is silent rather than claim the program never enables x64."""
    root = _project(tmp_path, {
        "pkg/setting.py": "import os\nimport jax\njax.config.update('jax_enable_x64', os.environ.get('X64'))\n",
        "pkg/wide_test.py": ASKS.format(imports="import pkg.setting"),
    })
    assert _findings(root, "pkg/wide_test.py") == []


def test_a_package_init_that_calls_a_setter_of_another_module_enables_x64_for_its_modules(tmp_path):
    """drbx's `__init__` calls `configure_jax_runtime()` (imported through `runtime/__init__.py` from
    `runtime/performance.py`), which turns x64 on from a precision setting: every module of the package runs after
    it; a script outside the package that never imports it does not."""
    setter = ("import os\n\ndef configure_jax_runtime(precision=None):\n"
              "    precision = precision or os.environ.get('PRECISION', 'float64')\n"
              "    import jax\n    jax.config.update('jax_enable_x64', precision == 'float64')\n")
    root = _project(tmp_path, {
        "pkg/__init__.py": "from .runtime import configure_jax_runtime\n\nconfigure_jax_runtime()\n",
        "pkg/runtime/__init__.py": "from .performance import configure_jax_runtime\n",
        "pkg/runtime/performance.py": setter,
        "pkg/solver/__init__.py": "",
        "pkg/solver/grid.py": ASKS.format(imports="import math"),
        "scripts/standalone.py": ASKS.format(imports="import math"),
    })
    assert _findings(root, "pkg/solver/grid.py") == []
    assert _findings(root, "scripts/standalone.py") == ["float64-without-x64"]


@pytest.mark.parametrize("conftest", [
    ENABLES,
    "import jax\ndef pytest_configure(config):\n    jax.config.update('jax_enable_x64', True)\n",
    "import jax\nimport pytest\n@pytest.fixture(autouse=True)\ndef x64():\n"
    "    jax.config.update('jax_enable_x64', True)\n    yield\n",
    "from pkg import backend\n",
    "import os\nos.environ.setdefault('JAX_ENABLE_X64', 'true')\nimport jax\n",  # before JAX reads its flags
    "import os\nos.environ['JAX_ENABLE_X64'] = '1'\n",
])
def test_a_conftest_above_a_test_that_enables_x64(tmp_path, conftest):
    root = _project(tmp_path, {"pkg/backend.py": ENABLES, "conftest.py": conftest,
                               "pkg/tests/test_wide.py": ASKS.format(imports="")})
    assert _findings(root, "pkg/tests/test_wide.py") == []


def test_a_conftest_counts_for_tests_only_and_not_a_fixture_a_test_must_ask_for(tmp_path):
    root = _project(tmp_path, {
        "conftest.py": "import jax\nimport pytest\n@pytest.fixture\ndef x64():\n"
                       "    jax.config.update('jax_enable_x64', True)\n",
        "pkg/tests/test_wide.py": ASKS.format(imports=""),
        "pkg/tests/helpers.py": ASKS.format(imports=""),
        "other/conftest.py": ENABLES,  # a conftest beside, not above
    })
    assert _findings(root, "pkg/tests/test_wide.py") == ["float64-without-x64"]
    root2 = _project(tmp_path / "two", {"conftest.py": ENABLES, "pkg/helpers.py": ASKS.format(imports="")})
    assert _findings(root2, "pkg/helpers.py") == ["float64-without-x64"]  # not a test: no conftest runs first


def test_facts_of_a_module_text():
    facts = x64_facts("from . import a\nimport b.c\nif x:\n    import jax\n    jax.config.update('jax_enable_x64', 1)\n",
                      "pkg.mod", False)
    assert facts.enables and not facts.hook_enables
    assert set(facts.imports) >= {"pkg", "pkg.a", "b", "b.c", "jax"}


def test_conftests_are_searched_up_to_the_project_root_only(tmp_path):
    # a conftest above the project (the folder of its pyproject.toml) belongs to something else
    _write(tmp_path, {"conftest.py": ENABLES})
    root = _project(tmp_path, {"tests/test_wide.py": ASKS.format(imports="")})
    assert _findings(root, "tests/test_wide.py") == ["float64-without-x64"]
    _write(root, {"tests/conftest.py": ENABLES})
    assert _findings(root, "tests/test_wide.py") == []


def test_an_installed_package_that_enables_x64_at_import_is_read_never_imported(tmp_path, monkeypatch):
    """A package on the search path whose import turns x64 on (through a submodule its `__init__` imports): the
    module importing it gets 64 bits, so no finding; one that does not turn it on leaves the finding. The package
    would raise if it were imported."""
    import sys

    site = tmp_path / "site"
    _write(site, {"widepkg/__init__.py": "from . import _config\nraise RuntimeError('imported')\n",
                  "widepkg/_config.py": ENABLES,
                  "narrowpkg/__init__.py": "import jax\nraise RuntimeError('imported')\n"})
    monkeypatch.syspath_prepend(str(site))
    project_index._installed_summaries.clear()
    root = _project(tmp_path, {"pkg/uses_wide.py": ASKS.format(imports="import widepkg"),
                               "pkg/uses_narrow.py": ASKS.format(imports="import narrowpkg")})
    assert _findings(root, "pkg/uses_wide.py") == []
    assert _findings(root, "pkg/uses_narrow.py") == ["float64-without-x64"]
    assert "widepkg" not in sys.modules and "narrowpkg" not in sys.modules


def test_a_module_level_singleton_whose_class_turns_x64_on(tmp_path):
    """nlsq's `config.py` ends with `_config = JAXConfig()`, whose `__init__` runs a method that turns x64 on: any
    module importing it gets 64 bits. A class of the same shape that is never instantiated at import does not."""
    singleton = ("import jax\n\nclass JAXConfig:\n    def __init__(self):\n        self._start()\n\n"
                 "    def _start(self):\n        jax.config.update('jax_enable_x64', True)\n\n")
    root = _project(tmp_path, {
        "pkg/config.py": singleton + "_config = JAXConfig()\n",
        "pkg/lazy.py": singleton,
        "pkg/fit_test.py": ASKS.format(imports="import pkg.config"),
        "pkg/lazy_test.py": ASKS.format(imports="import pkg.lazy"),
    })
    assert _findings(root, "pkg/fit_test.py") == []
    assert _findings(root, "pkg/lazy_test.py") == ["float64-without-x64"]
