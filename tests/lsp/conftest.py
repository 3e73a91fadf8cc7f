"""A real client talking to `sharpbits serve` over stdio (pytest-lsp), one server per test module."""

import asyncio
import sys
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES

SERVER = [str(Path(sys.executable).with_name("sharpbits")), "serve"]


def make_recording_client() -> LanguageClient:
    """The stock test client, but remembering every publishDiagnostics (uri, version, diagnostics) in order."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # type: ignore[attr-defined]
    for method, func in DEFAULT_CLIENT_FEATURES.items():
        if method != types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
            client.feature(method)(func)

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def on_lens_refresh(ls: LanguageClient, params: None) -> None:
        ls.lens_refreshes = getattr(ls, "lens_refreshes", 0) + 1  # type: ignore[attr-defined]

    @client.feature(types.WORKSPACE_INLAY_HINT_REFRESH)
    def on_hint_refresh(ls: LanguageClient, params: None) -> None:
        ls.hint_refreshes = getattr(ls, "hint_refreshes", 0) + 1  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def on_register(ls: LanguageClient, params: types.RegistrationParams) -> None:
        ls.registrations = [*getattr(ls, "registrations", []), *params.registrations]  # type: ignore[attr-defined]

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        ls.diagnostics[params.uri] = params.diagnostics
        ls.published.append((params.uri, params.version, params.diagnostics))  # type: ignore[attr-defined]

    return client


def server_fixture(initialization_options: dict, capabilities: types.ClientCapabilities | None = None):
    """A module-scoped fixture: a client connected to a fresh `sharpbits serve` with these options (and VS Code's
    client capabilities unless others are given)."""

    @pytest_lsp.fixture(config=ClientServerConfig(SERVER, client_factory=make_recording_client), scope="module")
    async def fixture(lsp_client: LanguageClient):
        result = await lsp_client.initialize_session(
            types.InitializeParams(
                capabilities=capabilities or client_capabilities("visual-studio-code"),
                initialization_options=initialization_options,
            )
        )
        lsp_client.server_capabilities = result.capabilities  # type: ignore[attr-defined]
        yield
        await lsp_client.shutdown_session()

    return fixture


client = server_fixture({})


async def wait_for_publish(client: LanguageClient, uri: str, version: int | None, timeout: float = 10.0):
    """Waits until diagnostics for `uri` at `version` arrive; returns them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for published_uri, published_version, diagnostics in reversed(client.published):
            if published_uri == uri and published_version == version:
                return diagnostics
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics for {uri} v{version}; got {[(u, v) for u, v, _ in client.published]}")


async def quiescent(client: LanguageClient, timeout: float = 30.0) -> None:
    """Waits until the server has no analysis scheduled or running (one sharpbits/serverStats round trip per look):
    every publication it was going to make has then arrived, so a test can assert that something did not."""
    deadline = time.monotonic() + timeout
    while True:
        stats = await client.protocol.send_request_async("sharpbits/serverStats", {})
        if stats.pending == 0 and stats.running == 0:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the server is still analysing: {stats}")
        await asyncio.sleep(0.02)


def open_document(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=version, text=text))
    )


def replace_text(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def lenses(client: LanguageClient, uri: str):
    """The server's code lenses for a document."""
    return await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))


async def trace(client: LanguageClient, uri: str, function: str, args=None):
    """Runs the `sharpbits.trace` command on a function, as the Trace lens does."""
    from sharpbits.trace import protocol, schema

    arg = {"uri": uri, "function": function, **({"args": args} if args else {})}
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="sharpbits.trace", arguments=[arg]))
    # every reply is the protocol's record (the extension's generated TypeScript types it so)
    assert schema.problems(result, protocol.TraceCommandResult, "command reply") == []
    return result



@pytest.fixture
def uri(tmp_path, request):
    return (tmp_path / f"{request.node.name.replace('[', '_').replace(']', '')}.py").as_uri()
