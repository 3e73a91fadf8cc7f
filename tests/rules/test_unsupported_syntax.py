"""unsupported-syntax (SB003): syntax newer than the project's oldest Python, with the target read from
`[tool.sharpbits] target-version` or the project's `requires-python`; the same findings on every interpreter
(syntax newer than the running one is read through parsing.py's rewrite, at the same positions)."""

import json
import os
import sys

import pytest
from sharpbits.analysis.engine import Selection, analyze
from sharpbits.analysis.parsing import TargetVersion
from sharpbits.config import Config, load_config, lowest_python, parse_target_version, target_for


def found(code: str, target: tuple[int, int] | None) -> list[tuple[int, int, str]]:
    selection = Selection(select=frozenset({"unsupported-syntax"}),
                          target=TargetVersion(*target, "test") if target else None)
    result = analyze(code, "m.py", selection)
    assert result.syntax_error is None, result.syntax_error.message
    return [(f.line, f.column, f.message.split(" needs Python ")[1].split(",")[0]) for f in result.findings]


@pytest.mark.parametrize(("code", "needed"), [
    ("if (n := 3):\n    pass\n", "3.8"),
    ("def f(a, /, b):\n    pass\n", "3.8"),
    ("lam = lambda a, /: a\n", "3.8"),
    ("@buttons[0].clicked.connect\ndef f():\n    pass\n", "3.9"),
    ("with (open('a') as a, open('b') as b):\n    pass\n", "3.9"),
    ("with (\n    open('a') as a,\n    open('b') as b,\n):\n    pass\n", "3.9"),
    ("match x:\n    case 1:\n        pass\n", "3.10"),
    ("try:\n    pass\nexcept *ValueError as e:\n    pass\n", "3.11"),
    ("x = a[1, *rest]\n", "3.11"),
    ("def f[T: int](x: T) -> T:\n    return x\n", "3.12"),
    ("class C[\n    T,\n    U,\n](Base):\n    pass\n", "3.12"),
    ("type A[T] = list[T]\n", "3.12"),
    ("x = f'{'a'}'\n", "3.12"),
    pytest.param("x = f'{a # a comment\n}'\n", "3.12", marks=pytest.mark.skipif(
        sys.version_info < (3, 12), reason="a comment or line break in a field is not read before 3.12")),
    ("x = f'{f'{y}'}'\n", "3.12"),
    ("def f[T = int](x: T) -> T:\n    return x\n", "3.13"),
    ("type A[T = int] = list[T]\n", "3.13"),
    ("x = t'{name!r}'\n", "3.14"),
    ("try:\n    pass\nexcept ValueError, TypeError:\n    pass\n", "3.14"),
])
def test_each_feature_is_reported_against_an_older_target_only(code, needed):
    major, minor = map(int, needed.split("."))
    assert [n for _, _, n in found(code, (major, minor - 1))] == [needed]
    assert found(code, (major, minor)) == []
    assert found(code, None) == []  # no target known: every syntax is fine


@pytest.mark.parametrize("code", [
    "x = f'{a!r:>{width}} {b[\"k\"]} {{literal}}'\n",
    "x = f\"{'a' if b else 'c'}\"\n",
    "x = f'''{\"a\"}\n{b}'''\n",
    "x = f'{a:%Y-%m-%d}' + rf'\\d{n}'\n",
    "x = f\"{n:#x} {s:'^10} {t!r:#>8}\"\n",  # `#` and a quote in a format spec are characters of the spec
    "with (a) as b, (c) as d:\n    pass\n",
    "with (a, b):\n    pass\n",
    "@functools.lru_cache(maxsize=None)\ndef f():\n    pass\n",
    "def f(a, b=1, *args, c, **kw):\n    pass\n",
    "x = a[1:2, ...]\n",
    "x = type(y)\ntype = 3\n",
])
def test_what_python_3_7_reads_is_never_reported(code):
    assert found(code, (3, 7)) == []


def test_code_that_never_runs_is_still_a_syntax_error_there():
    code = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    type A = int\nif False:\n    y = (x := 1)\n"
    assert [(line, needed) for line, _, needed in found(code, (3, 7))] == [(3, "3.12"), (5, "3.8")]


def test_the_finding_spans_the_keyword_and_names_the_setting():
    code = "def f(x):\n    match x:\n        case _:\n            pass\n"
    selection = Selection(target=TargetVersion(3, 9, 'requires-python = ">=3.9" in pyproject.toml'))
    (finding,) = [f for f in analyze(code, "m.py", selection).findings if f.rule == "unsupported-syntax"]
    assert (finding.line, finding.column, finding.end_line, finding.end_column) == (2, 5, 2, 12)
    assert finding.severity == "error" and finding.code == "SB003"
    assert finding.message == ('a `match` statement needs Python 3.10, but this project supports Python 3.9 '
                               '(requires-python = ">=3.9" in pyproject.toml), which cannot parse this file')


@pytest.mark.parametrize(("specifier", "lowest"), [
    (">=3.9", (3, 9)), (">=3.9,<4", (3, 9)), (">= 3.10.2, != 3.11.*", (3, 10)), ("~=3.10.2", (3, 10)),
    ("==3.11.*", (3, 11)), (">3.8", (3, 8)), ("^3.9", (3, 9)), ("^3.10 || ^3.8", (3, 8)), (">=3.8, >=3.10", (3, 10)),
    ("<4", None), ("*", None), (">=3", None), ("", None), ("python3", None), ("^3.9 || <4", None),
])
def test_the_lowest_python_a_specifier_admits(specifier, lowest):
    assert lowest_python(specifier) == lowest


def test_target_version_setting_and_its_errors():
    assert parse_target_version("3.9").version == parse_target_version("py39").version == (3, 9)
    assert parse_target_version("py312").version == (3, 12)
    assert parse_target_version("2.7") is None and parse_target_version("latest") is None
    problems: list = []
    config = Config.from_mapping({"target-version": 39}, problems=problems)
    assert config.target_version is None
    assert problems and "`target-version` must be a Python version" in problems[0][1]


def test_the_target_comes_from_the_nearest_project_and_follows_its_changes(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "outer"\nrequires-python = ">=3.8"\n')
    inner = tmp_path / "packages" / "inner"
    (inner / "src").mkdir(parents=True)
    (inner / "src" / "m.py").write_text("x = 1\n")
    # a pyproject.toml that declares no project (tool settings only) is passed over
    (inner / "src" / "pyproject.toml").write_text("[tool.black]\nline-length = 100\n")
    assert target_for(inner / "src" / "m.py").version == (3, 8)
    (inner / "pyproject.toml").write_text('[tool.poetry]\nname = "inner"\n[tool.poetry.dependencies]\npython = "^3.11"\n')
    target = target_for(inner / "src" / "m.py")
    assert target.version == (3, 11) and target.source == 'tool.poetry.dependencies.python = "^3.11" in pyproject.toml'
    # a project without a lower bound: unknown, and the outer project's bound does not apply to it
    (inner / "pyproject.toml").write_text('[project]\nname = "inner"\n')
    assert target_for(inner / "src" / "m.py") is None
    # [tool.sharpbits] target-version wins over requires-python
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "outer"\nrequires-python = ">=3.8"\n[tool.sharpbits]\ntarget-version = "3.12"\n')
    (tmp_path / "top.py").write_text("x = 1\n")
    assert load_config(tmp_path / "top.py").selection_for(tmp_path / "top.py").target.version == (3, 12)


def test_the_cli_reports_it_and_its_cache_follows_requires_python(run_cli, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "demo"\nrequires-python = ">=3.9"\n')
    (project / "m.py").write_text("def f(x):\n    match x:\n        case _:\n            return x\n")
    cache = tmp_path / "cache"

    def check():
        result = run_cli("check", "--format", "json", "--cache-dir", str(cache), ".", cwd=project)
        return [(f["line"], f["code"]) for f in json.loads(result.stdout)], result.returncode

    assert check() == ([(2, "SB003")], 1)
    assert check() == ([(2, "SB003")], 1)  # from the cache
    (project / "pyproject.toml").write_text('[project]\nname = "demo"\nrequires-python = ">=3.10"\n')
    assert check() == ([], 0)  # not a result cached under the old target
    assert os.listdir(cache)


INCREMENTAL_BASE = '''import jax.numpy as jnp


def first(x):
    return x + 1


def second(x):
    y = x * 2
    return y


class Model:
    def __call__(self, x):
        return jnp.tanh(x)
'''
# (a line, its new text): each adds, moves or takes away syntax newer than 3.9
INCREMENTAL_EDITS = [
    ("    return x + 1", "    match x:\n        case 0:\n            return 0\n    return x + 1"),
    ("    y = x * 2", "    y = f\"{x[\"k\"]}\""),
    ("    match x:", "    if x == 0:"),
    ("        case 0:", "        if True:"),
    ("import jax.numpy as jnp", "import jax.numpy as jnp\ntype Array = jnp.ndarray"),
    ("    def __call__(self, x):", "    def __call__[T](self, x: T) -> T:"),
    ("", "# a comment moves everything below"),
    ("    y = f\"{x[\"k\"]}\"", "    y = x * 2"),
]


def test_an_open_document_gets_what_a_fresh_analysis_gets_at_every_version():
    from sharpbits.analysis.incremental import IncrementalAnalysis

    from tests.analysis.test_incremental import summary

    selection = Selection(target=TargetVersion(3, 9, "test"))
    document = IncrementalAnalysis("m.py", selection)
    text = INCREMENTAL_BASE
    assert summary(document.update(text)) == summary(analyze(text, "m.py", selection))
    counts = []
    for old, new in INCREMENTAL_EDITS:
        lines = text.split("\n")
        lines[lines.index(old)] = new
        text = "\n".join(lines)
        incremental = document.update(text)
        assert summary(incremental) == summary(analyze(text, "m.py", selection)), text
        counts.append(sum(f.rule == "unsupported-syntax" for f in incremental.findings))
    assert counts == [1, 2, 0, 1, 2, 3, 3, 2]  # the third version does not parse (`case` after an `if`)
