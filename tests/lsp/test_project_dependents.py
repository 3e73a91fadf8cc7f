"""An open document is analysed again, on its own, when a module it imports changes what it shows its callers
(lsp/project_deps.py): an edit of that module in the editor, its closing (its file on disk counts again), or its
file changed on disk (workspace/didChangeWatchedFiles). An edit that changes nothing its callers see (a comment)
leaves the importing documents alone. Over stdio, with a real client."""

from pathlib import Path

from lsprotocol import types

from .conftest import open_document, quiescent, replace_text, wait_for_publish

MAIN = """import jax
from pkg.helpers import use


def f(key):
    a = use(key)
    b = jax.random.normal(key, ())
    return a, b
"""
KEEPS = "def use(key):\n    del key\n    return 0\n"
DRAWS = "import jax\n\n\ndef use(key):\n    return jax.random.normal(key, ())\n"


def _project(tmp_path: Path, helpers_text: str, package: str = "pkg") -> tuple[str, Path]:
    """pkg/main.py (MAIN) and pkg/helpers.py; `package`: another name (the server's index is one for the module's
    tests: each test's package must have a name of its own)."""
    pkg = tmp_path / package
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    helpers = pkg / "helpers.py"
    helpers.write_text(helpers_text)
    main = pkg / "main.py"
    main.write_text(MAIN.replace("from pkg.", f"from {package}."))
    return main.as_uri(), helpers


async def publications_since(client, uri: str, count: int, mark: int, timeout: float = 20.0):
    """Waits until `uri` has `count` publications after the first `mark` of client.published; returns them."""
    import asyncio
    import time

    deadline = time.monotonic() + timeout
    while True:
        found = [(v, d) for u, v, d in client.published[mark:] if u == uri]
        if len(found) >= count:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(found)} publications of {uri} after {mark}, wanted {count}")
        await asyncio.sleep(0.02)


async def test_an_edit_of_an_imported_module_reanalyses_the_importing_document(client, tmp_path):
    main, helpers = _project(tmp_path, KEEPS)
    open_document(client, main, MAIN)
    assert list(await wait_for_publish(client, main, 1)) == []  # `use` dels its key: the draw is its first use

    open_document(client, helpers.as_uri(), KEEPS)  # the same text as on disk
    await wait_for_publish(client, helpers.as_uri(), 1)
    await quiescent(client)
    mark = len(client.published)
    replace_text(client, helpers.as_uri(), DRAWS, 2)  # `use` now draws from the key it is given
    ((version, (diag,)),) = await publications_since(client, main, 1, mark)  # main itself was not touched
    assert version == 1 and diag.code == "SB201" and diag.range.start.line == 6 and "`use(...)`" in diag.message

    mark = len(client.published)
    replace_text(client, helpers.as_uri(), DRAWS + "# a comment changes nothing callers see\n", 3)
    await wait_for_publish(client, helpers.as_uri(), 3)
    await quiescent(client)
    assert [u for u, _, _ in client.published[mark:] if u == main] == []

    mark = len(client.published)
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(helpers.as_uri())))
    ((version, diagnostics),) = await publications_since(client, main, 1, mark)  # the file on disk keeps its key
    assert version == 1 and list(diagnostics) == []
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(main)))
    await quiescent(client)


async def test_a_file_changed_on_disk_reanalyses_the_documents_that_import_it(client, tmp_path):
    main, helpers = _project(tmp_path, KEEPS, "pkg2")
    open_document(client, main, MAIN.replace("from pkg.", "from pkg2."))
    assert list(await wait_for_publish(client, main, 1)) == []

    mark = len(client.published)
    helpers.write_text(DRAWS)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(helpers.as_uri(), types.FileChangeType.Changed)]))
    ((version, (diag,)),) = await publications_since(client, main, 1, mark)
    assert version == 1 and diag.code == "SB201" and diag.range.start.line == 6

    mark = len(client.published)
    helpers.write_text(KEEPS)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(helpers.as_uri(), types.FileChangeType.Changed)]))
    ((version, diagnostics),) = await publications_since(client, main, 1, mark)
    assert version == 1 and list(diagnostics) == []

    mark = len(client.published)
    helpers.unlink()  # deleted: `use` is unknown, and an unknown callee may consume the key
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(helpers.as_uri(), types.FileChangeType.Deleted)]))
    ((version, (diag,)),) = await publications_since(client, main, 1, mark)
    assert version == 1 and diag.code == "SB201"
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(main)))
    await quiescent(client)


def test_typing_in_a_module_nobody_imports_summarises_it_once(tmp_path):
    """The project check after each publication of a document (lsp/project_deps.py): typing in a module that no
    other open document imports summarises its text once, at the first check (the baselines of what it imports),
    not at every keystroke's publication. Each summary forced the shape of every function in a thread beside the
    next keystroke's analysis: on a 5,000-line module that was the worst delay after a pause."""
    from sharpbits.analysis.project_index import ProjectIndex
    from sharpbits.lsp.project_deps import ProjectDependencies

    index = ProjectIndex([tmp_path])
    deps = ProjectDependencies()
    (tmp_path / "helpers.py").write_text(KEEPS)
    typed = str(tmp_path / "typed.py")
    other = str(tmp_path / "other.py")
    index.update(other, "x = 1\n", lazy=True)
    documents = {"file:///typed": typed, "file:///other": other}
    text = "from helpers import use\n\n\ndef f(key):\n    return use(key)\n"
    index.update(typed, text, lazy=True)
    assert deps.dependents(index, {typed}, documents) == []
    parsed = index.parsed
    for keys in range(1, 6):
        index.update(typed, text + "#" + "x" * keys + "\n", lazy=True)
        assert deps.dependents(index, {typed}, documents) == []
    assert index.parsed == parsed  # none of the five versions was summarised

    # the baseline of `helpers` was taken at the first check: a change it shows reaches `typed` ...
    index.update(str(tmp_path / "helpers.py"), DRAWS, lazy=True)
    assert deps.dependents(index, {str(tmp_path / "helpers.py")}, documents) == ["file:///typed"]
    # ... one it does not show (a comment) leaves it alone
    index.update(str(tmp_path / "helpers.py"), DRAWS + "# a comment\n", lazy=True)
    assert deps.dependents(index, {str(tmp_path / "helpers.py")}, documents) == []
