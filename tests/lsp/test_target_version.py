"""Syntax newer than the project's `requires-python` over stdio: the server reads the target from the project's
pyproject.toml (no [tool.sharpbits] needed), publishes SB003 on the line, reads newer syntax without a syntax
error, and follows a change of the pyproject.toml at the next edit."""

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import SERVER, make_recording_client, open_document, replace_text, wait_for_publish

CODE = ("import jax.numpy as jnp\n\n"
        "type Params = dict[str, jnp.ndarray]\n\n"
        "def describe(x):\n"
        "    match x.ndim:\n"
        "        case 0:\n"
        "            return 'scalar'\n"
        "    x[0] = 1\n")


@pytest_lsp.fixture(config=ClientServerConfig(SERVER, client_factory=make_recording_client), scope="module")
async def client(lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp("target-version")
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nrequires-python = ">=3.9"\n')
    lsp_client.workspace_root = root  # type: ignore[attr-defined]
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=root.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


async def test_syntax_newer_than_requires_python_is_published_and_follows_the_pyproject(client):
    root = client.workspace_root
    uri = (root / "m.py").as_uri()
    open_document(client, uri, CODE)
    found = await wait_for_publish(client, uri, 1)
    too_new = sorted((d.range.start.line, d.message.split(" needs ")[0]) for d in found if d.code == "SB003")
    assert too_new == [(2, "a `type` alias statement"), (5, "a `match` statement")], [d.message for d in found]
    assert all(d.severity == types.DiagnosticSeverity.Error for d in found if d.code == "SB003")
    assert "requires-python = \">=3.9\"" in next(d.message for d in found if d.code == "SB003")
    assert [d.code for d in found if d.code != "SB003"] == []  # x is a parameter of unknown kind: no SB101
    # the project moves to 3.12: the next analysis reads the new bound (no restart, no [tool.sharpbits])
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nrequires-python = ">=3.12"\n')
    replace_text(client, uri, CODE + "\n", 2)
    assert [d.code for d in await wait_for_publish(client, uri, 2)] == []
