"""Findings: what every consumer (CLI, language server, tests) receives from the analysis.

The JSON form is a public interface (CI tools and the editor rely on it). Lines and columns are 1-based and
count characters (code points); `end_column` is exclusive. A fix carries whole-text edits in the same units.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from sharpbits import fix_check
from sharpbits.fix_check import apply_edits as apply_edits  # re-exported

if TYPE_CHECKING:
    from sharpbits.source import SourceText

Severity = Literal["error", "warning", "info", "hint"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info", "hint")
SEVERITY_RANK = {name: rank for rank, name in enumerate(SEVERITIES)}  # lower is more severe


@dataclass(frozen=True)
class TextEdit:
    """Replaces the text between two positions (1-based lines and columns, in characters) with `new_text`."""

    line: int
    column: int
    end_line: int
    end_column: int
    new_text: str
    cell: int | None = None  # in a notebook: the cell it edits (1-based among all cells); lines are that cell's

    @staticmethod
    def replacing(source: SourceText, node: ast.AST, new_text: str) -> TextEdit:
        """An edit that replaces a node's text (as the parser saw it) with `new_text`."""
        line, col, end_line, end_col = source.node_span(node)
        return TextEdit(line, col + 1, end_line, end_col + 1, new_text)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "new_text": self.new_text,
        }
        if self.cell is not None:
            out["cell"] = self.cell
        return out


@dataclass(frozen=True)
class Fix:
    safe: bool
    description: str
    edits: tuple[TextEdit, ...]

    def to_json(self) -> dict[str, Any]:
        return {"safe": self.safe, "description": self.description, "edits": [e.to_json() for e in self.edits]}


@dataclass
class Finding:
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    rule: str
    severity: Severity
    message: str
    url: str
    cell: int | None = None  # in a notebook: the cell (1-based among all cells); line/column are then the cell's
    # in a notebook: the lines of the .ipynb file where the finding's cell lines are written (SARIF, github)
    file_line: int | None = field(default=None, repr=False, compare=False)
    file_end_line: int | None = field(default=None, repr=False, compare=False)
    fix_title: str = ""  # a short title for the fix, known without building it (e.g. for an editor's menu)
    # Fixes are built lazily (they import libcst): the per-keystroke path only needs to know one exists.
    fix_builder: Callable[[], Fix | None] | None = field(default=None, repr=False, compare=False)
    # The document the fix applies to: `fix()` checks against it that the fix leaves code that parses.
    source_text: str | None = field(default=None, repr=False, compare=False)
    # The builder checks the fix itself (a notebook finding's fix: checked on the notebook's whole program, since
    # its edits may be in several cells); then `source_text` is not used.
    builder_checks_fix: bool = field(default=False, repr=False, compare=False)
    _fix: Fix | None = field(default=None, repr=False, compare=False)
    _fix_built: bool = field(default=False, repr=False, compare=False)

    @property
    def fixable(self) -> bool:
        return self.fix_builder is not None

    def fix(self) -> Fix | None:
        """The fix, only when the document still parses with it applied. This is the one check every consumer
        relies on (CLI --fix and --diff, the JSON `fix` field, the editor's quick fixes and fix-all): a fix that
        does not re-parse is a bug of ours and is withheld; without the document to check against, none is
        given."""
        if not self._fix_built:
            fix = self.fix_builder() if self.fix_builder is not None else None
            if fix is not None and not self.builder_checks_fix and (
                    self.source_text is None or not parses_after(self.source_text, [fix])):
                fix = None
            self._fix = fix
            self._fix_built = True
        return self._fix

    def to_json(self, with_fix: bool = True) -> dict[str, Any]:
        fix = self.fix() if with_fix else None
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "url": self.url,
            "fix": fix.to_json() if fix is not None else None,
            "cell": self.cell,
        }


def non_overlapping(fixes: list[Fix | None], safe_only: bool) -> list[Fix]:
    """The fixes (in order) whose edits do not touch an earlier chosen fix's edits, so all apply at once."""
    chosen: list[Fix] = []
    taken: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for fix in fixes:
        if fix is None or (safe_only and not fix.safe):
            continue
        spans = [((e.line, e.column), (e.end_line, e.end_column)) for e in fix.edits]
        if any(s <= t_end and t_start <= e for s, e in spans for t_start, t_end in taken):
            continue
        chosen.append(fix)
        taken.extend(spans)
    return chosen


def parses_after(text: str, fixes: list[Fix]) -> bool:
    """Whether the text still parses with these (non-overlapping) fixes applied; see sharpbits.fix_check."""
    return fix_check.parses_after(text, fixes)
