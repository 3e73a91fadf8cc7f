"""Notebook documents in the language server (LSP 3.17 notebook sync): a notebook is analysed as one program
(its code cells in order, see sharpbits.notebooks) and every cell gets its own diagnostics, hovers and quick fixes.

The server's per-document machinery stays as it is: for a cell, `SharpbitsServer.analyse(cell_uri)` lands here
and returns that cell's view of the notebook's analysis (its findings in its own lines and columns), so hover,
code actions and diagnostics work on cells unchanged. What only a notebook has is here: re-analysis when cells
are added, removed, moved or edited (one debounced analysis per notebook, published to every cell), fixes whose
edits span cells (a key split in the cell where the key was first used), and "fix all" for the notebook
(`notebook.source.fixAll.sharpbits`, what VS Code asks for on save in notebooks).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.uris import to_fs_path

from sharpbits.analysis.engine import AnalysisResult
from sharpbits.findings import Finding, Fix, non_overlapping
from sharpbits.notebooks import NotebookAnalysis, analyze_sources, apply_cell_edits, build_program, cell_edits
from sharpbits.source import split_lines

if TYPE_CHECKING:
    from sharpbits.lsp.server import Analysed, SharpbitsServer
    from sharpbits.trace.notebook import CellTraceSource

log = logging.getLogger("sharpbits.lsp.notebooks")

NOTEBOOK_FIX_ALL_KIND = "notebook.source.fixAll.sharpbits"
# Jupyter notebooks (VS Code's notebook type for .ipynb) with all their cells: a cell selector (`python`) would
# make the client sync the code cells only, and cell numbers in messages would then skip the markdown cells
# that the editor counts. Only Python code cells are analysed (see _snapshot).
NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[types.NotebookDocumentFilterWithNotebook(notebook="jupyter-notebook")],
    save=False,
)


@dataclass
class NotebookState:
    """The latest analysis of one open notebook."""

    key: tuple[Any, ...]  # what it was computed from: the notebook's version, its cells and their versions
    cell_uris: list[str]  # every cell, in order (markdown too)
    analysis: NotebookAnalysis
    by_cell: dict[str, list[Finding]] = field(default_factory=dict)  # program findings per cell uri, in the
    # order of that cell's Analysed.result.findings (code actions refer to them by index)


def _states(ls: SharpbitsServer) -> dict[str, NotebookState]:
    states = getattr(ls, "notebook_states", None)
    if states is None:
        states = ls.notebook_states = {}  # type: ignore[attr-defined]
    return states


def notebook_of(ls: SharpbitsServer, cell_uri: str) -> types.NotebookDocument | None:
    return ls.workspace.get_notebook_document(cell_uri=cell_uri)


def _snapshot(ls: SharpbitsServer, notebook: types.NotebookDocument) -> tuple[tuple[Any, ...], list[tuple[int, str]]]:
    """(what identifies the notebook's current content, the code cells as (index among all cells, text))."""
    sources = []
    versions = []
    for index, cell in enumerate(notebook.cells):
        doc = ls.workspace.get_text_document(cell.document)
        versions.append((cell.document, cell.kind, doc.version))
        if cell.kind == types.NotebookCellKind.Code and doc.language_id in (None, "python"):
            sources.append((index, doc.source))
    return (notebook.version, tuple(versions), id(ls.config)), sources


async def analyse_notebook(ls: SharpbitsServer, notebook_uri: str) -> NotebookState | None:
    """The analysis of the notebook's current content (cached), or None if it changed meanwhile."""
    notebook = ls.workspace.get_notebook_document(notebook_uri=notebook_uri)
    if notebook is None:
        return None
    key, sources = _snapshot(ls, notebook)
    state = _states(ls).get(notebook.uri)
    if state is not None and state.key == key:
        return state
    path = to_fs_path(notebook.uri) or notebook.uri
    try:
        selection = ls.config.selection_for(path)
        analysis = await asyncio.get_running_loop().run_in_executor(
            ls.analysis_pool, analyze_sources, sources, path, selection)
    except Exception as exc:  # a bug of ours must not take the server down
        log.exception("analysis failed for %s", notebook.uri)
        ls.window_log_message(types.LogMessageParams(
            types.MessageType.Error, f"sharpbits: analysis of {notebook.uri} failed: {exc!r}"))
        return None
    current = ls.workspace.get_notebook_document(notebook_uri=notebook_uri)
    if current is None or _snapshot(ls, current)[0] != key:
        return None  # a newer change arrived; its own analysis will publish
    state = _cell_views(ls, notebook, key, analysis)
    previous = _states(ls).get(notebook.uri)
    _states(ls)[notebook.uri] = state
    for gone in set(previous.cell_uris if previous else []) - set(state.cell_uris):  # removed cells: clear
        ls.analysed.pop(gone, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=gone, diagnostics=[]))
    return state


def _cell_views(ls: SharpbitsServer, notebook: types.NotebookDocument, key: tuple[Any, ...],
                analysis: NotebookAnalysis) -> NotebookState:
    from sharpbits.lsp.server import Analysed

    state = NotebookState(key, [cell.document for cell in notebook.cells], analysis)
    program = analysis.program
    for index, cell in enumerate(notebook.cells):
        doc = ls.workspace.get_text_document(cell.document)
        cell_findings = [f for f in analysis.findings if f.cell == index + 1 and f.rule != "syntax-error"]
        syntax = next((f for f in analysis.findings if f.cell == index + 1 and f.rule == "syntax-error"), None)
        functions = []  # the traceable functions defined in this cell, in its lines (the Trace CodeLens, hovers)
        for fn in analysis.result.functions:
            located = program.locate(fn.line)
            if located is not None and located[0].cell == index:
                shift = located[0].first_line - 1
                functions.append(replace(fn, line=fn.line - shift, end_line=fn.end_line - shift))
        result = AnalysisResult(cell_findings, syntax_error=syntax, functions=functions)
        ls.analysed[cell.document] = Analysed(doc.version, split_lines(doc.source), result)
        state.by_cell[cell.document] = [analysis.origin.get(id(f), f) for f in cell_findings]
    return state


async def analyse_cell(ls: SharpbitsServer, cell_uri: str) -> Analysed | None:
    """A cell's view of its notebook's analysis (what `SharpbitsServer.analyse` returns for a cell)."""
    notebook = notebook_of(ls, cell_uri)
    if notebook is None or await analyse_notebook(ls, notebook.uri) is None:
        return None
    return ls.analysed.get(cell_uri)


def schedule(ls: SharpbitsServer, notebook_uri: str, delay: float) -> None:
    """(Re)starts the analysis of a notebook after `delay`; a newer call cancels an older pending one."""
    previous = ls.pending.pop(notebook_uri, None)
    if previous is not None:
        previous.cancel()
    task = asyncio.get_running_loop().create_task(_analyse_and_publish(ls, notebook_uri, delay))
    ls.pending[notebook_uri] = task
    task.add_done_callback(lambda t: ls.pending.pop(notebook_uri, None) if ls.pending.get(notebook_uri) is t else None)


async def _analyse_and_publish(ls: SharpbitsServer, notebook_uri: str, delay: float) -> None:
    if delay:
        await asyncio.sleep(delay)
    state = await analyse_notebook(ls, notebook_uri)
    if state is None:
        return
    published = _published(ls)
    if state.analysis.program.syntax_errors and notebook_uri in published:
        # Mid-typing in some cell: keep what the editor shows, as for a .py file. (A notebook that opens with a
        # cell that does not parse still gets the findings of its other cells, once.)
        return
    published.add(notebook_uri)
    for uri in state.cell_uris:
        analysed = ls.analysed.get(uri)
        if analysed is not None:
            ls.publish(uri, analysed)


def _published(ls: SharpbitsServer) -> set[str]:
    """The notebooks whose diagnostics have been published at least once."""
    published = getattr(ls, "notebooks_published", None)
    if published is None:
        published = ls.notebooks_published = set()  # type: ignore[attr-defined]
    return published


def close(ls: SharpbitsServer, params: types.DidCloseNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    _published(ls).discard(uri)
    task = ls.pending.pop(uri, None)
    if task is not None:
        task.cancel()
    state = _states(ls).pop(uri, None)
    cells = {c.uri for c in params.cell_text_documents} | set(state.cell_uris if state else [])
    for cell in cells:
        ls.analysed.pop(cell, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=cell, diagnostics=[]))


# ---- tracing ----


def cells_up_to(ls: SharpbitsServer, cell_uri: str) -> tuple[tuple[str, int | None], ...] | None:
    """The code cells up to and including this one, as (uri, version): what a trace from this cell runs (a cell
    edited, added, removed or moved above it changes this). None for a document that is not a notebook cell."""
    notebook = notebook_of(ls, cell_uri)
    if notebook is None:
        return None
    out = []
    for cell in notebook.cells:
        if cell.kind == types.NotebookCellKind.Code:
            out.append((cell.document, ls.workspace.get_text_document(cell.document).version))
        if cell.document == cell_uri:
            break
    return tuple(out)


def cell_trace_source(ls: SharpbitsServer, cell_uri: str) -> CellTraceSource | None:
    """For a cell of an open notebook: the program a trace of a function in it runs (the code cells up to it, as
    the editor has them now); None for any other document."""
    from sharpbits.trace.notebook import cell_trace_source as build

    notebook = notebook_of(ls, cell_uri)
    if notebook is None:
        return None
    index = next((i for i, cell in enumerate(notebook.cells) if cell.document == cell_uri), None)
    if index is None:
        return None
    _, sources = _snapshot(ls, notebook)
    return build(sources, index, to_fs_path(notebook.uri) or notebook.uri)


# ---- fixes ---------------------------------------------------------------------------------------------------


def fix_all_action(ls: SharpbitsServer, cell_uri: str, analysed: Analysed) -> types.CodeAction | None:
    """"Fix all" for the whole notebook, offered in any of its cells."""
    notebook = notebook_of(ls, cell_uri)
    state = _states(ls).get(notebook.uri) if notebook is not None else None
    if state is None or not any(f.fixable for f in state.analysis.result.findings):
        return None
    return types.CodeAction(
        title="sharpbits: fix all safely fixable problems in the notebook",
        kind=NOTEBOOK_FIX_ALL_KIND,
        data={"uri": cell_uri, "version": analysed.version, "fixAll": True, "notebook": True},
    )


def resolve_edit(ls: SharpbitsServer, action: types.CodeAction) -> types.CodeAction:
    """A cell's code action: its edit may span cells (each cell is a document of its own)."""
    data = action.data if isinstance(action.data, dict) else {}
    uri = data.get("uri")
    notebook = notebook_of(ls, uri) if isinstance(uri, str) else None
    state = _states(ls).get(notebook.uri) if notebook is not None else None
    analysed = ls.analysed.get(uri) if isinstance(uri, str) else None
    if state is None or analysed is None or analysed.version != data.get("version") or not isinstance(uri, str):
        return action  # the notebook changed: no edit rather than a wrong one
    if data.get("fixAll"):
        candidates = state.analysis.result.findings
        fixes = non_overlapping([f.fix() for f in candidates if f.fixable], safe_only=True)
        if not data.get("notebook"):  # source.fixAll in one cell: the fixes that edit only this cell
            own = state.cell_uris.index(uri)
            fixes = [fix for fix in fixes if _edited_cells(state, fix) == {own}]
    else:
        index = data.get("index", -1)
        findings = state.by_cell.get(uri, [])
        fix = findings[index].fix() if 0 <= index < len(findings) else None
        fixes = [fix] if fix is not None else []
    edit = _workspace_edit(ls, state, fixes)
    if edit is not None:
        action.edit = edit
    return action


def _edited_cells(state: NotebookState, fix: Fix) -> set[int] | None:
    edits = cell_edits(state.analysis.program, fix)
    return None if edits is None else {e.cell for e in edits}


def _workspace_edit(ls: SharpbitsServer, state: NotebookState, fixes: list[Fix]) -> types.WorkspaceEdit | None:
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
    codec = ls.workspace.position_codec
    changes = []
    for index in sorted({e.cell for e in all_edits}):
        uri = state.cell_uris[index]
        analysed = ls.analysed.get(uri)
        if analysed is None:
            return None
        text_edits = []
        for e in (ce.edit for ce in all_edits if ce.cell == index):
            start = codec.position_to_client_units(analysed.lines, types.Position(e.line - 1, e.column - 1))
            end = codec.position_to_client_units(analysed.lines, types.Position(e.end_line - 1, e.end_column - 1))
            text_edits.append(types.TextEdit(range=types.Range(start, end), new_text=e.new_text))
        doc = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=analysed.version)
        changes.append(types.TextDocumentEdit(text_document=doc, edits=text_edits))
    return types.WorkspaceEdit(document_changes=changes)


# ---- registration --------------------------------------------------------------------------------------------


def register(server: SharpbitsServer) -> None:
    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    async def did_open(ls: SharpbitsServer, params: types.DidOpenNotebookDocumentParams) -> None:
        schedule(ls, params.notebook_document.uri, 0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    async def did_change(ls: SharpbitsServer, params: types.DidChangeNotebookDocumentParams) -> None:
        cells = params.change.cells
        structural = cells is not None and cells.structure is not None
        schedule(ls, params.notebook_document.uri, 0 if structural else ls.debounce_s)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    async def did_close(ls: SharpbitsServer, params: types.DidCloseNotebookDocumentParams) -> None:
        close(ls, params)


def reanalyse_all(ls: SharpbitsServer) -> None:
    """After a settings change."""
    _states(ls).clear()
    for uri in list(ls.workspace.notebook_documents):
        schedule(ls, uri, 0)
