"""Document sync: text documents and notebooks opened, changed and closed schedule (or drop) their analysis.

A text document's change is analysed at once (no debounce: `SharpbitsServer.changed` abandons an analysis it
supersedes). Notification handlers are plain functions (they only schedule work): pygls runs them inline, with no task or
future left behind per keystroke. Notebook cells' text arrives with the notebook's notifications; a notebook
is scheduled as one document (the notebook adapter shows its analysis in each cell).
"""

from __future__ import annotations

from lsprotocol import types

from sharpbits.lsp.language_server import SharpbitsServer


def register(server: SharpbitsServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SharpbitsServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SharpbitsServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SharpbitsServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.close_document(params.text_document.uri)

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
