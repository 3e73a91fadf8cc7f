"""Positions at the protocol edge: findings count characters (code points), LSP clients count in the negotiated
encoding (UTF-16 for VS Code). Lines are those of the analysed text, split the way the Python parser splits."""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from sharpbits.findings import Finding


def _line(lines: list[str], index: int) -> str:
    return lines[index].rstrip("\r\n") if 0 <= index < len(lines) else ""


def to_client(lines: list[str], line: int, column: int, codec: PositionCodec) -> types.Position:
    """1-based line and character column -> 0-based LSP position in client units."""
    text = _line(lines, line - 1)
    return types.Position(line=max(line - 1, 0), character=codec.client_num_units(text[: max(column - 1, 0)]))


def range_to_client(lines: list[str], f: Finding, codec: PositionCodec) -> types.Range:
    return types.Range(to_client(lines, f.line, f.column, codec), to_client(lines, f.end_line, f.end_column, codec))


def from_client(lines: list[str], position: types.Position, codec: PositionCodec) -> tuple[int, int]:
    """LSP position in client units -> (1-based line, 1-based character column)."""
    text = _line(lines, position.line)
    units = 0
    for index, char in enumerate(text):
        if units >= position.character:
            return position.line + 1, index + 1
        units += codec.client_num_units(char)
    return position.line + 1, len(text) + 1
