"""Start-up (issue 26): `sharpbits serve` answers `initialize` from lsp/start.py, before pygls, lsprotocol or the
analysis are imported, with exactly what pygls answers for the registered features; the server then handles the
same message (settings, client capabilities) and its own answer is dropped. bench/startup.py times it."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pytest_lsp import client_capabilities
from sharpbits.lsp.server import create_server
from sharpbits.lsp.start import answerable, initialize_result

SERVE = [sys.executable, "-m", "sharpbits", "serve"]

CLIENTS: list[dict[str, Any]] = [
    {},
    {"general": {"positionEncodings": ["utf-32", "utf-16"]}},
    {"general": {"positionEncodings": ["bogus", "utf-8"]}},
    {"general": {"positionEncodings": ["bogus"]}},
    {"textDocument": {"synchronization": {"willSave": True, "willSaveWaitUntil": False}}},
    {"notebookDocument": {"synchronization": {"dynamicRegistration": True}}},
    {"workspace": {"fileOperations": {"willRename": True, "didCreate": True}}},
]


def pygls_result(capabilities: dict[str, Any]) -> dict[str, Any]:
    """What pygls' lsp_initialize answers for these client capabilities, with every feature registered."""
    server = create_server()
    protocol = server.protocol
    converter = protocol._converter
    client = converter.structure(capabilities, types.ClientCapabilities)
    fm = protocol.fm
    built = ServerCapabilitiesBuilder(
        client, set({**fm.features, **fm.builtin_features}), fm.feature_options, list(fm.commands),
        server._text_document_sync_kind, server._notebook_document_sync,
        ServerCapabilitiesBuilder.choose_position_encoding(client)).build()
    return converter.unstructure(types.InitializeResult(capabilities=built, server_info=protocol.server_info))


def as_json(capabilities: types.ClientCapabilities) -> dict[str, Any]:
    return create_server().protocol._converter.unstructure(capabilities)


@pytest.mark.parametrize("capabilities", [*CLIENTS, as_json(client_capabilities("visual-studio-code")),
                                          as_json(client_capabilities("neovim"))])
def test_the_start_up_answer_is_pygls_answer(capabilities):
    assert initialize_result({"capabilities": capabilities}) == pygls_result(capabilities)


def test_only_initialize_of_the_usual_shape_is_answered_at_start_up():
    good = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}}
    assert answerable(good)
    for bad in [
        {**good, "id": 1.5},
        {**good, "method": "shutdown"},
        {**good, "params": {"capabilities": []}},
        {**good, "params": {"processId": "7", "capabilities": {}}},
        {**good, "params": {"capabilities": {}, "rootUri": 5}},
        {**good, "params": {"capabilities": {}, "workspaceFolders": [{"uri": 1}]}},
        {**good, "params": {"capabilities": {"textDocument": 5}}},
        {**good, "params": {"capabilities": {}, "trace": "loud"}},
        [good],
    ]:
        assert not answerable(bad), bad


def test_the_start_module_imports_no_server_library():
    code = ("import sys, sharpbits.cli, sharpbits.lsp.start; print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'pygls', 'lsprotocol', 'attrs', 'cattrs', 'libcst', 'jax', 'numpy', 'sharpbits.analysis'}), "
            "[m for m in sys.modules if m.startswith(('sharpbits.analysis', 'sharpbits.lsp.server'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] []", out


class Session:
    """`python -X importtime -m sharpbits serve` driven by hand: every message it sends, in order."""

    def __init__(self, importtime: bool = False) -> None:
        args = [sys.executable, *(["-X", "importtime"] if importtime else []), *SERVE[1:]]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=Path(__file__).parent)
        self.received: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def reply(self, msg_id: int) -> dict[str, Any]:
        """Reads messages until the reply to `msg_id` (blocking reads: the test waits for the event)."""
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while (line := out.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            assert line, "the server closed its output"
            message = json.loads(out.read(length))
            self.received.append(message)
            if message.get("id") == msg_id and "method" not in message:
                return message

    def finish(self) -> str:
        self.send({"jsonrpc": "2.0", "id": 99, "method": "shutdown"})
        self.reply(99)
        self.send({"jsonrpc": "2.0", "method": "exit"})
        _, err = self.proc.communicate(timeout=60)
        assert self.proc.returncode == 0
        return err.decode()


def test_initialize_is_answered_once_and_the_server_then_knows_the_session():
    session = Session(importtime=True)
    caps = {"general": {"positionEncodings": ["utf-32"]}}
    session.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"processId": None, "capabilities": caps, "initializationOptions": {"debounceMs": "x"}}})
    assert session.reply(1)["result"] == initialize_result({"capabilities": caps})
    session.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    session.send({"jsonrpc": "2.0", "id": 2, "method": "sharpbits/serverStats", "params": {}})
    stats = session.reply(2)
    assert "result" in stats and stats["result"]["documents"] == 0  # initialized: not -32002
    err = session.finish()
    assert [m for m in session.received if m.get("id") == 1] == [session.received[0]]  # pygls' answer was dropped
    # the settings of initializationOptions were read by the server (its warning names the bad value)
    assert any(m.get("method") == "window/showMessage" and "debounceMs" in m["params"]["message"]
               for m in session.received), session.received
    assert "answered" not in err  # no difference between the start-up answer and the server's own
    imported = {line.split("|")[-1].strip().split(".")[0] for line in err.splitlines() if line.startswith("import time")}
    assert not imported & {"libcst", "jax", "numpy"}, imported & {"libcst", "jax", "numpy"}


def test_capabilities_pygls_rejects_after_the_start_up_answer_leave_a_working_server():
    session = Session()
    session.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"processId": None, "capabilities": {"textDocument": {"hover": {"contentFormat": 5}}}}})
    assert "result" in session.reply(1)
    session.send({"jsonrpc": "2.0", "id": 2, "method": "sharpbits/serverStats", "params": {}})
    assert "result" in session.reply(2)  # initialized (without the client's capabilities), not -32002
    session.finish()
    assert [m for m in session.received if m.get("id") == 1] == [session.received[0]]
    assert any(m.get("method") == "window/logMessage" and "initialize" in m["params"]["message"]
               for m in session.received), session.received


FIRST = '''import jax


@jax.jit
def f(x):
    s = "\N{GRINNING FACE}é"; print(x)  # \N{GRINNING FACE}
    x[0] = 1.0
    return x
'''


def published(session: Session, uri: str, count: int) -> list[dict[str, Any]]:
    """Reads messages until `count` publishDiagnostics for `uri` arrived (blocking reads: waits for the event)."""
    session.send({"jsonrpc": "2.0", "id": 50, "method": "sharpbits/serverStats", "params": {}})
    session.reply(50)
    found = [m["params"] for m in session.received
             if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]
    while len(found) < count:
        session.send({"jsonrpc": "2.0", "id": 51, "method": "sharpbits/serverStats", "params": {}})
        before = len(session.received)
        session.reply(51)
        found += [m["params"] for m in session.received[before:]
                  if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]
    return found


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_the_first_document_is_published_before_the_server_is_imported_as_the_server_publishes_it(tmp_path, encoding):
    """lsp/early.py publishes the first document's diagnostics with only the analysis imported, as the server,
    once imported, publishes the same text (positions in the client's encoding, settings from initializationOptions
    and the workspace's pyproject.toml, links, data); the server does not publish that version again."""
    (tmp_path / "pyproject.toml").write_text('[tool.sharpbits]\nignore = ["in-place-update"]\n')
    uri, again = (tmp_path / "first.py").as_uri(), (tmp_path / "again.py").as_uri()
    session = Session()
    session.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {"general": {"positionEncodings": [encoding]}},
        "initializationOptions": {"severity": {"print-in-jit": "error"}}}})
    session.reply(1)
    session.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    session.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "python", "version": 3, "text": FIRST}}})
    [early] = published(session, uri, 1)
    session.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": again, "languageId": "python", "version": 1, "text": FIRST}}})
    [server] = published(session, again, 1)
    session.finish()
    assert early["version"] == 3 and early["diagnostics"] == server["diagnostics"]
    assert len([m for m in session.received if m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == uri]) == 1
    [diagnostic] = early["diagnostics"]  # in-place-update ignored by the workspace
    assert diagnostic["data"] == {"rule": "print-in-jit", "fixable": True}
    assert diagnostic["severity"] == 1  # the editor's severity setting
    column = FIRST.splitlines()[5].index("print")
    units = {"utf-16": column + 1, "utf-8": column + 4, "utf-32": column}[encoding]  # 😀: 2, 4, 1 units; é: 1, 2, 1
    assert diagnostic["range"]["start"] == {"line": 5, "character": units}


def test_a_request_before_the_first_document_goes_to_the_server_at_once():
    session = Session()
    session.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}})
    session.reply(1)
    session.send({"jsonrpc": "2.0", "id": 2, "method": "sharpbits/serverStats", "params": {}})
    assert "result" in session.reply(2)
    session.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": "file:///nowhere/m.py", "languageId": "python", "version": 1, "text": FIRST}}})
    assert len(published(session, "file:///nowhere/m.py", 1)) == 1  # the server's own, once
    session.finish()
