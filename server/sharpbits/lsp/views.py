"""What every feature sees of one analysed document, a `.py` file or a notebook cell alike: its findings, traced
functions and lines in its own coordinates (`Analysed`), and how its fixes become workspace edits (`Fixes`).

A notebook cell's view is made by the notebook adapter (lsp/notebooks.py) from the notebook's analysis; features
never ask which kind of document they have.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from sharpbits.analysis.engine import AnalysisResult
from sharpbits.findings import Finding, Fix, non_overlapping, parses_after
from sharpbits.lsp.positions import ClientColumns

FixScope = Literal["document", "notebook"]  # "fix all" in this document, or in its whole notebook


class Fixes(Protocol):
    """The fixes of one analysed document, as edits the editor applies."""

    def prepare(self, findings: list[Finding]) -> None:
        """Builds the fixes of these findings ahead (blocking: call it off the event loop)."""

    def offers(self, finding: Finding) -> bool:
        """Whether a quick fix is offered for the finding (a fix that would not parse is withheld)."""

    def can_fix_all(self, scope: FixScope) -> bool:
        """Whether "fix all" has anything to do in this scope."""

    def edit(self, index: int | None, scope: FixScope, codec: PositionCodec,
             unsafe: bool = False) -> types.WorkspaceEdit | None:
        """The edit of finding `index`'s fix, or with `index` None every safe fix in `scope` (every fix with
        `unsafe`) (blocking)."""


@dataclass
class Analysed:
    """The latest analysis of one document (one per open document or notebook cell)."""

    uri: str
    version: int | None
    lines: list[str]
    result: AnalysisResult
    fixes: Fixes
    bom: bool = False  # the document starts with U+FEFF, which the analysis did not see (shifts line 1 by one)
    # the notebook cells a trace from this document runs, as (uri, version); None for a file
    cells: tuple[tuple[str, int | None], ...] | None = None

    def columns(self, codec: PositionCodec) -> ClientColumns:
        return ClientColumns(self.lines, codec, 1 if self.bom else 0)


class FileFixes:
    """The fixes of a `.py` document: each checked against the document's text."""

    def __init__(self, uri: str, version: int | None, lines: list[str], findings: list[Finding], bom: bool) -> None:
        self.uri = uri
        self.version = version
        self.lines = lines
        self.findings = findings
        self.bom = bom

    def prepare(self, findings: list[Finding]) -> None:
        for f in findings:
            if f.fixable:
                f.fix()

    def offers(self, finding: Finding) -> bool:
        return finding.fixable and finding.fix() is not None

    def can_fix_all(self, scope: FixScope) -> bool:
        return scope == "document" and any(f.fixable for f in self.findings)

    def edit(self, index: int | None, scope: FixScope, codec: PositionCodec,
             unsafe: bool = False) -> types.WorkspaceEdit | None:
        if index is None:
            if scope != "document":
                return None
            fixes = non_overlapping([f.fix() for f in self.findings if f.fixable], safe_only=not unsafe)
        else:
            fix = self.findings[index].fix() if 0 <= index < len(self.findings) else None
            fixes = [fix] if fix is not None else []
        if not fixes or not parses_after("".join(self.lines), fixes):
            return None
        return self._workspace_edit(fixes, codec)

    def _workspace_edit(self, fixes: list[Fix], codec: PositionCodec) -> types.WorkspaceEdit:
        edits = []
        columns = ClientColumns(self.lines, codec, 1 if self.bom else 0)
        for fix in fixes:
            for e in fix.edits:
                start = columns.to_client(e.line, e.column)
                end = columns.to_client(e.end_line, e.end_column)
                edits.append(types.TextEdit(range=types.Range(start, end), new_text=e.new_text))
        doc = types.OptionalVersionedTextDocumentIdentifier(uri=self.uri, version=self.version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=doc, edits=edits)])


def file_view(uri: str, version: int | None, lines: list[str], result: AnalysisResult, bom: bool) -> Analysed:
    return Analysed(uri, version, lines, result, FileFixes(uri, version, lines, result.findings, bom), bom)
