"""Positions at the protocol edge: findings count characters (code points), LSP clients count in the negotiated
encoding (UTF-16 for VS Code). Lines are those of the analysed text, split the way the Python parser splits."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from itertools import accumulate

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from sharpbits.findings import Finding


def _line(lines: list[str], index: int) -> str:
    return lines[index].rstrip("\r\n") if 0 <= index < len(lines) else ""


class ClientColumns:
    """Column conversion for one analysed text, each line measured at most once (4,000 findings on one long line
    cost one pass over it, not 4,000). ASCII lines need no table. `first_line_shift` is the client units before
    the analysed text on line 1 (a byte order mark the analysis did not see)."""

    def __init__(self, lines: list[str], codec: PositionCodec, first_line_shift: int = 0) -> None:
        self.lines = lines
        self.codec = codec
        self.first_line_shift = first_line_shift
        self._tables: dict[int, list[int] | None] = {}

    def _table(self, index: int) -> list[int] | None:
        """Cumulative client units before each character of the line, or None where units equal characters."""
        if index in self._tables:
            return self._tables[index]
        text = _line(self.lines, index)
        table: list[int] | None = None
        encoding = str(getattr(self.codec.encoding, "value", self.codec.encoding) or "utf-16").lower()
        if not text.isascii() and encoding != "utf-32":
            if encoding == "utf-16":
                sizes: Iterable[int] = (2 if ord(c) > 0xFFFF else 1 for c in text)
            else:
                sizes = (self.codec.client_num_units(c) for c in text)
            table = [0, *accumulate(sizes)]
        self._tables[index] = table
        return table

    def to_client(self, line: int, column: int) -> types.Position:
        """1-based line and character column -> 0-based LSP position in client units."""
        index = max(line - 1, 0)
        table = self._table(index)
        length = len(_line(self.lines, index)) if table is None else len(table) - 1
        column = min(max(column - 1, 0), length)
        units = column if table is None else table[column]
        return types.Position(line=index, character=units + (self.first_line_shift if index == 0 else 0))

    def range(self, f: Finding) -> types.Range:
        return types.Range(self.to_client(f.line, f.column), self.to_client(f.end_line, f.end_column))

    def from_client(self, position: types.Position) -> tuple[int, int]:
        """LSP position in client units -> (1-based line, 1-based character column), clamped to the line."""
        index = position.line
        table = self._table(index)
        length = len(_line(self.lines, index)) if table is None else len(table) - 1
        units = position.character - (self.first_line_shift if index == 0 else 0)
        column = min(max(units, 0), length) if table is None else min(bisect_left(table, max(units, 0)), length)
        return index + 1, column + 1
