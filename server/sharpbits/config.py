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

Rules may be named by code or name everywhere. Unknown rules and severities are errors with a clear message.
"""

from __future__ import annotations

import fnmatch
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sharpbits.analysis.engine import Selection
from sharpbits.findings import SEVERITIES, Severity

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the file (or the editor settings) and the problem."""


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

    @classmethod
    def from_mapping(cls, data: dict[str, Any], root: Path | None = None, where: str = "settings") -> Config:
        def names(value: Any, key: str) -> frozenset[str] | None:
            if value is None:
                return None
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{where}: `{key}` must be a list of rule codes or names")
            try:
                return Selection.parse_names(value)
            except ValueError as exc:
                raise ConfigError(f"{where}: `{key}`: {exc}") from None

        known = {"select", "ignore", "severity", "per-file-ignores", "exclude", "include-notebooks"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"{where}: unknown setting(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        severity: dict[str, Severity] = {}
        for key, value in (data.get("severity") or {}).items():
            (name,) = names([key], "severity") or {key}
            if value not in SEVERITIES:
                raise ConfigError(f"{where}: severity of {key} must be one of {', '.join(SEVERITIES)}, not {value!r}")
            severity[name] = value
        per_file = [(pattern, names(rules, f"per-file-ignores.{pattern}") or frozenset())
                    for pattern, rules in (data.get("per-file-ignores") or {}).items()]
        exclude = data.get("exclude") or []
        if not isinstance(exclude, list):
            raise ConfigError(f"{where}: `exclude` must be a list of paths")
        include_notebooks = data.get("include-notebooks")
        if include_notebooks is not None and not isinstance(include_notebooks, bool):
            raise ConfigError(f"{where}: `include-notebooks` must be true or false")
        return cls(root, names(data.get("select"), "select"), names(data.get("ignore"), "ignore") or frozenset(),
                   severity, per_file, [str(e) for e in exclude], include_notebooks)

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


def _mentions_sharpbits(text: str) -> bool:
    """Whether a pyproject.toml that does not parse could hold our settings (`[tool.sharpbits]`,
    `[tool.sharpbits.severity]`, `tool.sharpbits = {...}`, a `sharpbits` key under `[tool]`): its text names us."""
    return "sharpbits" in text


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that has a [tool.sharpbits] table. One that is not valid
    TOML but names sharpbits is an error (ConfigSyntaxError), not silently passed over: its settings would be
    lost without a word. One that does not parse and never names sharpbits cannot configure us; the search
    goes on above it."""
    start = start.resolve()
    for folder in [start, *start.parents] if start.is_dir() else [start.parent, *start.parent.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                if _mentions_sharpbits(text):
                    raise ConfigSyntaxError.from_decode_error(candidate, exc) from None
                continue
            if "sharpbits" in data.get("tool", {}):
                return candidate
    return None


def load_config(start: Path) -> Config:
    """The [tool.sharpbits] settings that apply at `start` (defaults when there are none). Raises ConfigError
    for settings that cannot be used, ConfigSyntaxError (a ConfigError) for a file that does not parse."""
    path = find_pyproject(start)
    if path is None:
        return Config()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:  # changed since find_pyproject read it
        raise ConfigSyntaxError.from_decode_error(path, exc) from None
    table = data.get("tool", {}).get("sharpbits", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.sharpbits] must be a table")
    return Config.from_mapping(table, root=path.parent, where=f"{path} [tool.sharpbits]")
