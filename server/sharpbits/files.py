"""Which files `sharpbits check PATH...` looks at.

Files named on the command line are always checked. Folders are walked for `*.py` / `*.pyi` (and `*.ipynb`
unless `include_notebooks` is off), skipping virtual
environments, build and cache folders, and whatever the `.gitignore` files on the way exclude (git's own
semantics, with a matcher that cannot be made to backtrack: sharpbits.wildmatch; a deeper .gitignore overrides
the ones above it, and a pattern git can never match is a warning, never an error).

Symbolic links never lead out of what is checked: a linked folder is not walked into (its files, when they are
inside, are reached directly), and a linked file counts only when its target lies inside the folder being
checked (for a file named on the command line: the folder it was named in); each file comes with its real
path, which is what `--fix` reads and writes. What cannot be looked at (a folder that cannot be read, a
symlink loop, a link to a file outside) is yielded as a skipped entry with the reason, and the walk goes on.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sharpbits.wildmatch import IgnoreSpec

Warn = Callable[[Path, str], None]  # (the file that holds a pattern, the warning), for the user


def _no_warning(_path: Path, _message: str) -> None:
    return None

ALWAYS_SKIPPED = {
    ".git", ".hg", ".svn", ".venv", "venv", ".env", "env", "__pycache__", "node_modules", "build", "dist",
    ".tox", ".nox", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".eggs", "site-packages", ".ipynb_checkpoints",
    ".cache",
}
PYTHON_SUFFIXES = (".py", ".pyi")
NOTEBOOK_SUFFIXES = (".ipynb",)


@dataclass(frozen=True)
class FoundFile:
    """A Python file to check (`real_path` set: its resolved location, inside what is checked), or a path that
    was skipped (`skipped` says why)."""

    path: Path  # as the user named or reached it (what reports show)
    real_path: Path | None = None
    skipped: str | None = None


def _is_venv(path: Path) -> bool:
    try:
        return (path / "pyvenv.cfg").is_file() or (path / "conda-meta").is_dir()
    except OSError:  # a folder that cannot be searched is reported when the walk tries to read it
        return False


MAX_GITIGNORE_BYTES = 4 * 1024 * 1024  # far beyond any real .gitignore; the rest of a bigger one is not read


def _gitignore(directory: Path, warn: Warn) -> IgnoreSpec | None:
    ignore = directory / ".gitignore"
    try:
        if not ignore.is_file():
            return None
        with open(ignore, "rb") as handle:
            data = handle.read(MAX_GITIGNORE_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_GITIGNORE_BYTES:
        warn(ignore, f"warning: only its first {MAX_GITIGNORE_BYTES // (1024 * 1024)} MB are read")
        data = data[:MAX_GITIGNORE_BYTES]
    spec = IgnoreSpec(data.decode("utf-8", errors="replace").splitlines())
    for line, problem in spec.problems:
        warn(ignore, f"line {line}: warning: the pattern {problem}")
    return spec


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _broken_link_reason(path: Path) -> str:
    try:
        os.path.realpath(path, strict=True)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink loop"
        if isinstance(exc, FileNotFoundError):
            return f"broken symlink (to {os.readlink(path)})"
        return f"cannot follow symlink: {exc.strerror or exc}"
    return "cannot follow symlink"


def _resolve_link(path: Path, boundary: Path) -> FoundFile:
    """A linked file: its real path when that lies inside `boundary`, else a skipped entry saying why."""
    try:
        real = Path(os.path.realpath(path, strict=True))
    except OSError:
        return FoundFile(path, skipped=_broken_link_reason(path))
    if not _inside(real, boundary):
        return FoundFile(path, skipped=f"symlink to {real}, outside the folder being checked ({boundary}); not followed")
    return FoundFile(path, real_path=real)


def iter_python_files(paths: list[str], use_excludes: bool = True, extra_excludes: list[str] | None = None,
                      excludes_root: Path | None = None, include_notebooks: bool = True,
                      warn: Warn = _no_warning) -> Iterator[FoundFile]:
    """Yields each Python file (and notebook, unless `include_notebooks` is off) once (by real path), in a
    stable order, and each path skipped on the way. Raises FileNotFoundError for a missing path.
    `extra_excludes` are gitignore-style patterns relative to `excludes_root` (the config's folder); what they
    exclude no .gitignore brings back. Patterns that can never match are reported through `warn`."""
    seen: set[Path] = set()
    base_specs: list[tuple[IgnoreSpec, Path]] = []
    if extra_excludes and use_excludes:
        root = Path(os.path.abspath(excludes_root or "."))
        spec = IgnoreSpec(extra_excludes)
        for line, problem in spec.problems:
            warn(root / "pyproject.toml", f"warning: [tool.sharpbits] exclude, entry {line}: the pattern {problem}")
        base_specs.append((spec, root))
    for raw in paths:
        path = Path(raw)
        if not os.path.lexists(path):
            raise FileNotFoundError(f"{raw}: no such file or folder")
        if not path.exists():  # a link that leads nowhere, or in a circle
            yield FoundFile(path, skipped=_broken_link_reason(path))
            continue
        suffixes = PYTHON_SUFFIXES + NOTEBOOK_SUFFIXES if include_notebooks else PYTHON_SUFFIXES
        if path.is_dir():
            walked = _walk(path, Path(os.path.realpath(path)), use_excludes, base_specs, suffixes, warn)
        else:
            walked = iter([_resolve_link(path, Path(os.path.realpath(path.parent)))])
        for found in walked:
            if found.real_path is not None:
                if found.real_path in seen:
                    continue
                seen.add(found.real_path)
            yield found


def _walk(root: Path, real_root: Path, use_excludes: bool, base_specs: list[tuple[IgnoreSpec, Path]],
          suffixes: tuple[str, ...] = PYTHON_SUFFIXES, warn: Warn = _no_warning) -> Iterator[FoundFile]:
    # (folder, its real path, [(spec, the folder the spec is relative to), ...]); linked folders are never
    # entered, so a subfolder's real path is its parent's real path plus its name
    stack: list[tuple[Path, Path, list[tuple[IgnoreSpec, Path]]]] = [(root, real_root, list(base_specs))]
    while stack:
        folder, real_folder, specs = stack.pop()
        if use_excludes:
            spec = _gitignore(folder, warn)
            if spec is not None:
                specs = [*specs, (spec, Path(os.path.abspath(folder)))]
        try:
            with os.scandir(folder) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError as exc:
            yield FoundFile(folder, skipped=f"cannot read folder: {exc.strerror or exc}")
            continue
        subfolders = []
        for entry in entries:
            path = Path(entry.path)
            try:
                is_link = entry.is_symlink()
                is_dir = not is_link and entry.is_dir(follow_symlinks=False)
            except OSError as exc:
                yield FoundFile(path, skipped=f"cannot look at it: {exc.strerror or exc}")
                continue
            if use_excludes and _ignored(path, is_dir, specs, len(base_specs)):
                continue
            if is_dir:
                if use_excludes and (entry.name in ALWAYS_SKIPPED or entry.name.endswith(".egg-info") or _is_venv(path)):
                    continue
                subfolders.append((path, real_folder / entry.name, specs))
            elif is_link:
                if entry.name.endswith(suffixes):
                    yield _resolve_link(path, real_root)
                elif not os.path.exists(path) and _broken_link_reason(path) == "symlink loop":
                    yield FoundFile(path, skipped="symlink loop")
                # other links (to folders or non-Python files) are not followed
            elif entry.name.endswith(suffixes) and entry.is_file(follow_symlinks=False):
                yield FoundFile(path, real_path=real_folder / entry.name)
        stack.extend(reversed(subfolders))


def _ignored(path: Path, is_dir: bool, specs: list[tuple[IgnoreSpec, Path]], configured: int) -> bool:
    """The first `configured` specs (the configuration's `exclude`) exclude for good; of the .gitignore files
    after them, the deepest one with a matching pattern decides, as in git."""
    absolute = Path(os.path.abspath(path))

    def verdict(spec: IgnoreSpec, base: Path) -> bool | None:
        try:
            rel = absolute.relative_to(base).as_posix()
        except ValueError:
            return None
        return spec.verdict(rel, is_dir)

    if any(verdict(spec, base) for spec, base in specs[:configured]):
        return True
    for spec, base in reversed(specs[configured:]):
        decided = verdict(spec, base)
        if decided is not None:
            return decided
    return False
