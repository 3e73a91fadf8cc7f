"""Jupyter notebooks (nbformat 4) as one Python program: what "Run All" executes.

A notebook is analysed as its code cells concatenated in order, so a PRNG key made in one cell and consumed in
two later ones is reused, and a function jitted in one cell with a helper from another is traced. IPython
syntax that is not Python is masked first, keeping every other character at its line and column:

- cell magics: `%%time` / `%%timeit` bodies are Python and stay code (the magic line is masked); any other cell
  magic (`%%capture`, `%%bash`, `%%writefile`, ...) makes the whole cell blank;
- line magics: `%time` / `%timeit` followed by a simple statement keep the statement as code (the magic and its
  options become `pass;` plus spaces, so the statement keeps its column); every other line magic, shell escape
  (`!pip install`, `files = !ls`, `x = %who_ls`), help (`x?`, `??x`) and auto-call (`/f x`, `,f a b`) becomes
  a `pass` (or `name = None` for an assignment from a magic) at the same indentation;
- a cell that still does not parse on its own is left out and reported as a syntax error in that cell.

The lines a timing magic times (`%timeit f(x)`, a `%%timeit` body) are kept as `TimedRegion`s that the analysis
gets with the program, so `unblocked-timing` sees them as timings. A trace from a cell runs the program masked
with `RUN_MAGICS` instead: `%time` code runs, `%timeit` / `%%timeit` code does not (sharpbits.trace.notebook).

Findings come back with their cell (`cell`: 1-based among all cells, markdown included, as editors show them)
and a line and column relative to that cell. Fixes are applied per cell and written back by replacing only the
`source` values of the changed cells in the file's own text, so metadata, outputs, execution counts, key
order, indentation and the trailing newline stay byte-for-byte as they were.

Standard library only: the CLI's start-up path and the language server import this module.
"""

from __future__ import annotations

import json
import re
import warnings
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from typing import Any

from sharpbits.analysis.engine import SYNTAX_ERROR_CODE, SYNTAX_ERROR_RULE, AnalysisResult, Selection, analyze
from sharpbits.analysis.parsing import parse_module
from sharpbits.analysis.rules.base import TimedRegion
from sharpbits.findings import Finding, Fix, TextEdit, apply_edits, non_overlapping
from sharpbits.source import split_lines

NOTEBOOK_SUFFIX = ".ipynb"
PYTHON_BODY_CELL_MAGICS = frozenset({"time", "timeit"})  # the cell body is Python that runs as written
PYTHON_ARGUMENT_LINE_MAGICS = frozenset({"time", "timeit"})  # the rest of the line is a Python statement
# What a trace runs (the cells above a function, as "Run All" would, minus what only measures): `%time x = f(y)`
# and a `%%time` body run once and define names; `%timeit` / `%%timeit` only repeat code (their assignments do
# not even reach the notebook's namespace), so they are not run.
RUN_MAGICS = frozenset({"time"})
_TIMEIT_OPTIONS_WITH_VALUE = frozenset("nrp")  # `%timeit -n 10 -r 3 -p 4 f(x)`
_TIMEIT_FLAGS = frozenset("tcqo")


class NotebookError(ValueError):
    """The file is not a notebook this tool can read: invalid JSON, or not nbformat 4."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.line, self.column = line, column


# ---- IPython syntax ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MaskedSpan:
    """Characters [start, end) of a cell line (0-based line and columns) that were IPython syntax, not code."""

    line: int
    start: int
    end: int


@dataclass(frozen=True)
class TimedLines:
    """Cell lines [first, last] (0-based) whose statements an IPython timing magic times (`%timeit f(x)`: one line;
    a `%%timeit` cell: its body)."""

    first: int
    last: int
    magic: str  # as written: "%timeit", "%%time", ...


@dataclass
class MaskedCell:
    text: str  # the cell as Python: same number of lines; unmasked characters at their original positions
    spans: list[MaskedSpan] = field(default_factory=list)
    skipped: str | None = None  # why the whole cell is not code (e.g. "%%bash cell"), else None
    timed: list[TimedLines] = field(default_factory=list)


_CELL_MAGIC = re.compile(r"%%(?P<name>[\w.]+)")
_LINE_MAGIC = re.compile(r"(?P<escape>%{1,2}|!{1,2})")
_ASSIGNED_ESCAPE = re.compile(r"(?P<lhs>[\w.,\s\[\]()*]+?\s*=\s*)(?P<escape>%|!)(?!=)")
_HELP = re.compile(r"(?:\?{1,2}[\w.*\[\]()'\"]+|[\w.*\[\]()'\"]+\?{1,2})\s*(?:#.*)?")
_AUTOCALL = re.compile(r"[/,;]\s*[A-Za-z_]")


def mask_ipython(cell_source: str, code_magics: frozenset[str] = PYTHON_BODY_CELL_MAGICS) -> MaskedCell:
    """The cell with its IPython syntax masked (see the module docstring); lines and kept columns unchanged.
    `code_magics`: the timing magics whose code is kept (for analysis, all of them; for running, RUN_MAGICS)."""
    lines = split_lines(cell_source)
    bodies = [line.rstrip("\r\n") for line in lines]
    endings = [line[len(body):] for line, body in zip(lines, bodies, strict=True)]
    first = next((i for i, body in enumerate(bodies) if body.strip()), None)
    timed: list[TimedLines] = []
    if first is not None and bodies[first].startswith("%%"):
        match = _CELL_MAGIC.match(bodies[first])
        name = match.group("name") if match else ""
        if name not in code_magics:
            blank = "\n" * len(lines)  # every line kept, so the cells after it start where they should
            whole = [MaskedSpan(i, 0, len(body)) for i, body in enumerate(bodies) if body]
            return MaskedCell(blank, whole, skipped=f"%%{name} cell")
        if first + 1 < len(lines):
            timed.append(TimedLines(first + 1, len(lines) - 1, f"%%{name}"))
    out: list[str] = []
    spans: list[MaskedSpan] = []
    scanner = _LogicalLineScanner()
    continuing_magic = False
    for index, body in enumerate(bodies):
        if continuing_magic:  # a magic line ended with a backslash: this line belongs to it
            out.append(_indent_of(body) + "pass" if body.strip() else body)
            spans.append(MaskedSpan(index, 0, len(body)))
            continuing_magic = body.endswith("\\")
            continue
        masked = _mask_line(body, index == first, code_magics) if scanner.at_statement_start() else None
        if masked is None:
            out.append(body)
            scanner.feed(body)
            continue
        text, code_start = masked
        out.append(text)
        spans.append(MaskedSpan(index, 0, code_start if code_start is not None else len(body)))
        if code_start is not None:
            scanner.feed(body[code_start:])
            if index != first or not body.lstrip().startswith("%%"):  # `%%timeit setup`: the setup is not timed
                timed.append(TimedLines(index, index, "%" + body.lstrip().lstrip("%").split()[0]))
        else:
            continuing_magic = body.endswith("\\")
    text = "".join(text + ending for text, ending in zip(out, endings, strict=True))
    return MaskedCell(text, spans, timed=timed)


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _mask_line(body: str, first_line: bool, code_magics: frozenset[str]) -> tuple[str, int | None] | None:
    """None if the line is Python; else (masked line, column where kept code starts, or None if none is kept)."""
    stripped = body.lstrip()
    indent = body[: len(body) - len(stripped)]
    if not stripped:
        return None
    if stripped.startswith("%%") and first_line:  # %%time / %%timeit: the line may carry setup code
        kept = _kept_statement(body, len(indent) + 2, code_magics)
        return kept if kept is not None else (indent + "pass", None)
    if stripped[0] in "%!":
        if stripped[0] == "%":
            kept = _kept_statement(body, len(indent) + 1, code_magics)
            if kept is not None:
                return kept
        return indent + "pass", None
    assigned = _ASSIGNED_ESCAPE.match(stripped)
    if assigned is not None and not _parses(stripped) and _parses(assigned.group("lhs") + "None"):
        return indent + assigned.group("lhs") + "None", None
    if _HELP.fullmatch(stripped) and not _parses(stripped):
        return indent + "pass", None
    if _AUTOCALL.match(stripped) and not _parses(stripped):
        return indent + "pass", None
    return None


def _kept_statement(body: str, name_start: int, code_magics: frozenset[str]) -> tuple[str, int] | None:
    """For `%time CODE` / `%timeit -n 10 CODE` (the magic's name starts at `name_start`): the line with the magic
    and its options replaced by `pass;` and spaces, so CODE keeps its columns; None if there is no simple
    statement to keep."""
    match = re.match(r"[\w.]+", body[name_start:])
    if match is None or match.group() not in PYTHON_ARGUMENT_LINE_MAGICS or match.group() not in code_magics:
        return None
    position = name_start + match.end()
    while True:
        option = re.match(r"\s+-(\w)(\S*)", body[position:])
        if option is None:
            break
        letter, attached = option.group(1), option.group(2)
        if letter in _TIMEIT_OPTIONS_WITH_VALUE:
            position += option.end()
            if not attached:
                value = re.match(r"\s+\S+", body[position:])
                position += value.end() if value else 0
        elif letter in _TIMEIT_FLAGS and not attached:
            position += option.end()
        else:
            break
    code_start = position + len(body[position:]) - len(body[position:].lstrip())
    code = body[code_start:]
    indent = _indent_of(body)
    prefix = indent + "pass;"
    if not code.strip() or code.rstrip().endswith("\\") or code_start < len(prefix) + 1:
        return None
    candidate = prefix + " " * (code_start - len(prefix)) + code
    return (candidate, code_start) if _parses(candidate.lstrip()) else None


def _parses(code: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parse_module(code)
    except (SyntaxError, ValueError):
        return False
    return True


class _LogicalLineScanner:
    """Tracks, line by line, whether the next line starts a new statement: not inside brackets, a triple-quoted
    string or a backslash continuation (`% b` on a line inside parentheses is the modulo operator)."""

    def __init__(self) -> None:
        self.depth = 0
        self.in_string: str | None = None  # the open triple quote
        self.continued = False

    def at_statement_start(self) -> bool:
        return self.depth == 0 and self.in_string is None and not self.continued

    def feed(self, line: str) -> None:
        i, n = 0, len(line)
        self.continued = False
        while i < n:
            if self.in_string is not None:
                end = line.find(self.in_string, i)
                while end > 0 and _escaped(line, end):
                    end = line.find(self.in_string, end + 1)
                if end < 0:
                    return
                i, self.in_string = end + 3, None
                continue
            char = line[i]
            if char == "#":
                return
            if char in "\"'":
                if line.startswith(char * 3, i):
                    self.in_string, i = char * 3, i + 3
                    continue
                j = i + 1
                while j < n and line[j] != char:
                    j += 2 if line[j] == "\\" else 1
                i = j + 1
                continue
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(self.depth - 1, 0)
            elif char == "\\" and i == n - 1:
                self.continued = True
            i += 1


def _escaped(line: str, position: int) -> bool:
    backslashes = len(line[:position]) - len(line[:position].rstrip("\\"))
    return backslashes % 2 == 1


# ---- reading notebooks, with the position of every value -----------------------------------------------------


_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")


class _Spanned:
    """A JSON value with the [start, end) offsets of its text in the file."""

    __slots__ = ("children", "end", "start", "value")

    def __init__(self, value: Any, start: int, end: int, children: Any = None) -> None:
        self.value, self.start, self.end, self.children = value, start, end, children


class _SpanParser:
    """A small strict JSON parser that remembers where each value is (json.loads does not)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.decoder = json.JSONDecoder()

    def error(self, message: str, position: int) -> NotebookError:
        line = self.text.count("\n", 0, position) + 1
        column = position - (self.text.rfind("\n", 0, position) + 1) + 1
        return NotebookError(f"not valid JSON: {message} (line {line}, column {column})", line, column)

    def skip(self, position: int) -> int:
        return _WHITESPACE.match(self.text, position).end()  # type: ignore[union-attr]

    def parse(self) -> _Spanned:
        position = self.skip(0)
        if position >= len(self.text):
            raise self.error("the file is empty", position)
        value = self.value(position)
        end = self.skip(value.end)
        if end != len(self.text):
            raise self.error("extra data after the end", end)
        return value

    def value(self, position: int) -> _Spanned:
        text = self.text
        char = text[position] if position < len(text) else ""
        if char == "{":
            return self.object(position)
        if char == "[":
            return self.array(position)
        if char == '"':
            try:
                string, end = json.decoder.scanstring(text, position + 1)  # type: ignore[attr-defined]
            except json.JSONDecodeError as exc:
                raise self.error(exc.msg, exc.pos) from None
            return _Spanned(string, position, end)
        for literal, value in (("true", True), ("false", False), ("null", None)):
            if text.startswith(literal, position):
                return _Spanned(value, position, position + len(literal))
        number = _NUMBER.match(text, position)
        if number is not None and number.end() > position:
            return _Spanned(json.loads(number.group()), position, number.end())
        raise self.error("expected a value" if char else "unexpected end of file", position)

    def object(self, start: int) -> _Spanned:
        children: dict[str, _Spanned] = {}
        position = self.skip(start + 1)
        if self.text.startswith("}", position):
            return _Spanned({k: v.value for k, v in children.items()}, start, position + 1, children)
        while True:
            if not self.text.startswith('"', position):
                raise self.error("expected a key in double quotes", position)
            key = self.value(position)
            position = self.skip(key.end)
            if not self.text.startswith(":", position):
                raise self.error("expected ':'", position)
            item = self.value(self.skip(position + 1))
            children[key.value] = item
            position = self.skip(item.end)
            if self.text.startswith(",", position):
                position = self.skip(position + 1)
                continue
            if self.text.startswith("}", position):
                return _Spanned({k: v.value for k, v in children.items()}, start, position + 1, children)
            raise self.error("expected ',' or '}'", position)

    def array(self, start: int) -> _Spanned:
        items: list[_Spanned] = []
        position = self.skip(start + 1)
        if self.text.startswith("]", position):
            return _Spanned([], start, position + 1, items)
        while True:
            item = self.value(position)
            items.append(item)
            position = self.skip(item.end)
            if self.text.startswith(",", position):
                position = self.skip(position + 1)
                continue
            if self.text.startswith("]", position):
                return _Spanned([i.value for i in items], start, position + 1, items)
            raise self.error("expected ',' or ']'", position)


@dataclass
class Cell:
    index: int  # 0-based among all cells; users see index + 1
    kind: str  # "code", "markdown", "raw"
    source: str
    source_span: tuple[int, int] | None = None  # where the `source` value is in the file's text
    source_is_list: bool = True
    first_file_line: int = 1  # the file line (1-based) of each source line, for SARIF/github annotations
    file_lines: list[int] = field(default_factory=list)


@dataclass
class Notebook:
    text: str  # the file's text as read
    cells: list[Cell]
    language: str | None  # from the kernelspec / language_info, None if the file does not say

    @property
    def is_python(self) -> bool:
        return self.language is None or self.language.lower() in ("python", "python3", "ipython", "ipython3")

    def file_line(self, cell_index: int, line: int) -> int:
        """The file line on which a cell's (1-based) source line is written, for tools that annotate the file."""
        cell = self.cells[cell_index]
        if 1 <= line <= len(cell.file_lines):
            return cell.file_lines[line - 1]
        return cell.file_lines[-1] if cell.file_lines else cell.first_file_line


def parse_notebook(text: str) -> Notebook:
    """Reads an nbformat 4 notebook; raises NotebookError saying what is wrong (with the file line)."""
    root = _SpanParser(text).parse()
    if not isinstance(root.value, dict):
        raise NotebookError("not a notebook: the top level is not a JSON object")
    nbformat = root.value.get("nbformat")
    if nbformat != 4:
        found = "no `nbformat` field" if nbformat is None else f"nbformat {nbformat!r}"
        raise NotebookError(f"not an nbformat 4 notebook ({found}); convert it with `jupyter nbconvert --to notebook`")
    cells_node = root.children.get("cells")
    if cells_node is None or not isinstance(cells_node.value, list):
        raise NotebookError("not an nbformat 4 notebook: no `cells` list")
    line_starts = _line_starts(text)
    cells = []
    for index, node in enumerate(cells_node.children):
        where = f"cell {index + 1}"
        if not isinstance(node.value, dict) or not isinstance(node.value.get("cell_type"), str):
            raise NotebookError(f"not an nbformat 4 notebook: {where} has no `cell_type`",
                                *_line_column(line_starts, node.start))
        source_node = node.children.get("source")
        source_value = source_node.value if source_node is not None else ""
        if isinstance(source_value, list) and all(isinstance(s, str) for s in source_value):
            source, is_list = "".join(source_value), True
            assert source_node is not None
            file_lines = _list_file_lines(source_node, line_starts)
        elif isinstance(source_value, str):
            source, is_list = source_value, False
            start_line = _line_column(line_starts, source_node.start)[0] if source_node is not None else 1
            file_lines = [start_line] * max(len(split_lines(source)), 1)
        else:
            raise NotebookError(f"not an nbformat 4 notebook: the `source` of {where} is not text",
                                *_line_column(line_starts, source_node.start if source_node else node.start))
        span = (source_node.start, source_node.end) if source_node is not None else None
        first = file_lines[0] if file_lines else _line_column(line_starts, node.start)[0]
        cells.append(Cell(index, node.value["cell_type"], source, span, is_list, first, file_lines))
    metadata = root.value.get("metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    language = None
    for holder, key in (("kernelspec", "language"), ("language_info", "name")):
        section = metadata.get(holder)
        if isinstance(section, dict) and isinstance(section.get(key), str):
            language = section[key]
            break
    return Notebook(text, cells, language)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    position = text.find("\n")
    while position >= 0:
        starts.append(position + 1)
        position = text.find("\n", position + 1)
    return starts


def _line_column(line_starts: list[int], offset: int) -> tuple[int, int]:
    import bisect

    line = bisect.bisect_right(line_starts, offset)
    return line, offset - line_starts[line - 1] + 1


def _list_file_lines(source_node: _Spanned, line_starts: list[int]) -> list[int]:
    """For a `source` list: the file line of each source line (a list item may hold several lines)."""
    out: list[int] = []
    for item in source_node.children:
        out.extend([_line_column(line_starts, item.start)[0]] * max(len(split_lines(item.value)), 1))
    return out


# ---- analysis ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CellLocation:
    """Where a finding is in a notebook: the cell (0-based index among all cells) and the line in that cell."""

    cell: int
    line: int


@dataclass
class ProgramCell:
    cell: int  # index among all cells
    first_line: int  # the program line (1-based) where this cell starts
    line_count: int
    masked: MaskedCell
    source: str  # the cell's own text (unmasked)


@dataclass
class NotebookProgram:
    """The code cells concatenated: the text the engine analyses, and the table that maps lines back."""

    text: str
    cells: list[ProgramCell]
    syntax_errors: list[Finding]  # one per code cell that does not parse on its own (left out of `text`)
    timed_regions: tuple[TimedRegion, ...] = ()  # `%timeit` lines and `%%timeit` bodies, in program lines

    def locate(self, line: int) -> tuple[ProgramCell, int] | None:
        """A program line -> (its cell, the 1-based line in the cell); None past the end. The cells are in
        program order, so the one that may hold the line is found by bisection (a notebook of 8,000 cells
        located each finding by scanning them all)."""
        at = bisect_right(self.cells, line, key=lambda cell: cell.first_line) - 1
        if at >= 0:
            cell = self.cells[at]
            if line < cell.first_line + cell.line_count:
                return cell, line - cell.first_line + 1
        return None

    def touches_masked(self, edit: TextEdit) -> bool:
        start, end = (edit.line, edit.column - 1), (edit.end_line, edit.end_column - 1)
        for cell in self.cells:
            for span in cell.masked.spans:
                line = cell.first_line + span.line
                if (line, span.start) < end and (line, span.end) > start:
                    return True
                if start == end and (line, span.start) < start < (line, span.end):
                    return True
        return False


def build_program(sources: list[tuple[int, str]], path: str = "<notebook>",
                  code_magics: frozenset[str] = PYTHON_BODY_CELL_MAGICS) -> NotebookProgram:
    """`sources`: (cell index among all cells, text) of the code cells in order. `code_magics`: see mask_ipython."""
    parts: list[str] = []
    cells: list[ProgramCell] = []
    errors: list[Finding] = []
    timed: list[TimedRegion] = []
    line = 1
    for index, source in sources:
        masked = mask_ipython(source, code_magics)
        text = masked.text
        if text and not text.endswith(("\n", "\r")):
            text += "\n"
        problem = _parse_problem(text) if masked.skipped is None else None
        if problem is not None:
            errors.append(_cell_syntax_error(path, index, problem, split_lines(text)))
            text = "\n" * len(split_lines(text))
            masked = MaskedCell(text, [MaskedSpan(i, 0, len(line)) for i, line in enumerate(split_lines(source))])
        count = len(split_lines(text))
        cells.append(ProgramCell(index, line, count, masked, source))
        timed.extend(TimedRegion(line + t.first, line + t.last, t.magic) for t in masked.timed)
        parts.append(text)
        line += count
    return NotebookProgram("".join(parts), cells, errors, tuple(timed))


def _parse_problem(text: str) -> SyntaxError | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parse_module(text)
    except SyntaxError as exc:
        return exc
    except (ValueError, RecursionError, MemoryError) as exc:
        return SyntaxError(str(exc) or type(exc).__name__)
    return None


def _cell_syntax_error(path: str, cell: int, exc: SyntaxError, lines: list[str]) -> Finding:
    """At the parser's position, kept inside the cell (it may point past the end of a line or of the cell)."""
    line = min(max(exc.lineno or 1, 1), max(len(lines), 1))
    length = len(lines[line - 1].rstrip("\r\n")) if lines else 0
    column = min(max(exc.offset or 1, 1), length + 1)
    end_column = min(column + 1, length + 1)
    return Finding(path=path, line=line, column=column, end_line=line, end_column=end_column, code=SYNTAX_ERROR_CODE,
                   rule=SYNTAX_ERROR_RULE, severity="error", url="", cell=cell + 1,
                   message=f"syntax error: {exc.msg or exc} (this cell was left out of the analysis)")


@dataclass
class NotebookAnalysis:
    program: NotebookProgram
    result: AnalysisResult  # of the concatenated program (program coordinates)
    findings: list[Finding]  # cell coordinates: `cell` (1-based among all cells), lines relative to the cell
    origin: dict[int, Finding] = field(default_factory=dict)  # id(a cell finding) -> the program finding


def analyze_sources(sources: list[tuple[int, str]], path: str, selection: Selection | None = None) -> NotebookAnalysis:
    """Analyses code cells (index among all cells, text) as one program; findings in cell coordinates."""
    program = build_program(sources, path)
    return cell_analysis(program, analyze(program.text, path, selection, program.timed_regions))


def cell_analysis(program: NotebookProgram, result: AnalysisResult) -> NotebookAnalysis:
    """The analysis of a notebook's program (however it was obtained: here, or in the language server's child
    process) with its findings mapped to cells."""
    findings = list(program.syntax_errors)
    if result.syntax_error is not None:  # cannot happen: every cell parsed on its own; say so if it does
        findings.append(_to_cell(program, result.syntax_error) or result.syntax_error)
    origin = {}
    for finding in result.findings:
        mapped = _to_cell(program, finding)
        if mapped is not None:
            findings.append(mapped)
            origin[id(mapped)] = finding
    findings.sort(key=lambda f: (f.cell or 0, f.line, f.column, f.code))
    return NotebookAnalysis(program, result, findings, origin)


def analyze_notebook(notebook: Notebook, path: str, selection: Selection | None = None) -> NotebookAnalysis:
    sources = [(cell.index, cell.source) for cell in notebook.cells if cell.kind == "code"]
    return analyze_sources(sources, path, selection)


_LINE_MENTION = re.compile(r"\b(line )(\d+)\b")


def _mention(program: NotebookProgram, own_cell: int, text: str) -> str:
    """'at line 41' in a message -> 'at line 3' (same cell) or 'at cell 2, line 3'."""

    def rewrite(match: re.Match[str]) -> str:
        located = program.locate(int(match.group(2)))
        if located is None:
            return match.group(0)
        cell, line = located
        return f"line {line}" if cell.cell == own_cell else f"cell {cell.cell + 1}, line {line}"

    return _LINE_MENTION.sub(rewrite, text)


def _to_cell(program: NotebookProgram, finding: Finding) -> Finding | None:
    located, located_end = program.locate(finding.line), program.locate(finding.end_line)
    if located is None:
        return None
    cell, line = located
    if located_end is not None and located_end[0] is cell:
        end_line, end_column = located_end[1], finding.end_column
    else:  # cannot happen for a node of one statement; keep the range inside the cell
        end_line, end_column = line, finding.column + 1
    builder = finding.fix_builder
    mapped = replace(finding, line=line, end_line=end_line, end_column=end_column, cell=cell.cell + 1,
                     message=_mention(program, cell.cell, finding.message),
                     fix_builder=(lambda: cell_fix(program, finding)) if builder is not None else None,
                     # the program's fix was checked to re-parse; its edits may be in other cells
                     source_text=None, builder_checks_fix=True, _fix=None, _fix_built=False)
    return mapped


@dataclass(frozen=True)
class CellEdit:
    cell: int  # index among all cells
    edit: TextEdit  # in the cell's own lines and columns


def cell_edits(program: NotebookProgram, fix: Fix) -> list[CellEdit] | None:
    """A program fix as edits of cells; None if it would touch IPython syntax or cross a cell boundary."""
    out = []
    for edit in fix.edits:
        if program.touches_masked(edit):
            return None
        start = program.locate(edit.line)
        if start is None:
            return None
        cell, line = start
        end_line = edit.end_line - cell.first_line + 1
        if end_line > cell.line_count + 1 or (end_line == cell.line_count + 1 and edit.end_column != 1):
            return None
        out.append(CellEdit(cell.cell, replace(edit, line=line, end_line=end_line)))
    return out


def cell_fix(program: NotebookProgram, finding: Finding) -> Fix | None:
    """The finding's fix with edits in cell coordinates, each naming its cell (`TextEdit.cell`, 1-based among all
    cells): a fix may edit several cells (a key split where it was first used, a cell above). The program fix was
    checked to re-parse (Finding.fix); None when it would touch IPython syntax or cross a cell boundary."""
    fix = finding.fix()
    if fix is None:
        return None
    edits = cell_edits(program, fix)
    located = program.locate(finding.line)
    if edits is None or located is None:
        return None
    return Fix(fix.safe, _mention(program, located[0].cell, fix.description),
               tuple(replace(e.edit, cell=e.cell + 1) for e in edits))


def apply_cell_edits(sources: dict[int, str], edits: list[CellEdit]) -> dict[int, str]:
    """New texts of the edited cells (others unchanged). A cell that had no trailing newline keeps none."""
    by_cell: dict[int, list[TextEdit]] = {}
    for e in edits:
        by_cell.setdefault(e.cell, []).append(e.edit)
    out = {}
    for cell, cell_edit_list in by_cell.items():
        original = sources[cell]
        new = apply_edits(original if original.endswith("\n") or not original else original + "\n", cell_edit_list)
        if not original.endswith("\n") and new.endswith("\n"):
            new = new[:-1]
        out[cell] = new
    return out


# ---- fixing and writing back ---------------------------------------------------------------------------------

MAX_FIX_PASSES = 5


def fix_notebook(notebook: Notebook, path: str, selection: Selection, unsafe: bool) -> tuple[dict[int, str], int, str | None]:
    """Applies fixes until none is left; returns (new sources of the changed cells, fixes applied, error)."""
    sources = {cell.index: cell.source for cell in notebook.cells if cell.kind == "code"}
    original = dict(sources)
    applied = 0
    for _ in range(MAX_FIX_PASSES):
        analysis = analyze_sources(list(sources.items()), path, selection)
        program = analysis.program
        candidates = [f.fix() for f in analysis.result.findings if f.fixable]
        fixes = []
        for fix in non_overlapping(candidates, safe_only=not unsafe):
            edits = cell_edits(program, fix)
            if edits is not None:
                fixes.append((fix, edits))
        if not fixes:
            break
        new_sources = {**sources, **apply_cell_edits(sources, [e for _, group in fixes for e in group])}
        broken_before = {f.cell for f in program.syntax_errors}
        if {f.cell for f in build_program(list(new_sources.items()), path).syntax_errors} - broken_before:
            return _changed(original, sources), applied, "a fix produced code that does not parse; it was not applied"
        sources, applied = new_sources, applied + len(fixes)
    return _changed(original, sources), applied, None


def _changed(original: dict[int, str], sources: dict[int, str]) -> dict[int, str]:
    return {i: s for i, s in sources.items() if s != original[i]}


def write_sources(notebook: Notebook, new_sources: dict[int, str]) -> str:
    """The file's text with the `source` of the given cells replaced, in the file's own style; everything
    else byte-for-byte."""
    text = notebook.text
    ensure_ascii = text.isascii() and "\\u" in text
    replacements = []
    for index, source in new_sources.items():
        cell = notebook.cells[index]
        if cell.source_span is None:
            raise NotebookError(f"cell {index + 1} has no `source` to replace")
        start, end = cell.source_span
        replacements.append((start, end, _source_json(text, start, end, source, cell.source_is_list, ensure_ascii)))
    for start, end, new in sorted(replacements, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _source_json(text: str, start: int, end: int, source: str, as_list: bool, ensure_ascii: bool) -> str:
    if not as_list:
        return json.dumps(source, ensure_ascii=ensure_ascii)
    lines = source.splitlines(keepends=True)
    items = [json.dumps(line, ensure_ascii=ensure_ascii) for line in lines]
    old = text[start:end]
    inner = old[1:-1]
    if inner.strip():  # keep the old list's layout: what comes before the first item and before `]`
        lead = inner[: len(inner) - len(inner.lstrip())]
        trail = inner[len(inner.rstrip()):]
    else:  # an empty list: one item per line, indented one step deeper than the `"source"` key's line
        line_start = text.rfind("\n", 0, start) + 1
        key_indent = text[line_start:start][: len(text[line_start:start]) - len(text[line_start:start].lstrip())]
        lead, trail = "\n" + key_indent + _indent_unit(text), "\n" + key_indent
    if not items:
        return "[]"
    if "\n" not in lead:  # a one-line list: `["a\n", "b"]`
        return "[" + lead + ", ".join(items) + trail + "]"
    return "[" + lead + ("," + lead).join(items) + trail + "]"


def _indent_unit(text: str) -> str:
    match = re.search(r"\n([ \t]+)\S", text)
    return match.group(1) if match else " "


# ---- `sharpbits check` on a notebook -------------------------------------------------------------------------

MAX_NOTEBOOK_BYTES = 200 * 1024 * 1024  # outputs (images) make notebooks far larger than source files


@dataclass
class NotebookCheck:
    findings: list[Finding]  # of the notebook as it is after fixing
    new_text: str | None = None  # the fixed file's text, when fixes changed it
    fixed: int = 0
    diff: str = ""  # per-cell unified diffs of what the fixes change
    error: str | None = None  # a fix that was not applied, to say on stderr
    skipped: str | None = None  # not checked at all (a notebook of another language), to say on stderr


def check_notebook(path: str, data: bytes, selection: Selection, fix: bool = False, unsafe: bool = False) -> NotebookCheck:
    """Checks (and with `fix`, fixes) one .ipynb file's bytes. A file that is not an nbformat 4 notebook is
    one error finding (never a pass)."""
    try:
        if len(data) > MAX_NOTEBOOK_BYTES:
            raise NotebookError(f"{len(data) // (1024 * 1024)} MB is too large to be read as a notebook")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise NotebookError(f"not valid JSON: not UTF-8 ({exc.reason} at byte {exc.start})") from None
        notebook = parse_notebook(text)
    except NotebookError as exc:
        return NotebookCheck([_not_a_notebook(path, exc)])
    if not notebook.is_python:
        return NotebookCheck([], skipped=f"a {notebook.language} notebook, not Python")
    outcome = NotebookCheck([])
    if fix:
        new_sources, applied, outcome.error = fix_notebook(notebook, path, selection, unsafe)
        if new_sources:
            outcome.new_text = write_sources(notebook, new_sources)
            outcome.fixed = applied
            outcome.diff = _cell_diffs(path, notebook, new_sources)
            notebook = parse_notebook(outcome.new_text)
    outcome.findings = analyze_notebook(notebook, path, selection).findings
    for finding in outcome.findings:
        finding.file_line = notebook.file_line((finding.cell or 1) - 1, finding.line)
        finding.file_end_line = notebook.file_line((finding.cell or 1) - 1, finding.end_line)
    return outcome


def _not_a_notebook(path: str, exc: NotebookError) -> Finding:
    return Finding(path=path, line=exc.line, column=exc.column, end_line=exc.line, end_column=exc.column + 1,
                   code=SYNTAX_ERROR_CODE, rule=SYNTAX_ERROR_RULE, severity="error", url="",
                   message=f"{exc} (nothing in this file was checked)")


def _cell_diffs(path: str, notebook: Notebook, new_sources: dict[int, str]) -> str:
    import difflib

    out: list[str] = []
    for index in sorted(new_sources):
        old, new = notebook.cells[index].source, new_sources[index]
        label = f"{path}:cell {index + 1}"
        out.extend(difflib.unified_diff(
            (old if old.endswith("\n") else old + "\n").splitlines(keepends=True),
            (new if new.endswith("\n") else new + "\n").splitlines(keepends=True), f"a/{label}", f"b/{label}"))
    return "".join(out)
