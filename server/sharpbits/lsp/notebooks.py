"""Notebook documents (LSP 3.17 notebook sync) as an adapter: a notebook is analysed as one program (its code
cells in order, see sharpbits.notebooks) and each cell becomes an `Analysed` view of its own (its findings and
traced functions in its own lines and columns, fixes whose edits may span cells). Features only ever see those
views: hover, code actions, lenses and diagnostics work on cells as on files.

What only a notebook has stays here: one analysis per notebook for all its cells (re-run when cells are added,
removed, moved or edited), fixes whose edits span cells (a key split in the cell where the key was first used),
"fix all" for the notebook (`notebook.source.fixAll.sharpbits`, what VS Code asks for on save in notebooks), and
the program a trace from a cell runs (the code cells up to it).

A notebook's analysis has the same budget as a text document's (lsp/analysis_process.py): it runs in an analysis
thread until its in-thread limit, is stopped there and done again in child processes killed at
`sharpbits.analysisBudgetMs`. The rules that finished are shown in every cell; the first code cell says, on its
line 1, which part was stopped (and the log names the notebook). A notebook closed or changed meanwhile cancels its
analysis task, which stops the thread or kills the child at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from lsprotocol import types
from pygls.uris import to_fs_path
from pygls.workspace import Workspace
from pygls.workspace.position_codec import PositionCodec

from sharpbits.analysis.engine import AnalysisResult, Selection, TracedFunction, analyze
from sharpbits.config import Config
from sharpbits.findings import Finding, Fix, non_overlapping
from sharpbits.lsp.analysis_process import (
    MODEL,
    IsolatedRun,
    ThreadStop,
    in_thread_limit,
    keep_stopping,
    run_stoppable,
)
from sharpbits.lsp.settings import EditorSettings
from sharpbits.lsp.views import Analysed, FixScope
from sharpbits.notebooks import (
    NotebookAnalysis,
    NotebookProgram,
    apply_cell_edits,
    build_program,
    cell_analysis,
    cell_edits,
)
from sharpbits.source import split_lines

if TYPE_CHECKING:
    from sharpbits.trace.notebook import CellTraceSource

log = logging.getLogger("sharpbits.lsp")

NOTEBOOK_FIX_ALL_KIND = "notebook.source.fixAll.sharpbits"
# Jupyter notebooks (VS Code's notebook type for .ipynb) with all their cells: a cell selector (`python`) would
# make the client sync the code cells only, and cell numbers in messages would then skip the markdown cells
# that the editor counts. Only Python code cells are analysed (see _snapshot).
NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[types.NotebookDocumentFilterWithNotebook(notebook="jupyter-notebook")],
    save=False,
)


class NotebookHost(Protocol):
    """What the adapter needs of the server."""

    @property
    def workspace(self) -> Workspace: ...

    config: Config
    settings: EditorSettings  # analysis_budget_s

    @property
    def analysis_pool(self) -> Executor: ...

    def window_log_message(self, params: types.LogMessageParams) -> None: ...

    def clear_diagnostics(self, uri: str) -> None: ...

    def analysis_failed(self, uri: str, exc: Exception) -> None: ...


@dataclass
class NotebookState:
    """The latest analysis of one open notebook, and each cell's view of it."""

    key: tuple[Any, ...]  # what it was computed from: the notebook's version, its cells and their versions
    cell_uris: list[str]  # every cell, in order (markdown too)
    analysis: NotebookAnalysis
    views: dict[str, Analysed] = field(default_factory=dict)  # cell uri -> its view
    by_cell: dict[str, list[Finding]] = field(default_factory=dict)  # program findings per cell uri, in the
    # order of that cell's view's findings (code actions refer to them by index)


class CellsPrefix:
    """The code cells of a notebook up to one cell, each as (uri, version), kept as a digest: `key()` is one pair
    (the digest, the number of cells), so every cell's view of an 8,000-cell notebook holds one pair, not a tuple of
    all the code cells above it (that was cells squared: 255 MB and 0.6 s for 8,000 cells, 4 GB for 32,000). A
    view's key and `cells_up_to`'s are made here the same way; equal keys mean the same cells, versions, order."""

    def __init__(self) -> None:
        self._digest = hashlib.sha256()
        self._count = 0

    def add(self, uri: str, version: int | None) -> None:
        self._digest.update(json.dumps([uri, version]).encode() + b"\n")
        self._count += 1

    def key(self) -> tuple[tuple[str, int | None], ...]:
        return ((f"sha256:{self._digest.copy().hexdigest()}", self._count),)


class CellFixes:
    """A cell's fixes: computed on the notebook's program, so their edits may span cells."""

    def __init__(self, state: NotebookState, cell_uri: str) -> None:
        self.state = state
        self.cell_uri = cell_uri

    def prepare(self, findings: list[Finding]) -> None:
        """Nothing ahead: a cell's fixes are built when resolved (checked on the whole program)."""

    def offers(self, finding: Finding) -> bool:
        return finding.fixable

    def can_fix_all(self, scope: FixScope) -> bool:
        return any(f.fixable for f in (self.state.analysis.result.findings if scope == "notebook"
                                       else self.state.by_cell.get(self.cell_uri, [])))

    def edit(self, index: int | None, scope: FixScope, codec: PositionCodec,
             unsafe: bool = False) -> types.WorkspaceEdit | None:
        state = self.state
        if index is None:
            fixes = non_overlapping([f.fix() for f in state.analysis.result.findings if f.fixable],
                                    safe_only=not unsafe)
            if scope == "document":  # source.fixAll in one cell: the fixes that edit only this cell
                own = state.cell_uris.index(self.cell_uri)
                fixes = [fix for fix in fixes if _edited_cells(state, fix) == {own}]
        else:
            findings = state.by_cell.get(self.cell_uri, [])
            fix = findings[index].fix() if 0 <= index < len(findings) else None
            fixes = [fix] if fix is not None else []
        return _workspace_edit(state, fixes, codec)


def _analyse_program(sources: list[tuple[int, str]], path: str, selection: Selection,
                     built: list[NotebookProgram]) -> NotebookAnalysis:
    """`analyze_sources`, leaving the program in `built` as soon as it exists (a child process analyses it if this
    thread is stopped)."""
    program = build_program(sources, path)
    built.append(program)
    return cell_analysis(program, analyze(program.text, path, selection, program.timed_regions))


def _edited_cells(state: NotebookState, fix: Fix) -> set[int] | None:
    edits = cell_edits(state.analysis.program, fix)
    return None if edits is None else {e.cell for e in edits}


def _workspace_edit(state: NotebookState, fixes: list[Fix], codec: PositionCodec) -> types.WorkspaceEdit | None:
    program = state.analysis.program
    all_edits = []
    for fix in fixes:
        edits = cell_edits(program, fix)
        if edits is not None:
            all_edits.extend(edits)
    if not all_edits:
        return None
    sources = {cell.cell: cell.source for cell in program.cells}
    new_sources = {**sources, **apply_cell_edits(sources, all_edits)}
    broken_before = {f.cell for f in program.syntax_errors}
    if {f.cell for f in build_program(list(new_sources.items())).syntax_errors} - broken_before:
        return None  # a fix of ours that does not parse is withheld
    changes = []
    for index in sorted({e.cell for e in all_edits}):
        uri = state.cell_uris[index]
        view = state.views.get(uri)
        if view is None:
            return None
        text_edits = []
        for e in (ce.edit for ce in all_edits if ce.cell == index):
            start = codec.position_to_client_units(view.lines, types.Position(e.line - 1, e.column - 1))
            end = codec.position_to_client_units(view.lines, types.Position(e.end_line - 1, e.end_column - 1))
            text_edits.append(types.TextEdit(range=types.Range(start, end), new_text=e.new_text))
        doc = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=view.version)
        changes.append(types.TextDocumentEdit(text_document=doc, edits=text_edits))
    return types.WorkspaceEdit(document_changes=changes)


class NotebookAdapter:
    """Every open notebook's analysis, and the cells' views of it."""

    def __init__(self, host: NotebookHost) -> None:
        self.host = host
        self.states: dict[str, NotebookState] = {}
        self.published: set[str] = set()  # notebooks whose diagnostics were published at least once
        # how long each notebook's last analysis took, in its thread and in child processes; the notebooks whose
        # last analysis was stopped at the budget (their next versions go straight to a child process)
        self.thread_seconds: dict[str, float] = {}
        self.isolated_seconds: dict[str, float] = {}
        self.out_of_thread: set[str] = set()

    def notebook_of(self, cell_uri: str) -> types.NotebookDocument | None:
        """The open notebook this document is a cell of, or None for any other document."""
        return self.host.workspace.get_notebook_document(cell_uri=cell_uri)

    def is_notebook(self, uri: str) -> bool:
        return self.host.workspace.get_notebook_document(notebook_uri=uri) is not None

    def view(self, cell_uri: str) -> Analysed | None:
        """The cell's view of the latest analysis of its notebook (None before one)."""
        notebook = self.notebook_of(cell_uri)
        state = self.states.get(notebook.uri) if notebook is not None else None
        return state.views.get(cell_uri) if state is not None else None

    def view_count(self) -> int:
        return sum(len(state.views) for state in self.states.values())

    def _snapshot(self, notebook: types.NotebookDocument) -> tuple[tuple[Any, ...], list[tuple[int, str]]]:
        """(what identifies the notebook's current content, the code cells as (index among all cells, text))."""
        workspace = self.host.workspace
        sources = []
        versions = []
        for index, cell in enumerate(notebook.cells):
            doc = workspace.get_text_document(cell.document)
            versions.append((cell.document, cell.kind, doc.version))
            if cell.kind == types.NotebookCellKind.Code and doc.language_id in (None, "python"):
                sources.append((index, doc.source))
        return (notebook.version, tuple(versions), id(self.host.config)), sources

    async def analyse(self, notebook_uri: str) -> NotebookState | None:
        """The analysis of the notebook's current content (cached), or None if it changed meanwhile."""
        workspace = self.host.workspace
        notebook = workspace.get_notebook_document(notebook_uri=notebook_uri)
        if notebook is None:
            return None
        key, sources = self._snapshot(notebook)
        state = self.states.get(notebook.uri)
        if state is not None and state.key == key:
            return state
        path = to_fs_path(notebook.uri) or notebook.uri
        try:
            selection = self.host.config.selection_for(path)
            analysis = await self._analysis(notebook.uri, sources, path, selection)
        except Exception as exc:  # a bug of ours must not take the server down
            self.host.analysis_failed(notebook.uri, exc)
            return None
        current = workspace.get_notebook_document(notebook_uri=notebook_uri)
        if current is None or self._snapshot(current)[0] != key:
            return None  # a newer change arrived; its own analysis will publish
        state = self._cell_views(notebook, key, analysis)
        previous = self.states.get(notebook.uri)
        self.states[notebook.uri] = state
        for gone in set(previous.cell_uris if previous else []) - set(state.cell_uris):  # removed cells: clear
            self.host.clear_diagnostics(gone)
        return state

    async def _analysis(self, uri: str, sources: list[tuple[int, str]], path: str,
                        selection: Selection) -> NotebookAnalysis:
        """In an analysis thread until the in-thread limit, then in child processes killed at the budget (see the
        module docstring). Cancelled (a newer change, the notebook closed): the thread is stopped, the child
        killed."""
        loop = asyncio.get_running_loop()
        budget_s = self.host.settings.analysis_budget_s
        built: list[NotebookProgram] = []  # the program, once the thread has built it
        started = time.monotonic()
        if uri not in self.out_of_thread:
            lines = sum(text.count("\n") + 1 for _, text in sources)
            limit = in_thread_limit(budget_s, lines, self.thread_seconds.get(uri, 0.0),
                                    self.isolated_seconds.get(uri, 0.0))
            stop = ThreadStop()
            future = loop.run_in_executor(self.host.analysis_pool, run_stoppable, stop, _analyse_program, sources,
                                          path, selection, built)
            try:
                done, _ = await asyncio.wait([future], timeout=limit)
            except asyncio.CancelledError:
                keep_stopping(stop, future)
                raise
            if done or not stop.stop():
                analysis: NotebookAnalysis = await future
                self.thread_seconds[uri] = time.monotonic() - started
                return analysis
            keep_stopping(stop, future)
            log.info("the analysis of %s passed %.1f s in its thread: moved to a child process", uri, limit)
        program = built[0] if built else await loop.run_in_executor(self.host.analysis_pool, build_program,
                                                                      sources, path)
        run = IsolatedRun()
        try:
            outcome = await run.analyse(program.text, path, selection, budget_s, program.timed_regions)
        finally:
            run.kill()  # (cancelled: the child is killed at once)
        self.isolated_seconds[uri] = outcome.seconds
        result = outcome.result
        if outcome.stopped:
            self.out_of_thread.add(uri)
            what = ", ".join("building the model" if s == MODEL else f"rule {s}" for s in outcome.stopped)
            self.host.window_log_message(types.LogMessageParams(
                types.MessageType.Warning, f"sharpbits: the analysis of {uri} was stopped at its budget "
                f"(sharpbits.analysisBudgetMs = {budget_s * 1000:.0f} ms): {what} did not finish"))
            result.stopped, result.stopped_after_s = tuple(outcome.stopped), budget_s
        else:
            self.out_of_thread.discard(uri)
        return cell_analysis(program, result)

    async def analyse_cell(self, cell_uri: str) -> Analysed | None:
        """A cell's view of its notebook's current analysis."""
        notebook = self.notebook_of(cell_uri)
        if notebook is None:
            return None
        state = await self.analyse(notebook.uri)
        return state.views.get(cell_uri) if state is not None else None

    async def views_to_publish(self, notebook_uri: str) -> list[Analysed]:
        """After an edit: every cell's view to publish, or none while a cell does not parse (mid-typing: the
        editor keeps what it shows, as for a .py file; a notebook that opens with a cell that does not parse
        still gets the findings of its other cells, once)."""
        state = await self.analyse(notebook_uri)
        if state is None:
            return []
        if state.analysis.program.syntax_errors and notebook_uri in self.published:
            return []
        self.published.add(notebook_uri)
        return [state.views[uri] for uri in state.cell_uris if uri in state.views]

    def _cell_views(self, notebook: types.NotebookDocument, key: tuple[Any, ...],
                    analysis: NotebookAnalysis) -> NotebookState:
        workspace = self.host.workspace
        state = NotebookState(key, [cell.document for cell in notebook.cells], analysis)
        program = analysis.program
        # a part of the analysis stopped at the budget: said once, on line 1 of the first code cell
        notice_cell = program.cells[0].cell if program.cells else None
        # each cell's findings and functions, grouped in one pass (a cell by cell search was cells x findings)
        findings: dict[int, list[Finding]] = {}
        syntax_errors: dict[int, Finding] = {}
        for f in analysis.findings:
            if f.rule == "syntax-error":
                syntax_errors.setdefault(f.cell or 0, f)
            else:
                findings.setdefault(f.cell or 0, []).append(f)
        functions: dict[int, list[TracedFunction]] = {}  # the traceable functions defined in each cell, in its lines
        for fn in analysis.result.functions:
            located = program.locate(fn.line)
            if located is not None:
                shift = located[0].first_line - 1
                functions.setdefault(located[0].cell, []).append(replace(
                    fn, line=fn.line - shift, end_line=fn.end_line - shift,
                    loops=tuple((a - shift, b - shift) for a, b in fn.loops)))
        prefix = CellsPrefix()
        for index, cell in enumerate(notebook.cells):
            doc = workspace.get_text_document(cell.document)
            if cell.kind == types.NotebookCellKind.Code:
                prefix.add(cell.document, doc.version)
            cell_findings = findings.get(index + 1, [])
            result = AnalysisResult(cell_findings, syntax_error=syntax_errors.get(index + 1),
                                    functions=functions.get(index, []))
            if index == notice_cell:
                result.stopped, result.stopped_after_s = analysis.result.stopped, analysis.result.stopped_after_s
            state.views[cell.document] = Analysed(cell.document, doc.version, split_lines(doc.source), result,
                                                  CellFixes(state, cell.document), cells=prefix.key())
            state.by_cell[cell.document] = [analysis.origin.get(id(f), f) for f in cell_findings]
        return state

    def close(self, notebook_uri: str, cell_uris: list[str]) -> list[str]:
        """Forgets a closed notebook; returns its cells (to clear their diagnostics)."""
        self.published.discard(notebook_uri)
        self.thread_seconds.pop(notebook_uri, None)
        self.isolated_seconds.pop(notebook_uri, None)
        self.out_of_thread.discard(notebook_uri)
        state = self.states.pop(notebook_uri, None)
        return sorted(set(cell_uris) | set(state.cell_uris if state else []))

    def forget_all(self) -> list[str]:
        """After a settings change: every open notebook, to analyse again."""
        self.states.clear()
        return list(self.host.workspace.notebook_documents)

    # ---- tracing ----

    def cells_up_to(self, cell_uri: str) -> tuple[tuple[str, int | None], ...] | None:
        """What identifies the code cells up to and including this one, each as (uri, version) (`CellsPrefix`): what
        a trace from this cell runs (a cell edited, added, removed or moved above it changes this). None for a
        document that is not a notebook cell."""
        notebook = self.notebook_of(cell_uri)
        if notebook is None:
            return None
        prefix = CellsPrefix()
        for cell in notebook.cells:
            if cell.kind == types.NotebookCellKind.Code:
                prefix.add(cell.document, self.host.workspace.get_text_document(cell.document).version)
            if cell.document == cell_uri:
                break
        return prefix.key()

    def trace_source(self, cell_uri: str) -> CellTraceSource | None:
        """For a cell of an open notebook: the program a trace of a function in it runs (the code cells up to it, as
        the editor has them now); None for any other document."""
        from sharpbits.trace.notebook import cell_trace_source  # (at the first trace: start-up stays lean)

        notebook = self.notebook_of(cell_uri)
        if notebook is None:
            return None
        index = next((i for i, cell in enumerate(notebook.cells) if cell.document == cell_uri), None)
        if index is None:
            return None
        _, sources = self._snapshot(notebook)
        return cell_trace_source(sources, index, to_fs_path(notebook.uri) or notebook.uri)
