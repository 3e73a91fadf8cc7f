"""Which files `sharpbits check PATH...` looks at.

Files named on the command line are always checked. Folders are walked for `*.py` / `*.pyi` (and `*.ipynb`
unless `include_notebooks` is off), skipping virtual
environments, build and cache folders, and whatever the `.gitignore` files on the way exclude (the same
matcher black and mypy use).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

ALWAYS_SKIPPED = {
    ".git", ".hg", ".svn", ".venv", "venv", ".env", "env", "__pycache__", "node_modules", "build", "dist",
    ".tox", ".nox", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".eggs", "site-packages", ".ipynb_checkpoints",
    ".cache",
}
PYTHON_SUFFIXES = (".py", ".pyi")
NOTEBOOK_SUFFIXES = (".ipynb",)


def _is_venv(path: Path) -> bool:
    return (path / "pyvenv.cfg").is_file() or (path / "conda-meta").is_dir()


def _gitignore(directory: Path) -> pathspec.PathSpec | None:
    ignore = directory / ".gitignore"
    if not ignore.is_file():
        return None
    import pathspec  # only when there is a .gitignore: keeps start-up lean
    try:
        lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return pathspec.PathSpec.from_lines("gitwildmatch", lines)


def iter_python_files(paths: list[str], use_excludes: bool = True, extra_excludes: list[str] | None = None,
                      excludes_root: Path | None = None, include_notebooks: bool = True) -> Iterator[Path]:
    """Yields each Python file once, in a stable order. Raises FileNotFoundError for a missing path.
    `extra_excludes` are gitignore-style patterns relative to `excludes_root` (the config's folder)."""
    seen: set[Path] = set()
    base_specs: list[tuple[pathspec.PathSpec, Path]] = []
    if extra_excludes and use_excludes:
        import pathspec

        base_specs.append((pathspec.PathSpec.from_lines("gitwildmatch", extra_excludes), Path(os.path.abspath(excludes_root or "."))))
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise FileNotFoundError(f"{raw}: no such file or folder")
        if path.is_file():
            if path.resolve() not in seen:
                seen.add(path.resolve())
                yield path
            continue
        suffixes = PYTHON_SUFFIXES + NOTEBOOK_SUFFIXES if include_notebooks else PYTHON_SUFFIXES
        for found in _walk(path, use_excludes, base_specs, suffixes):
            if found.resolve() not in seen:
                seen.add(found.resolve())
                yield found


def _walk(root: Path, use_excludes: bool, base_specs: list[tuple[pathspec.PathSpec, Path]],
          suffixes: tuple[str, ...] = PYTHON_SUFFIXES) -> Iterator[Path]:
    # (folder, [(spec, the folder the spec is relative to), ...])
    stack: list[tuple[Path, list[tuple[pathspec.PathSpec, Path]]]] = [(root, list(base_specs))]
    while stack:
        folder, specs = stack.pop()
        if use_excludes:
            spec = _gitignore(folder)
            if spec is not None:
                specs = [*specs, (spec, Path(os.path.abspath(folder)))]
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        subfolders = []
        for entry in entries:
            path = Path(entry.path)
            is_dir = entry.is_dir(follow_symlinks=False)
            if use_excludes and _ignored(path, is_dir, specs):
                continue
            if is_dir:
                if use_excludes and (entry.name in ALWAYS_SKIPPED or entry.name.endswith(".egg-info") or _is_venv(path)):
                    continue
                subfolders.append((path, specs))
            elif entry.name.endswith(suffixes) and entry.is_file():
                yield path
        stack.extend(reversed(subfolders))


def _ignored(path: Path, is_dir: bool, specs: list[tuple[pathspec.PathSpec, Path]]) -> bool:
    for spec, base in specs:
        try:
            rel = Path(os.path.abspath(path)).relative_to(base).as_posix()
        except ValueError:
            continue
        if spec.match_file(rel + "/" if is_dir else rel):
            return True
    return False
