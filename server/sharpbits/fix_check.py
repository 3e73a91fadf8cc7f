"""The one check every fix passes before anyone sees it: the document still parses with the fix applied.

`Finding.fix()` runs it (so the CLI's --fix and --diff, the JSON output's `fix` field, and the editor's quick
fixes and fix-all all get only fixes that re-parse), and code that applies several fixes at once runs it again
on the combination.

Re-parsing the whole document for each fix is quadratic on a large file with many findings (50,000 lines with
12,500 fixes), so the check parses only what a fix touches, soundly: a module splits into *segments*, each
starting at the first line of a top-level statement (its decorators included) and running to the line before
the next one (the first segment also holds what comes before the first statement). Each segment begins at
column 0, outside any bracket or string, with the indentation stack empty, so when the document parses, it
still parses after some segments are replaced if and only if each replaced segment parses on its own and ends
with a line break (or ends the document). Where that argument does not hold (a document that does not parse,
a fix that writes `__future__`, the `barry_as_FLUFL` future that changes the grammar), the whole document is
parsed.
"""

from __future__ import annotations

import ast
import bisect
import contextlib
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sharpbits.analysis.parsing import parse_module

if TYPE_CHECKING:
    from sharpbits.findings import Fix, TextEdit

_PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError)


def parses(text: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarnings about the user's code are not ours to print
        try:
            parse_module(text)
        except _PARSE_ERRORS:
            return False
    return True


class _Segments:
    """Where a parsing document's top-level statements begin, and its lines."""

    def __init__(self, text: str, tree: ast.Module | None) -> None:
        from sharpbits.source import split_lines

        self.lines = split_lines(text)
        self.starts: list[int] | None = None  # 1-based first line of each segment; None: no local checks
        if "barry_as_FLUFL" in text:
            return
        if tree is None:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    tree = parse_module(text)
            except _PARSE_ERRORS:
                return
        starts = [1]
        previous_end = 0
        for stmt in tree.body:
            decorators = getattr(stmt, "decorator_list", [])
            first = min([stmt.lineno, *(d.lineno for d in decorators)])
            # a statement sharing a line with the previous one (`a = 1; b = 2`), or a decorator whose `@` is not
            # where its expression starts (`@\` + newline), stays in the previous segment
            starts_line = not decorators or self.lines[first - 1].startswith("@")
            if first > previous_end and first > starts[-1] and starts_line:
                starts.append(first)
            previous_end = max(previous_end, stmt.end_lineno or stmt.lineno)
        self.starts = starts

    def segment_of(self, line: int) -> int:
        assert self.starts is not None
        return bisect.bisect_right(self.starts, max(1, min(line, len(self.lines)))) - 1

    def bounds(self, index: int) -> tuple[int, int]:
        """First and last line (1-based, inclusive) of segment `index`."""
        assert self.starts is not None
        last = self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.lines)
        return self.starts[index], last


# Recent documents, keyed by the identity of their text (each entry keeps its text alive, so the id stays its
# own): the trees the analysis already parsed, and the segments computed from them.
# No lock (the language server checks fixes from two threads): each dict operation is atomic, an entry is only
# trusted when it holds this very text, and a lost race costs a recomputation, never a wrong answer.
_RECENT = 8
_trees: dict[int, tuple[str, ast.Module]] = {}
_segment_cache: dict[int, tuple[str, _Segments]] = {}


def _remember(cache: dict[int, tuple[str, Any]], text: str, value: Any) -> None:
    if len(cache) >= _RECENT:
        with contextlib.suppress(StopIteration, KeyError, RuntimeError):  # another thread evicted meanwhile
            cache.pop(next(iter(cache)))
    cache[id(text)] = (text, value)


def _recall(cache: dict[int, tuple[str, Any]], text: str) -> Any:
    entry = cache.get(id(text))
    return entry[1] if entry is not None and entry[0] is text else None


def remember_tree(text: str, tree: ast.Module) -> None:
    """The analysis's own parse of `text` (`ast.parse(text)`), so that checking this document's fixes does not
    parse it a second time. Cheap: nothing is computed until a fix is checked."""
    if _recall(_trees, text) is None:
        _remember(_trees, text, tree)


def _segments(text: str) -> _Segments:
    segments = _recall(_segment_cache, text)
    if segments is None:
        segments = _Segments(text, _recall(_trees, text))
        _remember(_segment_cache, text, segments)
    return segments


def _shifted(edit: TextEdit, lines_before: int) -> TextEdit:
    from dataclasses import replace

    return replace(edit, line=edit.line - lines_before, end_line=edit.end_line - lines_before)


def apply_edits(text: str, edits: list[TextEdit] | tuple[TextEdit, ...]) -> str:
    """Applies non-overlapping edits (1-based lines, character columns) to text; edits may come in any order."""
    from sharpbits.source import split_lines  # (what the parser counts as lines)

    lines = split_lines(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, column: int) -> int:
        if line > len(lines):
            return len(text)
        return starts[line - 1] + column - 1

    out = text
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        start, end = offset(edit.line, edit.column), offset(edit.end_line, edit.end_column)
        out = out[:start] + edit.new_text + out[end:]
    return out


def parses_after(text: str, fixes: Sequence[Fix]) -> bool:
    """Whether `text` still parses with all of `fixes` (non-overlapping) applied."""
    edits = [e for fix in fixes for e in fix.edits]
    segments = _segments(text)
    if segments.starts is None or any("__future__" in e.new_text for e in edits):
        return parses(apply_edits(text, edits))
    # the segments each edit touches; an edit that ends at column 1 of a line does not touch that line
    touched: dict[int, list[TextEdit]] = {}
    runs: list[tuple[int, int]] = []
    for edit in edits:
        last_line = edit.end_line - 1 if edit.end_column == 1 and edit.end_line > edit.line else edit.end_line
        first, last = segments.segment_of(edit.line), segments.segment_of(last_line)
        runs.append((first, last))
        touched.setdefault(first, []).append(edit)
    # merge overlapping or adjacent segment ranges into runs that are checked as one piece
    runs.sort()
    merged: list[list[int]] = []
    for first, last in runs:
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    for first, last in merged:
        start_line, _ = segments.bounds(first)
        _, end_line = segments.bounds(last)
        piece = "".join(segments.lines[start_line - 1 : end_line])
        inside = [_shifted(e, start_line - 1) for index in range(first, last + 1) for e in touched.get(index, [])]
        new_piece = apply_edits(piece, inside)
        ends_document = end_line >= len(segments.lines)
        if not ends_document and not new_piece.endswith(("\n", "\r")):
            return parses(apply_edits(text, edits))  # the next segment would join its last line
        if not parses(new_piece):
            return False
    return True
