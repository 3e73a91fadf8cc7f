"""Where x64 is turned on outside a module: by a project module it imports, or by a pytest `conftest.py`.

`jax_enable_x64` is one flag for the whole process. A module that asks for float64 without enabling it itself still
gets 64 bits when something that runs before it did enable it:

* a module of the project it imports (at module level: the import runs the imported module, and every package
  `__init__` above it, before the importing module's own code), which turns the flag on at import
  (`jax.config.update("jax_enable_x64", True)` at its module level, or `jax.config.jax_enable_x64 = True`), or
  calls at import a function that may (`configure_jax_runtime()` in a package's `__init__`, defined in another
  module of the package); and the modules those import in turn;
* the packages a module belongs to: importing `a.b.c` runs `a/__init__.py` and `a/b/__init__.py` first;
* for a test module (`test_*.py`, `*_test.py`), a `conftest.py` in its folder or a folder above it (up to the
  project's root), which pytest imports before the test: one that enables the flag at import, in a
  `pytest_configure`/`pytest_sessionstart` hook, or in an `autouse` fixture, or imports a module that does.

Everything is read statically (never imported). Modules of the project are followed, and so are installed packages
the index may read (found on the search path by `PathFinder`, which runs nothing; a package that turns the flag on
when imported, as some scientific packages do for their double-precision solvers); only imports at module level
count (an import inside a function runs when that function runs). A value a setting decides
(`jax.config.update("jax_enable_x64", precision == "float64")`) may turn the flag on: what the program then does is
unknown, and unknown stays silent; a literal false value, or a module that is not imported on the way to this code,
does not silence the rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

from sharpbits.analysis.project_index import (
    _MAX_BYTES,
    _NOT_INDEXED,
    ProjectView,
    _installed_origin,
    import_root,
    module_text,
)
from sharpbits.analysis.x64_flag import X64Facts, facts_of_tree, x64_facts

__all__ = ["X64Facts", "enabled_outside", "x64_facts"]

_PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git", "pytest.ini", "tox.ini")
_MAX_MODULES = 400  # modules followed through imports, at most, for one question
_MAX_HOPS = 4  # imports followed from where a setter is called to where it is defined
_MAX_LEVELS = 8  # folders above a test searched for a project root with conftest files


def enabled_outside(project: ProjectView, tree: ast.Module) -> str | None:
    """What turns x64 on before the module `tree` (at `project.path`) runs, or None: the name of a project
    module it imports (directly or through other project modules) that enables it at import, or, for a test
    module, the path of a `conftest.py` that enables it."""
    path = Path(project.path)
    is_package = path.stem == "__init__"
    own = facts_of_tree(tree, project.module, is_package)
    # a module of a package runs after its packages' `__init__` files (importing `a.b.c` runs `a`, then `a.b`)
    package = project.module if is_package else project.module.rpartition(".")[0]
    parents = [".".join(package.split(".")[: i + 1]) for i in range(len(package.split(".")))] if package else []
    found = _calls_a_setter(project, own) or _through_imports(project, (*parents, *own.imports))
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
        if (facts.enables or facts.hook_enables or _calls_a_setter(project, facts) is not None
                or _through_imports(project, facts.imports) is not None):
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
        found = (module_text(project.index, name) or (_installed_text(name) if project.index.installed else None)
                 or _spelled_otherwise(project, name))
        if found is None:
            continue  # neither a module of the project nor an installed one (a name inside a module)
        text, file = found
        facts = x64_facts(text, name, Path(file).stem == "__init__")
        if facts.enables or _calls_a_setter(project, facts) is not None:
            return name
        work.extend(facts.imports)
    return None


def _calls_a_setter(project: ProjectView, facts: X64Facts) -> str | None:
    """The module whose function a module's import-time code calls, when that function may turn x64 on
    (`from .runtime import configure_jax_runtime` then `configure_jax_runtime()` in a package's `__init__`,
    `configure_jax_runtime` defined in `runtime/performance.py` and imported into `runtime/__init__.py`)."""
    for module, name in facts.calls:
        for _ in range(_MAX_HOPS):  # a name imported into a package's `__init__` from where it is defined
            found = _facts_of(project, module)
            if found is None:
                break
            if name in found.setters:
                return module
            hop = next(((m, n) for local, m, n in found.imported if local == name), None)
            if hop is None:
                break
            module, name = hop
    return None


def _facts_of(project: ProjectView, name: str) -> X64Facts | None:
    found = (module_text(project.index, name) or (_installed_text(name) if project.index.installed else None)
             or _spelled_otherwise(project, name))
    if found is None:
        return None
    text, file = found
    return x64_facts(text, name, Path(file).stem == "__init__")


_installed: dict[str, tuple[tuple[int, int], tuple[str, str] | None]] = {}  # name -> (stamp, text and path)


def _installed_text(name: str) -> tuple[str, str] | None:
    """The source text and path of an installed module (found with `PathFinder`, read, never imported)."""
    if not name or name.split(".")[0] in _NOT_INDEXED:
        return None
    origin = _installed_origin(name)
    if origin is None:
        return None
    try:
        stat = origin.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        known = _installed.get(name)
        if known is not None and known[0] == stamp:
            return known[1]
        data = origin.read_bytes() if stat.st_size <= _MAX_BYTES else None
        found = (data.decode("utf-8"), str(origin)) if data is not None else None
    except (OSError, UnicodeDecodeError):
        return None
    _installed[name] = (stamp, found)
    return found


def _spelled_otherwise(project: ProjectView, name: str) -> tuple[str, str] | None:
    """A module of the project that `name` spells with other capitals (`JaxOpenSimplexNoise.simplex_noise4d` for
    the folder `jaxopensimplexnoise/`: a package renamed for its release, its tests left behind), found under the
    project's roots and the folders holding them, when exactly one file matches: what the import means."""
    parts = name.split(".")
    if not name or parts[0] in _NOT_INDEXED:
        return None
    roots = {*project.index.roots, *(root.parent for root in project.index.roots)}
    found: set[Path] = set()
    for root in roots:
        folders = [root]
        for part in parts[:-1]:
            folders = [entry for folder in folders for entry in _entries(folder)
                       if entry.name.lower() == part.lower() and entry.is_dir()]
        last = parts[-1].lower()
        for folder in folders:
            for entry in _entries(folder):
                if entry.name.lower() == f"{last}.py" and entry.is_file():
                    found.add(entry)
                elif entry.name.lower() == last and (entry / "__init__.py").is_file():
                    found.add(entry / "__init__.py")
    if len(found) != 1:
        return None
    file = found.pop()
    try:
        data = file.read_bytes()
        return (data.decode("utf-8"), str(file)) if len(data) <= _MAX_BYTES else None
    except (OSError, UnicodeDecodeError):
        return None


_listings: dict[Path, tuple[int, list[Path]]] = {}  # folder -> (its mtime, its entries)


def _entries(folder: Path) -> list[Path]:
    """A folder's entries, listed again only when the folder changed: `_spelled_otherwise` asks for the project's
    roots (and the folders holding them) on every analysis that requests float64 and imports a module it cannot
    find, which in the editor is every keystroke."""
    try:
        stamp = folder.stat().st_mtime_ns
        known = _listings.get(folder)
        if known is not None and known[0] == stamp:
            return known[1]
        entries = list(folder.iterdir())
    except OSError:
        return []
    _listings[folder] = (stamp, entries)
    return entries


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
