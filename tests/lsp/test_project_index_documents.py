"""The language server feeds the analysis's project index the documents it is sent: a call into another module of
the workspace is answered from that module's file on disk (read lazily), or from the editor's text while it is
open, and from the file again once it is closed."""

from lsprotocol import types

from .conftest import open_document, replace_text, wait_for_publish

MAIN = """import jax
from pkg.helpers import use


def f(key):
    a = use(key)
    b = jax.random.normal(key, ())
    return a, b
"""
KEEPS = "def use(key):\n    del key\n    return 0\n"
DRAWS = "import jax\n\n\ndef use(key):\n    return jax.random.normal(key, ())\n"


async def test_a_callee_in_another_module_is_read_from_disk_then_from_the_editor(client, tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    helpers = pkg / "helpers.py"
    helpers.write_text(KEEPS)
    main = (pkg / "main.py").as_uri()
    open_document(client, main, MAIN)
    assert list(await wait_for_publish(client, main, 1)) == []  # `use` dels its key: the draw is its first use

    open_document(client, helpers.as_uri(), DRAWS)  # edited in the editor (not saved): `use` now draws
    await wait_for_publish(client, helpers.as_uri(), 1)
    replace_text(client, main, MAIN + "\n", 2)
    (diag,) = await wait_for_publish(client, main, 2)
    assert diag.code == "SB201" and diag.range.start.line == 6 and "`use(...)`" in diag.message

    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(helpers.as_uri())))
    replace_text(client, main, MAIN, 3)  # the closed document's file on disk counts again
    assert list(await wait_for_publish(client, main, 3)) == []
