"""Document sync: text documents and notebooks opened, changed and closed schedule (or drop) their analysis.

A text document's change is analysed at once (no debounce: `SharpbitsServer.changed` abandons an analysis it
supersedes). Notification handlers are plain functions (they only schedule work): pygls runs them inline, with no task or
future left behind per keystroke. Notebook cells' text arrives with the notebook's notifications; a notebook
is scheduled as one document (the notebook adapter shows its analysis in each cell).

Each text document's text is also fed to the analysis's project index (analysis/project_index.py: what the
functions of each module do with their arguments, asked when another module calls them): the index lives in the
analysis; the server only hands it the editor's text of a file (summarised when first asked about) and, when the
document closes, lets it go back to the file on disk. The rest of the workspace is read by the index lazily.
When a module changes (an open document's edit, its closing, a file changed on disk: the server asks a client
that can to watch `**/*.py`), the open documents that import it are analysed again if what it shows its callers
changed (`SharpbitsServer.project_changed`, lsp/project_deps.py).
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path

from sharpbits.analysis.project_index import start_shared_index
from sharpbits.lsp.language_server import SharpbitsServer


def _feed_index(ls: SharpbitsServer, uri: str, close: bool = False) -> None:
    """Hands a .py document's current text to the project index (or, closed, its file on disk back)."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if not path or not path.endswith(".py"):
        return
    root = ls.root_path
    index = start_shared_index([Path(root)] if root else [])
    if close:
        index.forget(path)
    elif uri in ls.workspace.text_documents:
        index.update(path, ls.workspace.get_text_document(uri).source, lazy=True)


WATCH_ID = "sharpbits-python-files"


def register(server: SharpbitsServer) -> None:
    @server.feature(types.INITIALIZED)
    def on_initialized(ls: SharpbitsServer, params: types.InitializedParams) -> None:
        workspace = ls.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        if watched is None or not watched.dynamic_registration:
            return
        ls.client_register_capability(types.RegistrationParams([types.Registration(
            WATCH_ID, types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            types.DidChangeWatchedFilesRegistrationOptions([types.FileSystemWatcher(glob_pattern="**/*.py")]))]))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: SharpbitsServer, params: types.DidChangeWatchedFilesParams) -> None:
        paths = set()
        for change in params.changes:
            path = to_fs_path(change.uri) if change.uri.startswith("file:") else None
            if path and path.endswith(".py") and not ls.is_open(change.uri):  # an open document's text is the editor's
                paths.add(path)
        if paths:
            ls.project_changed(paths, on_disk=True)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SharpbitsServer, params: types.DidOpenTextDocumentParams) -> None:
        _feed_index(ls, params.text_document.uri)
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SharpbitsServer, params: types.DidChangeTextDocumentParams) -> None:
        _feed_index(ls, params.text_document.uri)
        ls.changed(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SharpbitsServer, params: types.DidCloseTextDocumentParams) -> None:
        _feed_index(ls, params.text_document.uri, close=True)
        ls.close_document(params.text_document.uri)
        path = to_fs_path(params.text_document.uri) if params.text_document.uri.startswith("file:") else None
        if path and path.endswith(".py"):
            ls.project_changed({path})  # its file on disk counts again

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_did_open(ls: SharpbitsServer, params: types.DidOpenNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri, 0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_did_change(ls: SharpbitsServer, params: types.DidChangeNotebookDocumentParams) -> None:
        cells = params.change.cells
        structural = cells is not None and cells.structure is not None
        ls.schedule(params.notebook_document.uri, 0 if structural else ls.settings.debounce_s)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_did_close(ls: SharpbitsServer, params: types.DidCloseNotebookDocumentParams) -> None:
        ls.close_notebook(params.notebook_document.uri, [c.uri for c in params.cell_text_documents])
