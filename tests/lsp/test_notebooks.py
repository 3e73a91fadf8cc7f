"""Notebook documents over stdio (LSP notebook sync): one analysis across cells, diagnostics published to every
cell, re-analysis on cell edits, additions, removals and moves; hovers and fixes per cell, fixes across cells."""

import asyncio
import base64
import time
from urllib.parse import quote

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities

from .conftest import quiescent, server_fixture

CODE, MARKUP = types.NotebookCellKind.Code, types.NotebookCellKind.Markup


def notebook_client_capabilities() -> types.ClientCapabilities:
    """VS Code's capabilities as pytest-lsp records them, plus notebook sync, which vscode-languageclient declares
    (the server declares notebook sync only to clients that can do it)."""
    capabilities = client_capabilities("visual-studio-code")
    capabilities.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities(dynamic_registration=True,
                                                                     execution_summary_support=True))
    return capabilities


client = server_fixture({}, notebook_client_capabilities())


class Notebook:
    """A notebook as a client holds it: cells (uri, kind, text, version), and the notebook's version."""

    def __init__(self, client, path, cells):
        self.client, self.uri, self.version = client, path.as_uri(), 1
        self.cells = [self._cell(n, kind, text) for n, (kind, text) in enumerate(cells)]
        self.counter = len(cells)
        client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=self.uri, notebook_type="jupyter-notebook", version=1,
                cells=[types.NotebookCell(kind=c["kind"], document=c["uri"]) for c in self.cells]),
            cell_text_documents=[self._item(c) for c in self.cells]))

    def _cell(self, n, kind, text):
        # as code-server names cells: an authority, and a base64 fragment whose `=` padding is quoted (pygls keys
        # its documents by the unquoted URI: the server must find a cell by the name the client gives it)
        fragment = quote(base64.b64encode(f"cell{n}".encode()).decode(), safe="")
        return {"uri": f"vscode-notebook-cell://127.0.0.1:8080{self.uri[len('file://'):]}#W{fragment}",
                "kind": kind, "text": text, "version": 1}

    @staticmethod
    def _item(c):
        return types.TextDocumentItem(uri=c["uri"], language_id="python" if c["kind"] == CODE else "markdown",
                                      version=c["version"], text=c["text"])

    def uri_of(self, index):
        return self.cells[index]["uri"]

    def _change(self, cells_change):
        self.version += 1
        self.client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=self.uri, version=self.version),
            change=types.NotebookDocumentChangeEvent(cells=cells_change)))

    def edit(self, index, text):
        cell = self.cells[index]
        cell["text"], cell["version"] = text, cell["version"] + 1
        self._change(types.NotebookDocumentCellChanges(text_content=[types.NotebookDocumentCellContentChanges(
            document=types.VersionedTextDocumentIdentifier(uri=cell["uri"], version=cell["version"]),
            changes=[types.TextDocumentContentChangeWholeDocument(text=text)])]))

    def insert(self, index, kind, text):
        cell = self._cell(self.counter, kind, text)
        self.counter += 1
        self.cells.insert(index, cell)
        self._change(types.NotebookDocumentCellChanges(structure=types.NotebookDocumentCellChangeStructure(
            array=types.NotebookCellArrayChange(start=index, delete_count=0,
                                                cells=[types.NotebookCell(kind=kind, document=cell["uri"])]),
            did_open=[self._item(cell)])))

    def remove(self, index):
        cell = self.cells.pop(index)
        self._change(types.NotebookDocumentCellChanges(structure=types.NotebookDocumentCellChangeStructure(
            array=types.NotebookCellArrayChange(start=index, delete_count=1),
            did_close=[types.TextDocumentIdentifier(uri=cell["uri"])])))

    def move(self, old, new):
        """As VS Code does: one array change that replaces the affected range with the cells in their new order."""
        low, high = min(old, new), max(old, new)
        cell = self.cells.pop(old)
        self.cells.insert(new, cell)
        self._change(types.NotebookDocumentCellChanges(structure=types.NotebookDocumentCellChangeStructure(
            array=types.NotebookCellArrayChange(start=low, delete_count=high - low + 1, cells=[
                types.NotebookCell(kind=c["kind"], document=c["uri"]) for c in self.cells[low:high + 1]]))))

    def close(self):
        self.client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(uri=self.uri),
            cell_text_documents=[types.TextDocumentIdentifier(uri=c["uri"]) for c in self.cells]))


async def published_after(client, mark, uris, timeout=30.0):
    """Waits until every uri got diagnostics after client.published[mark]; returns {uri: [(code, range)]}."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        latest = {uri: diags for uri, _, diags in client.published[mark:] if uri in uris}
        if set(latest) == set(uris):
            return {uri: [(d.code, d.range) for d in diags] for uri, diags in latest.items()}
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics for {set(uris) - set(latest)}")


def at(line, character, end):
    return types.Range(types.Position(line, character), types.Position(line, end))


CELLS = [
    (MARKUP, "# Pseudorandom numbers\nKeys are explicit."),
    (CODE, "import jax\nfrom jax import random\n\nkey = random.key(0)"),
    (CODE, "!pip install -q jax\nx = random.normal(key, (3,))"),
    (MARKUP, "Using the same key again gives the same numbers:"),
    (CODE, "%timeit random.normal(key, (3,)).block_until_ready()\ny = random.uniform(key)"),
]


@pytest.fixture
def notebook(client, tmp_path, request):
    mark = len(client.published)
    nb = Notebook(client, tmp_path / f"{request.node.name}.ipynb", CELLS)
    nb.mark = mark
    yield nb
    nb.close()


async def test_every_cell_gets_diagnostics_for_the_notebook_as_one_program(client, notebook):
    uris = [notebook.uri_of(i) for i in range(5)]
    published = await published_after(client, notebook.mark, uris)
    # the key from cell 2 is used in cell 3, then reused in cell 5 twice: each reuse at its own line (issue 22;
    # `%timeit` keeps its code at its column)
    assert published[uris[4]] == [("SB201", at(0, 22, 25)), ("SB201", at(1, 19, 22))]
    assert all(published[uri] == [] for uri in uris[:4])


async def test_editing_a_cell_reanalyses_the_notebook(client, notebook):
    uris = [notebook.uri_of(i) for i in range(5)]
    await published_after(client, notebook.mark, uris)
    mark = len(client.published)
    notebook.edit(2, "!pip install -q jax\nx = 1.0")  # the first use is gone: the %timeit line now consumes it first
    published = await published_after(client, mark, uris)
    assert published[uris[4]] == [("SB201", at(1, 19, 22))]


async def test_added_removed_and_moved_cells_are_followed(client, notebook):
    uris = [notebook.uri_of(i) for i in range(5)]
    await published_after(client, notebook.mark, uris)
    mark = len(client.published)
    notebook.insert(2, CODE, "warm = random.normal(key)")  # now the first use; cell 3's use becomes a reuse
    new = notebook.uri_of(2)
    published = await published_after(client, mark, [new, *uris])
    assert published[new] == []
    assert [code for code, _ in published[uris[2]]] == ["SB201"]
    assert [code for code, _ in published[uris[4]]] == ["SB201", "SB201"]

    mark = len(client.published)
    notebook.move(2, 4)  # after the normal(...) cell: the reuse moves with it
    published = await published_after(client, mark, [new, *uris])
    assert published[uris[2]] == [] and [code for code, _ in published[new]] == ["SB201"]

    mark = len(client.published)
    notebook.remove(notebook.cells.index(next(c for c in notebook.cells if c["uri"] == new)))
    published = await published_after(client, mark, [new, *uris])
    assert published[new] == []  # a removed cell's diagnostics are cleared
    assert len(published[uris[4]]) == 2  # back to the two reuses of cell 5


async def test_hover_in_a_cell_explains_the_finding(client, notebook):
    await published_after(client, notebook.mark, [notebook.uri_of(4)])
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(notebook.uri_of(4)), types.Position(0, 23)))
    # the message ("already consumed at cell 3, line 2") is the diagnostic's, shown above the hover: not repeated
    assert "prng-key-reuse" in hover.contents.value and "Split `key` before its first use" in hover.contents.value


async def resolved(client, action):
    return action if action.edit is not None else await client.code_action_resolve_async(action)


async def test_quick_fix_in_a_cell_edits_the_cell_where_the_key_was_first_used(client, notebook):
    await published_after(client, notebook.mark, [notebook.uri_of(4)])
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(notebook.uri_of(4)), range=at(0, 23, 23),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix])))
    titles = [a.title for a in actions]
    assert titles == ["sharpbits (SB201): Split `key` before its first use (unsafe)",
                      "sharpbits (SB201): Disable for this line", "Fix all safe sharpbits problems"]
    action = actions[0]
    edit = (await resolved(client, action)).edit
    (change,) = edit.document_changes  # the split goes before the first use, in cell 3
    assert change.text_document.uri == notebook.uri_of(2) and change.text_document.version == 1
    assert sorted((e.range.start.line, e.range.start.character, e.new_text) for e in change.edits) == [
        (1, 0, "key, subkey = random.split(key)\n"), (1, 18, "subkey")]


async def test_fix_all_for_the_notebook_edits_every_cell_that_needs_it(client, tmp_path):
    mark = len(client.published)
    nb = Notebook(client, tmp_path / "updates.ipynb", [
        (CODE, "import jax.numpy as jnp\nx = jnp.zeros(3)"),
        (MARKUP, "Arrays are immutable:"),
        (CODE, "x[0] = 1.0"),
        (CODE, "%time y = jnp.ones(2).block_until_ready()\ny[1] += 2"),  # waited for: no SB501
    ])
    try:
        await published_after(client, mark, [nb.uri_of(0), nb.uri_of(2), nb.uri_of(3)])
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(nb.uri_of(0)), range=at(0, 0, 0),
            context=types.CodeActionContext(diagnostics=[], only=["notebook.source.fixAll"])))
        (action,) = actions
        assert action.kind == "notebook.source.fixAll.sharpbits"
        edit = (await resolved(client, action)).edit
        changes = {c.text_document.uri: [(e.range, e.new_text) for e in c.edits] for c in edit.document_changes}
        assert changes == {nb.uri_of(2): [(at(0, 0, 10), "x = x.at[0].set(1.0)")],
                           nb.uri_of(3): [(at(1, 0, 9), "y = y.at[1].add(2)")]}
    finally:
        nb.close()


async def test_closing_the_notebook_clears_its_cells(client, tmp_path):
    mark = len(client.published)
    nb = Notebook(client, tmp_path / "closing.ipynb", CELLS)
    await published_after(client, mark, [nb.uri_of(4)])
    mark = len(client.published)
    nb.close()
    published = await published_after(client, mark, [nb.uri_of(i) for i in range(5)])
    assert all(diagnostics == [] for diagnostics in published.values())


def test_the_server_declares_notebook_sync_for_jupyter_notebooks(client):
    sync = client.server_capabilities.notebook_document_sync
    (selector,) = sync.notebook_selector
    # every cell, markdown too: cell numbers in messages count the cells the editor shows
    assert selector.notebook == "jupyter-notebook" and selector.cells is None
    kinds = client.server_capabilities.code_action_provider.code_action_kinds
    assert "notebook.source.fixAll.sharpbits" in kinds


async def test_a_cell_that_stops_parsing_keeps_the_diagnostics_until_it_parses_again(client, notebook):
    uris = [notebook.uri_of(i) for i in range(5)]
    await published_after(client, notebook.mark, uris)
    mark = len(client.published)
    notebook.edit(2, "!pip install -q jax\nx = random.normal(key, (3,)")  # typing: the bracket is not closed yet
    await quiescent(client)  # the edit was analysed
    assert [uri for uri, _, _ in client.published[mark:] if uri in uris] == []
    notebook.edit(2, "!pip install -q jax\nx = random.normal(key, (3,))\nkey = random.key(1)")
    published = await published_after(client, mark, uris)
    assert published[uris[4]] == [("SB201", at(1, 19, 22))]  # the %timeit line uses the new key first


async def test_a_notebook_that_opens_with_a_broken_cell_still_gets_the_other_findings(client, tmp_path):
    mark = len(client.published)
    nb = Notebook(client, tmp_path / "broken.ipynb", [*CELLS[:3], (CODE, "print 'python 2'"), *CELLS[3:]])
    try:
        published = await published_after(client, mark, [nb.uri_of(5)])
        assert [code for code, _ in published[nb.uri_of(5)]] == ["SB201", "SB201"]
    finally:
        nb.close()
