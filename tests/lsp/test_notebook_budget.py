"""A notebook's analysis has the budget a text document's has (issue 24, item 5), in a real server over stdio with
code-server-style cell URIs: a notebook whose analysis never ends (a rule made to spin, engine.STALL_RULE) is
stopped in its thread, done again in a child process killed at `analysisBudgetMs`, and its cells show the other
rules' findings with a notice on the first code cell; other notebooks and documents are served meanwhile; its
quick fixes still work; closing it leaves no process behind."""

import asyncio
import base64
import json
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from sharpbits.analysis.engine import STALL_MARK

from .raw_client import RawClient
from .test_analysis_budget import SMALL, WORKSPACE_TRAP, code_actions, codes, edits_of

CODE, MARKUP = 2, 1
BUDGET_MS = 1500
KEY_CELLS = [
    (MARKUP, "# Keys"),
    (CODE, "import jax\nimport jax.numpy as jnp\nkey = jax.random.key(0)\n"),
    (CODE, "a = jax.random.normal(key, (3,))\nb = jax.random.normal(key, (3,))\n"),  # prng-key-reuse: SB201
    (MARKUP, "In place:"),
    (CODE, "%time z = jnp.sin(jnp.zeros(3))\nz[0] = 1\n"),  # in-place-update: SB101; %time of async work: SB501
]


class Notebook:
    def __init__(self, client: RawClient, path: Path, cells: list[tuple[int, str]]) -> None:
        self.client, self.uri, self.version = client, path.as_uri(), 1
        self.cells = [{"uri": self._cell_uri(path, n), "kind": kind, "text": text, "version": 1}
                      for n, (kind, text) in enumerate(cells)]
        client.notify("notebookDocument/didOpen", {
            "notebookDocument": {"uri": self.uri, "notebookType": "jupyter-notebook", "version": 1,
                                 "cells": [{"kind": c["kind"], "document": c["uri"]} for c in self.cells]},
            "cellTextDocuments": [{"uri": c["uri"], "languageId": "python" if c["kind"] == CODE else "markdown",
                                   "version": 1, "text": c["text"]} for c in self.cells]})

    @staticmethod
    def _cell_uri(path: Path, n: int) -> str:
        # as code-server names cells: an authority, and a base64 fragment whose `=` padding is quoted
        fragment = quote(base64.b64encode(f"cell{n}".encode()).decode(), safe="")
        return f"vscode-notebook-cell://127.0.0.1:8080{path}#W{fragment}"

    def uri_of(self, index: int) -> str:
        return self.cells[index]["uri"]

    def edit(self, index: int, text: str) -> None:
        cell = self.cells[index]
        cell["text"], cell["version"] = text, cell["version"] + 1
        self.version += 1
        self.client.notify("notebookDocument/didChange", {
            "notebookDocument": {"uri": self.uri, "version": self.version},
            "change": {"cells": {"textContent": [{
                "document": {"uri": cell["uri"], "version": cell["version"]},
                "changes": [{"text": text}]}]}}})

    def close(self) -> None:
        self.client.notify("notebookDocument/didClose", {
            "notebookDocument": {"uri": self.uri},
            "cellTextDocuments": [{"uri": c["uri"]} for c in self.cells]})


def shows(client: RawClient, uri: str, expected: list[str], timeout: float = 120) -> list[dict]:
    """Waits for diagnostics of `uri` with these codes (a later analysis than the ones already consumed)."""
    message = client.wait_for(
        lambda m: isinstance(m, dict) and m.get("method") == "textDocument/publishDiagnostics"
        and m["params"]["uri"] == uri and codes(m["params"]["diagnostics"]) == expected, timeout,
        f"diagnostics {expected} for {uri}")
    return message["params"]["diagnostics"]


def children_of(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(p) for p in (task / "children").read_text().split()]
    return out


def no_children_left(pid: int, timeout: float = 60) -> list[int]:
    """Waits until the server has no child process (a fix child may still be finishing the fixes nobody asked for
    yet); returns what is left at the timeout."""
    deadline = time.monotonic() + timeout
    while (left := children_of(pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.fixture
def stalled(tmp_path, monkeypatch):
    for name in ("json.py", "ast.py", "sharpbits.py", "sitecustomize.py"):
        (tmp_path / name).write_text(WORKSPACE_TRAP)
    monkeypatch.setenv("SHARPBITS_DEBUG_STALL_RULE", "prng-key-reuse")
    client = RawClient(cwd=tmp_path)
    reply = client.call("initialize", {
        "processId": None, "rootUri": None, "initializationOptions": {"analysisBudgetMs": BUDGET_MS},
        "capabilities": {"notebookDocument": {"synchronization": {"dynamicRegistration": True}}}})
    assert "notebookDocumentSync" in reply["result"]["capabilities"], reply
    client.notify("initialized", {})
    yield client
    client.close()


def test_a_notebook_whose_analysis_never_ends_is_stopped_at_the_budget(stalled, tmp_path):
    hostile = Notebook(stalled, tmp_path / "hostile.ipynb", [*KEY_CELLS, (CODE, STALL_MARK + "\n")])
    calm = Notebook(stalled, tmp_path / "calm.ipynb", KEY_CELLS)  # the spinning rule runs normally here
    small = (tmp_path / "small.py").as_uri()
    stalled.open(small, SMALL)
    # others are served while the hostile notebook spins: a notebook, with prng-key-reuse's findings, and a file
    assert codes(stalled.published(calm.uri_of(2), timeout=60)) == ["SB201"]
    assert codes(stalled.published(calm.uri_of(4), timeout=60)) == ["SB101", "SB501"]
    assert codes(stalled.published(small, 1, timeout=60)) == ["SB101"]

    # the hostile notebook: every rule but the stopped one, in every cell, and one notice on the first code cell
    first = stalled.published(hostile.uri_of(1), timeout=120)
    assert codes(first) == ["stopped"], first
    assert (f"the analysis was stopped after {BUDGET_MS} ms (sharpbits.analysisBudgetMs): rule prng-key-reuse did "
            "not finish") in first[0]["message"]
    assert first[0]["range"]["start"] == {"line": 0, "character": 0}
    assert codes(stalled.published(hostile.uri_of(2), timeout=10)) == []  # SB201 is what was stopped
    assert codes(stalled.published(hostile.uri_of(4), timeout=10)) == ["SB101", "SB501"]  # SB501: a `%time`
    log = stalled.wait_for(lambda m: isinstance(m, dict) and m.get("method") == "window/logMessage"
                           and "stopped at its budget" in m["params"]["message"], 10, "the log line")
    assert hostile.uri in log["params"]["message"] and "prng-key-reuse" in log["params"]["message"]
    assert children_of(stalled.proc.pid) == []  # the child that spun was killed (and reaped)

    # its quick fixes work (findings from a child process): the fix, "Disable for this line", fix-all
    actions = code_actions(stalled, hostile.uri_of(4), 1)
    assert edits_of(actions["sharpbits (SB101): Use `z = z.at[0].set(...)`"]) == [(1, 0, "z = z.at[0].set(1)")]
    assert edits_of(actions["sharpbits (SB101): Disable for this line"]) == [(1, 8, "  # noqa: SB101")]
    (fix_all,) = code_actions(stalled, hostile.uri_of(4), 0, only=["notebook.source.fixAll.sharpbits"]).values()
    assert json.dumps(fix_all["edit"]).count("z.at[0].set(1)") == 1

    # still spinning after an edit: straight to a child, stopped again; the spin gone: everything, no notice
    hostile.edit(4, "%time z = jnp.sin(jnp.zeros(3))\nz[0] = 2\n")
    shows(stalled, hostile.uri_of(4), ["SB101", "SB501"])
    assert codes(stalled.published(hostile.uri_of(1), timeout=10)) == ["stopped"]  # (cells publish in order)
    hostile.edit(5, "# nothing to see\n")
    shows(stalled, hostile.uri_of(2), ["SB201"])
    shows(stalled, hostile.uri_of(1), [], timeout=10)

    # a notebook closed while its analysis spins is cleared, and the server goes on serving
    again = Notebook(stalled, tmp_path / "again.ipynb", [*KEY_CELLS, (CODE, STALL_MARK + "\n")])
    again.close()
    for n in range(len(again.cells)):
        shows(stalled, again.uri_of(n), [], timeout=10)
    stalled.still_serving()
    calm.edit(4, "%time z = jnp.sin(jnp.zeros(3))\nz[1] = 1\n")
    shows(stalled, calm.uri_of(4), ["SB101", "SB501"], timeout=60)
    assert no_children_left(stalled.proc.pid) == []
    assert not (tmp_path / "RAN").exists()  # neither the server nor its children ran the workspace's modules


class Host:
    """What the notebook adapter needs of the server, in-process."""

    def __init__(self) -> None:
        from concurrent.futures import ThreadPoolExecutor

        from pygls.workspace import Workspace
        from sharpbits.config import Config
        from sharpbits.lsp.settings import EditorSettings

        self.workspace, self.config, self.settings = Workspace(None), Config(), EditorSettings()
        self.analysis_pool = ThreadPoolExecutor(2)

    def clear_diagnostics(self, uri: str) -> None:
        pass

    def analysis_failed(self, uri: str, exc: Exception) -> None:
        raise exc

    def window_log_message(self, params) -> None:
        pass


def test_the_views_of_a_notebook_of_many_cells_grow_with_the_cells_not_their_square(tmp_path):
    """Each cell's view names the code cells a trace from it runs; as a tuple of all the cells above, 8,000 cells
    held 32 million pairs (255 MB), 32,000 cells 4 GB. Now one pair per view, still telling cells apart."""
    from lsprotocol import types
    from sharpbits.lsp.notebooks import NotebookAdapter

    host, count = Host(), 2_000
    uri = (tmp_path / "many.ipynb").as_uri()
    cells = [f"vscode-notebook-cell://x{tmp_path}/many.ipynb#W{n}" for n in range(count)]
    host.workspace.put_notebook_document(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(uri=uri, notebook_type="jupyter-notebook", version=1, cells=[
            types.NotebookCell(kind=types.NotebookCellKind.Code, document=c) for c in cells]),
        cell_text_documents=[types.TextDocumentItem(uri=c, language_id="python", version=1, text="%time x = 1\n")
                             for c in cells]))
    adapter = NotebookAdapter(host)
    try:
        state = asyncio.run(adapter.analyse(uri))
    finally:
        host.analysis_pool.shutdown()
    assert state is not None and len(state.views) == count
    assert sum(len(view.cells) for view in state.views.values()) == count  # was count * (count + 1) / 2
    keys = [state.views[c].cells for c in cells]
    assert len(set(keys)) == count  # every cell's prefix is told apart
    assert keys[0] == adapter.cells_up_to(cells[0]) and keys[-1] == adapter.cells_up_to(cells[-1])
