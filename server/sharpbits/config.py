"""Configuration: `[tool.sharpbits]` in pyproject.toml, and the same settings from the editor.

    [tool.sharpbits]
    select = ["SB101", "prng-key-reuse"]      # only these rules (default: all)
    ignore = ["python-loop-in-jit"]           # never these
    exclude = ["generated/"]                  # gitignore-style paths skipped by `check DIR`
    include-notebooks = true                  # `check DIR` also checks *.ipynb (default: true)
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
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sharpbits.analysis.engine import Selection
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

        known = {"select", "ignore", "severity", "per-file-ignores", "exclude", "include-notebooks"}
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
        select = names(data.get("select"), ("select",))
        ignore = names(data.get("ignore"), ("ignore",)) or frozenset()
        if problems is not None:
            problems.extend(found)
        return cls(root, select, ignore, severity, per_file, list(exclude), include_notebooks)

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
        return Selection(select=self.select, ignore=frozenset(ignore), severities=dict(self.severity))


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


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that holds [tool.sharpbits] settings (or is broken where
    they would be: `tool = "sharpbits"`). One that is not valid TOML but names sharpbits is found too (its error
    is reported by `load_config`): its settings would be lost without a word otherwise. One that does not parse
    and never names sharpbits cannot configure us; the search goes on above it."""
    start = start.resolve()
    for folder in [start, *start.parents] if start.is_dir() else [start.parent, *start.parent.parents]:
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
