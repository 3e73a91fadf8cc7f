"""Where x64 is turned on outside a module: by a project module it imports, or by a pytest `conftest.py`.

`jax_enable_x64` is one flag for the whole process. A module that asks for float64 without enabling it itself still
gets 64 bits when something that runs before it did enable it:

* a module of the project it imports (at module level: the import runs the imported module, and every package
  `__init__` above it, before the importing module's own code), which turns the flag on at import
  (`jax.config.update("jax_enable_x64", True)` at its module level, or `jax.config.jax_enable_x64 = True`); and the
  modules those import in turn;
* for a test module (`test_*.py`, `*_test.py`), a `conftest.py` in its folder or a folder above it (up to the
  project's root), which pytest imports before the test: one that enables the flag at import, in a
  `pytest_configure`/`pytest_sessionstart` hook, or in an `autouse` fixture, or imports a module that does.

Everything is read statically (never imported). Only modules of the project are followed (an installed package
the index can find is not read here), only imports at module level count (an import inside a function runs when
that function runs), and only literal truthy values (`True`, `1`, `"1"`, `"true"`): a module that turns the flag on
under a setting of its own, or off, or that is not imported on the way to this code, does not silence the rule.
"""

from __future__ import annotations

import ast
import hashlib
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

from sharpbits.analysis.project_index import ProjectView, import_root, module_text

_PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git", "pytest.ini", "tox.ini")
_HOOKS = {"pytest_configure", "pytest_sessionstart", "pytest_collection", "pytest_load_initial_conftests"}
_TRUTHY = {True, "1", "true", "True", "TRUE"}  # True == 1: a literal 1 counts too
_MAX_MODULES = 400  # modules followed through imports, at most, for one question
_MAX_LEVELS = 8  # folders above a test searched for a project root with conftest files


@dataclass(frozen=True)
class X64Facts:
    """What one module's text says about the x64 flag at import."""

    enables: bool  # a module-level statement turns the flag on (runs when the module is imported)
    hook_enables: bool  # a pytest hook or autouse fixture of it turns the flag on (conftest files)
    imports: tuple[str, ...]  # modules its module-level imports run, absolute (`a`, `a.b`, `a.b.c`, ...)


_facts_cache: dict[tuple[str, str, bool], X64Facts] = {}
_lock = threading.Lock()


def x64_facts(text: str, module: str, is_package: bool) -> X64Facts:
    """The X64Facts of a module's source text (kept by its digest: read once per text)."""
    key = (hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest(), module, is_package)
    with _lock:
        found = _facts_cache.get(key)
    if found is not None:
        return found
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        facts = X64Facts(False, False, ())
    else:
        facts = _facts_of(tree, module, is_package)
    with _lock:
        _facts_cache[key] = facts
    return facts


def _facts_of(tree: ast.Module, module: str, is_package: bool) -> X64Facts:
    package = module if is_package else module.rpartition(".")[0]
    enables = hook_enables = False
    imports: list[str] = []
    stack: list[ast.AST] = list(tree.body)
    while stack:  # the statements that run at import: module level, inside if/try/with/for blocks
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if (node.name in _HOOKS or _autouse_fixture(node)) and _enables_in(node):
                hook_enables = True
            continue
        if isinstance(node, ast.ClassDef):
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                imports.extend(_with_parents(alias.name))
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            if base:
                imports.extend(_with_parents(base))
                imports.extend(f"{base}.{a.name}" for a in node.names if a.name != "*")  # submodules, if any
        elif isinstance(node, ast.stmt) and _enables(node):
            enables = True
        for block in ("body", "orelse", "finalbody", "handlers"):
            if isinstance(node, ast.If | ast.Try | ast.With | ast.For | ast.While | ast.ExceptHandler) or (
                    isinstance(node, ast.stmt) and type(node).__name__ == "TryStar"):
                stack.extend(getattr(node, block, []) or [])
    return X64Facts(enables, hook_enables, tuple(dict.fromkeys(imports)))


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def _absolute(node: ast.ImportFrom, package: str) -> str:
    base = node.module or ""
    if not node.level:
        return base
    parts = package.split(".") if package else []
    if node.level - 1 > len(parts):
        return ""
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, *([base] if base else [])])


def _autouse_fixture(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for deco in fn.decorator_list:
        if isinstance(deco, ast.Call) and any(
                kw.arg == "autouse" and isinstance(kw.value, ast.Constant) and kw.value.value is True
                for kw in deco.keywords):
            return True
    return False


def _enables_in(fn: ast.AST) -> bool:
    return any(isinstance(n, ast.stmt) and _enables(n) for n in ast.walk(fn))


def _enables(stmt: ast.stmt) -> bool:
    """`jax.config.update("jax_enable_x64", True)` or `jax.config.jax_enable_x64 = True` (this statement only,
    not the blocks inside it)."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        return (isinstance(call.func, ast.Attribute) and call.func.attr == "update" and len(call.args) >= 2
                and isinstance(call.args[0], ast.Constant) and call.args[0].value == "jax_enable_x64"
                and _truthy(call.args[1]))
    if isinstance(stmt, ast.Assign):
        return _truthy(stmt.value) and any(
            isinstance(t, ast.Attribute) and t.attr == "jax_enable_x64" for t in stmt.targets)
    return False


def _truthy(value: ast.AST) -> bool:
    return isinstance(value, ast.Constant) and not isinstance(value.value, float) and value.value in _TRUTHY


def enabled_outside(project: ProjectView, tree: ast.Module) -> str | None:
    """What turns x64 on before the module `tree` (at `project.path`) runs, or None: the name of a project
    module it imports (directly or through other project modules) that enables it at import, or, for a test
    module, the path of a `conftest.py` that enables it."""
    path = Path(project.path)
    is_package = path.stem == "__init__"
    own = _facts_of(tree, project.module, is_package)
    found = _through_imports(project, own.imports)
    if found is not None:
        return found
    if not (path.name.startswith("test_") or path.name.endswith("_test.py")):
        return None
    for conftest in _conftests(path):
        try:
            text = conftest.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        _, name = import_root(conftest)
        facts = x64_facts(text, name, False)
        if facts.enables or facts.hook_enables or _through_imports(project, facts.imports) is not None:
            return str(conftest)
    return None


def _through_imports(project: ProjectView, imports: tuple[str, ...]) -> str | None:
    """The first project module, among `imports` and what they import at module level in turn, that turns x64
    on at import."""
    seen: set[str] = set()
    work = list(imports)
    while work and len(seen) < _MAX_MODULES:
        name = work.pop(0)
        if name in seen or name == project.module:
            continue
        seen.add(name)
        found = module_text(project.index, name)
        if found is None:
            continue  # not a module of the project (an installed package, a name inside a module)
        text, file = found
        facts = x64_facts(text, name, Path(file).stem == "__init__")
        if facts.enables:
            return name
        work.extend(facts.imports)
    return None


def _conftests(test: Path) -> list[Path]:
    """The `conftest.py` files pytest loads for a test file: in its folder and each folder above, up to the
    project's root (the first folder with a pyproject.toml, setup.py, .git, ...); with no such folder near, up to
    the folder holding the test's import root (the folder above its top-most package)."""
    test = test.absolute()
    folder = test.parent
    chain: list[Path] = []
    for _ in range(_MAX_LEVELS):
        chain.append(folder)
        if any((folder / m).exists() for m in _PROJECT_MARKERS) or folder.parent == folder:
            break
        folder = folder.parent
    else:
        last = import_root(test)[0].parent
        chain = [f for f in chain if f == last or last in f.parents]
    return [f / "conftest.py" for f in chain if (f / "conftest.py").is_file()]
