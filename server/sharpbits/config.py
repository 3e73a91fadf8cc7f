"""Configuration: `[tool.sharpbits]` in pyproject.toml, and the same settings from the editor.

    [tool.sharpbits]
    select = ["SB101", "prng-key-reuse"]      # only these rules (default: all)
    ignore = ["python-loop-in-jit"]           # never these
    exclude = ["generated/"]                  # gitignore-style paths skipped by `check DIR`
    include-notebooks = true                  # `check DIR` also checks *.ipynb (default: true)
    target-version = "3.9"                    # the oldest Python the code runs on (default: the project's
                                              # `requires-python`; neither: every syntax is read)
    [tool.sharpbits.severity]
    python-loop-in-jit = "info"               # error | warning | info | hint
    [tool.sharpbits.per-file-ignores]
    "tests/*" = ["SB201"]

Rules may be named by code or name everywhere.

Reading a pyproject.toml never fails: `load_config` returns the settings it could use plus one message per
problem (a file that is not TOML, nested too deeply, a setting of the wrong type, an unknown rule, setting or
severity), each naming the file, the line where it is known, and the key; every setting with a problem keeps its
default. The CLI prints the messages and checks on; the language server shows them and serves.
"""

from __future__ import annotations

import fnmatch
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sharpbits.analysis.engine import Selection
from sharpbits.analysis.parsing import TargetVersion
from sharpbits.findings import SEVERITIES, Severity


class ConfigError(ValueError):
    """Editor settings that cannot be used (`Config.from_mapping` without a list of problems to fill); the
    message names the settings and the problem."""


class ConfigSyntaxError(ConfigError):
    """A pyproject.toml that holds `[tool.sharpbits]` settings but is not valid TOML: the file and the line
    (1-based; 0 when the parser did not say) are attributes, for the CLI's error and the editor's message."""

    def __init__(self, path: Path, line: int, column: int, problem: str) -> None:
        self.path, self.line, self.column, self.problem = path, line, column, problem
        where = f"{path}:{line}:{column}" if line else str(path)
        super().__init__(f"{where}: invalid TOML, so its [tool.sharpbits] settings cannot be read: {problem}")

    @classmethod
    def from_decode_error(cls, path: Path, exc: Exception) -> ConfigSyntaxError:
        import re

        message = str(exc)
        # tomllib's messages end "(at line L, column C)" (Python 3.11-3.13; 3.14 also has .lineno/.colno)
        match = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        if match:
            return cls(path, int(match[1]), int(match[2]), message[: match.start()])
        match = re.search(r"\s*\(at end of document\)$", message)
        if match:
            lines = path.read_text(encoding="utf-8", errors="replace").count("\n") + 1 if path.exists() else 0
            return cls(path, lines, 1, message[: match.start()] + " (at the end of the file)")
        return cls(path, getattr(exc, "lineno", 0) or 0, getattr(exc, "colno", 0) or 0, message)


@dataclass
class Config:
    root: Path | None = None  # the folder of the pyproject.toml it came from
    select: frozenset[str] | None = None
    ignore: frozenset[str] = frozenset()
    severity: dict[str, Severity] = field(default_factory=dict)
    per_file_ignores: list[tuple[str, frozenset[str]]] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    include_notebooks: bool | None = None  # None: not set here (the default is to include them)
    # `target-version`: the oldest Python the code must parse on; None: the `requires-python` of the project
    # each file belongs to (target_for)
    target_version: TargetVersion | None = None
    # what could not be used, one message each (file, line, key and problem); those settings keep their defaults
    problems: tuple[str, ...] = ()

    @classmethod
    def from_mapping(cls, data: dict[str, Any], root: Path | None = None, where: str = "settings",
                     problems: list[tuple[tuple[str, ...], str]] | None = None) -> Config:
        """Settings from a mapping. Each setting that cannot be used keeps its default; with `problems` given,
        (key path, message) is appended to it for each, else the first raises ConfigError."""
        found: list[tuple[tuple[str, ...], str]] = []

        def problem(key: tuple[str, ...], message: str) -> None:
            if problems is None:
                raise ConfigError(f"{where}: {message}")
            found.append((key, message))

        def names(value: Any, key: tuple[str, ...]) -> frozenset[str] | None:
            label = ".".join(key)
            if value is None:
                return None
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                problem(key, f"`{label}` must be a list of rule codes or names, not {_kind(value)}; ignored")
                return None
            try:
                return Selection.parse_names(value)
            except ValueError as exc:
                problem(key, f"`{label}`: {exc}; ignored")
                return None

        def table(key: str) -> dict[str, Any]:
            value = data.get(key)
            if value is None:
                return {}
            if not isinstance(value, dict):
                problem((key,), f"`{key}` must be a table, not {_kind(value)}; ignored")
                return {}
            return value

        known = {"select", "ignore", "severity", "per-file-ignores", "exclude", "include-notebooks", "target-version"}
        for key in sorted(set(data) - known):
            problem((str(key),), f"unknown setting(s) {key} (known: {', '.join(sorted(known))}); ignored")
        severity: dict[str, Severity] = {}
        for key, value in table("severity").items():
            rule = names([key], ("severity", key))
            if not rule:
                continue
            if value not in SEVERITIES:
                problem(("severity", key),
                        f"`severity.{key}` must be one of {', '.join(SEVERITIES)}, not {value!r}; ignored")
                continue
            (name,) = rule
            severity[name] = value
        per_file: list[tuple[str, frozenset[str]]] = []
        for pattern, rules in table("per-file-ignores").items():
            chosen = names(rules, ("per-file-ignores", pattern))
            if chosen:
                per_file.append((pattern, chosen))
        exclude = data.get("exclude") or []
        if not isinstance(exclude, list) or not all(isinstance(e, str) for e in exclude):
            problem(("exclude",), f"`exclude` must be a list of paths, not {_kind(exclude)}; ignored")
            exclude = []
        include_notebooks = data.get("include-notebooks")
        if include_notebooks is not None and not isinstance(include_notebooks, bool):
            problem(("include-notebooks",), f"`include-notebooks` must be true or false, not {_kind(include_notebooks)}; "
                    "ignored")
            include_notebooks = None
        target = data.get("target-version")
        target_version = None
        if target is not None:
            target_version = parse_target_version(target) if isinstance(target, str) else None
            if target_version is None:
                problem(("target-version",), "`target-version` must be a Python version such as \"3.9\" or "
                        f"\"py39\" (3.0 to 3.99), not {target!r}; ignored")
        select = names(data.get("select"), ("select",))
        ignore = names(data.get("ignore"), ("ignore",)) or frozenset()
        if problems is not None:
            problems.extend(found)
        return cls(root, select, ignore, severity, per_file, list(exclude), include_notebooks, target_version)

    def merged(self, override: Config) -> Config:
        """Settings from the editor or the command line on top of the file's."""
        return Config(
            self.root,
            override.select if override.select is not None else self.select,
            self.ignore | override.ignore,
            {**self.severity, **override.severity},
            self.per_file_ignores + override.per_file_ignores,
            self.exclude + override.exclude,
            override.include_notebooks if override.include_notebooks is not None else self.include_notebooks,
            override.target_version or self.target_version,
            self.problems + override.problems,
        )

    def selection_for(self, path: str | Path) -> Selection:
        ignore = set(self.ignore)
        if self.per_file_ignores:
            p = Path(path)
            try:
                rel = p.resolve().relative_to(self.root.resolve()).as_posix() if self.root else p.as_posix()
            except ValueError:
                rel = p.as_posix()
            for pattern, rules in self.per_file_ignores:
                if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(p.name, pattern):
                    ignore |= rules
        return Selection(select=self.select, ignore=frozenset(ignore), severities=dict(self.severity),
                         target=self.target_version or target_for(Path(path)))


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "a table", list: "a list", str: "a string", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__)


MAX_PYPROJECT_BYTES = 4 * 1024 * 1024  # far beyond any real pyproject.toml; a bigger one is not read


def _mentions_sharpbits(text: str) -> bool:
    """Whether a pyproject.toml that does not parse could hold our settings (`[tool.sharpbits]`,
    `[tool.sharpbits.severity]`, `tool.sharpbits = {...}`, a `sharpbits` key under `[tool]`): its text names us."""
    return "sharpbits" in text


class _Unreadable(Exception):
    """A pyproject.toml whose TOML cannot be read (the message says why); `error` is set for one that names
    sharpbits (so it must be reported), None for one that does not (it is passed over)."""

    def __init__(self, error: ConfigSyntaxError | None) -> None:
        super().__init__(str(error))
        self.error = error


def _parse(candidate: Path) -> tuple[str, dict[str, Any]] | None:
    """The text and TOML of `candidate`; None when it cannot be read at all (not a file, not UTF-8, too large);
    raises _Unreadable when it is not TOML that can be read."""
    try:
        if candidate.stat().st_size > MAX_PYPROJECT_BYTES:
            return None
        text = candidate.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    # imported when a pyproject.toml is read (a workspace without one, or a first document analysed before the
    # server's imports, does not wait for it: lsp/early.py)
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        error = ConfigSyntaxError.from_decode_error(candidate, exc)
    except (RecursionError, MemoryError):  # 3,000 nested `[` exhaust tomllib's recursion
        error = ConfigSyntaxError(candidate, 0, 0, "nested too deeply to be read")
    raise _Unreadable(error if _mentions_sharpbits(text) else None)


def _names_sharpbits(data: dict[str, Any]) -> bool:
    tool = data.get("tool")
    return "sharpbits" in tool if isinstance(tool, dict) else "tool" in data and _mentions_sharpbits(str(tool))


def _folders_up(start: Path) -> list[Path]:
    """`start` (a resolved folder, or a file's folder) and every folder above it, nearest first."""
    folder = start if start.is_dir() else start.parent
    return [folder, *folder.parents]


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that holds [tool.sharpbits] settings (or is broken where
    they would be: `tool = "sharpbits"`). One that is not valid TOML but names sharpbits is found too (its error
    is reported by `load_config`): its settings would be lost without a word otherwise. One that does not parse
    and never names sharpbits cannot configure us; the search goes on above it."""
    for folder in _folders_up(start.resolve()):
        candidate = folder / "pyproject.toml"
        try:
            if not candidate.is_file():
                continue
            parsed = _parse(candidate)
        except _Unreadable as exc:
            if exc.error is not None:
                return candidate
            continue
        except OSError:
            continue
        if parsed is not None and _names_sharpbits(parsed[1]):
            return candidate
    return None


def _key_line(text: str, key: tuple[str, ...]) -> int:
    """The 1-based line that defines `key` (a table header `[a.b]` or `a = ...` under one; the longest prefix of
    `key` that is found), 0 when none is. A line-by-line reading, enough to point at a setting."""
    best, best_length = 0, 0
    header: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("[") and not stripped.startswith("[["):
            header = _dotted(stripped[1:].split("]", 1)[0])
            found = header
        elif "=" in stripped and not stripped.startswith("#"):
            found = header + _dotted(stripped.split("=", 1)[0])
        else:
            continue
        length = len(found)
        if length > best_length and key[:length] == found:
            best, best_length = number, length
    return best


def _dotted(text: str) -> tuple[str, ...]:
    parts, current, quote = [], "", ""
    for char in text:
        if quote:
            if char == quote:
                quote = ""
            else:
                current += char
        elif char in "\"'":
            quote = char
        elif char == ".":
            parts.append(current.strip())
            current = ""
        else:
            current += char
    parts.append(current.strip())
    return tuple(parts)


def load_config(start: Path) -> Config:
    """The [tool.sharpbits] settings that apply at `start`: defaults when there are none. Never raises: what
    cannot be used is in `problems` (one message each, naming the file, the line and the key) and keeps its
    default; a file that cannot be read at all gives the defaults for everything."""
    path = find_pyproject(start)
    if path is None:
        return Config()
    try:
        parsed = _parse(path)
    except _Unreadable as exc:
        return Config(problems=(str(exc.error or f"{path}: cannot be read as TOML"),))
    if parsed is None:  # changed or vanished since find_pyproject read it
        return Config(problems=(f"{path}: cannot be read any more; the default settings are used",))
    text, data = parsed
    tool = data.get("tool")
    if not isinstance(tool, dict):
        line = _key_line(text, ("tool",))
        return Config(problems=(f"{path}:{line}: `tool` must be a table (holding [tool.sharpbits]), not {_kind(tool)}; "
                                "the default settings are used",))
    table = tool.get("sharpbits")
    if not isinstance(table, dict):
        line = _key_line(text, ("tool", "sharpbits"))
        return Config(problems=(f"{path}:{line}: [tool.sharpbits] must be a table, not {_kind(table)}; "
                                "the default settings are used",))
    found: list[tuple[tuple[str, ...], str]] = []
    config = Config.from_mapping(table, root=path.parent, problems=found)
    problems = []
    for key, message in found:
        line = _key_line(text, ("tool", "sharpbits", *key))
        problems.append(f"{path}:{line}: [tool.sharpbits] {message}" if line else f"{path}: [tool.sharpbits] {message}")
    config.problems = tuple(problems)
    return config


def parse_target_version(text: str) -> TargetVersion | None:
    """`target-version = "3.9"` (or Ruff's spelling, "py39"): the version, None when it is not one."""
    match = re.fullmatch(r"\s*(?:py(\d)(\d{1,2})|(\d)\.(\d{1,2}))\s*", text)
    if match is None:
        return None
    major, minor = (int(match[1]), int(match[2])) if match[1] else (int(match[3]), int(match[4]))
    return TargetVersion(major, minor, f'[tool.sharpbits] target-version = "{text.strip()}"') if major == 3 else None


_CLAUSE = re.compile(r"\s*(===|==|~=|>=|<=|!=|>|<|\^|~)?\s*v?(\d+)(?:\.(\d+))?(?:\.[\d*]+)*(?:\.\*)?\s*")


def lowest_python(specifier: str) -> tuple[int, int] | None:
    """The oldest Python (major, minor) a version specifier admits: `>=3.9` and `>=3.9,<4` give 3.9, `~=3.10.2`
    and `==3.10.*` 3.10, Poetry's `^3.9` 3.9 and `^3.8 || ^3.10` 3.8; None when it sets no lower bound (`<4`,
    `*`), names a major version only (`>=3`: no minor version is claimed), or cannot be read."""
    lowest: tuple[int, int] | None = None
    for alternative in specifier.split("||"):
        bound: tuple[int, int] | None = None
        for clause in alternative.split(","):
            if not clause.strip() or clause.strip() == "*":
                continue
            match = _CLAUSE.fullmatch(clause)
            if match is None:
                return None
            operator = match[1] or "=="
            if operator in ("<", "<=", "!="):
                continue
            if match[3] is None:
                return None
            version = (int(match[2]), int(match[3]))
            bound = version if bound is None else max(bound, version)
        if bound is None:
            return None
        lowest = bound if lowest is None else min(lowest, bound)
    return lowest


_PROJECT_TARGETS: dict[Path, tuple[tuple[int, int], TargetVersion | None, bool]] = {}


def target_for(path: Path) -> TargetVersion | None:
    """The oldest Python the project that holds `path` supports: the `requires-python` of the nearest
    pyproject.toml at or above it with a `[project]` table (or Poetry's `python` dependency); None when there is
    none or it sets no lower bound. Each pyproject.toml is read once while it is unchanged (a keystroke costs a
    few `stat`s)."""
    try:
        folders = _folders_up(path.resolve())
    except (OSError, RuntimeError):
        return None
    for candidate in (folder / "pyproject.toml" for folder in folders):
        try:
            stat = candidate.stat()
        except OSError:
            continue
        stamp = (stat.st_mtime_ns, stat.st_size)
        kept = _PROJECT_TARGETS.get(candidate)
        if kept is None or kept[0] != stamp:
            kept = (stamp, *_declared_target(candidate))
            _PROJECT_TARGETS[candidate] = kept
        if kept[2]:  # this file declares the project: its answer stands, even when it is None
            return kept[1]
    return None


def _declared_target(candidate: Path) -> tuple[TargetVersion | None, bool]:
    """(the target the pyproject.toml declares, whether it declares a project at all)."""
    try:
        parsed = _parse(candidate)
    except _Unreadable:
        return None, False
    if parsed is None:
        return None, False
    data = parsed[1]
    project, tool = data.get("project"), data.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    if isinstance(project, dict) and isinstance(project.get("requires-python"), str):
        spec, key = project["requires-python"], "requires-python"
    elif isinstance(poetry, dict) and isinstance(poetry.get("dependencies"), dict) and isinstance(
            poetry["dependencies"].get("python"), str):
        spec, key = poetry["dependencies"]["python"], "tool.poetry.dependencies.python"
    else:
        return None, isinstance(project, dict) or isinstance(poetry, dict)
    lowest = lowest_python(spec)
    if lowest is None:
        return None, True
    return TargetVersion(*lowest, f'{key} = "{spec}" in pyproject.toml'), True
