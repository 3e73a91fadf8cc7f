"""A workspace whose pyproject.toml names sharpbits but is not valid TOML: the server says so, with the file and
the line (the same ConfigSyntaxError the CLI reports), and keeps linting with the default rules."""

import asyncio
import time

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import SERVER, make_recording_client, open_document, wait_for_publish

BROKEN = '[project]\nname = "demo"\n\n[tool.sharpbits]\nignore = ["SB101"\n'


@pytest_lsp.fixture(config=ClientServerConfig(SERVER, client_factory=make_recording_client), scope="module")
async def client(lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp("broken-config")
    (root / "pyproject.toml").write_text(BROKEN)
    lsp_client.workspace_root = root  # type: ignore[attr-defined]
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=root.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


async def test_invalid_toml_is_reported_with_file_and_line(client):
    root = client.workspace_root
    deadline = time.monotonic() + 10
    while not client.messages and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    (message,) = [m for m in client.messages if "pyproject.toml" in m.message]
    assert message.type == types.MessageType.Warning
    assert message.message.startswith(f"sharpbits: {(root / 'pyproject.toml').resolve()}:6:1: invalid TOML, so its "
                                      "[tool.sharpbits] settings cannot be read: "), message.message
    # the settings that could not be read do not switch anything off: SB101 is still reported
    uri = (root / "m.py").as_uri()
    open_document(client, uri, "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1\n")
    (diagnostic,) = await wait_for_publish(client, uri, 1)
    assert diagnostic.code == "SB101"
