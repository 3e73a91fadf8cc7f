"""A malformed pyproject.toml never stops the language server (issue 24, item 6), over stdio: the server answers
`initialize`, shows one message naming the file, the line and the key, and lints with the defaults."""

from __future__ import annotations

import pytest

from tests.lsp.raw_client import RawClient

MODEL = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1.0\n"


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("[tool.sharpbits]\nselect = " + "[" * 3000 + "\n", "nested too deeply"),
        ('tool = "sharpbits"\n', ":1: `tool` must be a table"),
        ('[tool.sharpbits]\nignore = ["SB201"]\nseverity = "x"\n', ":3: [tool.sharpbits] `severity` must be a table"),
        ('[tool.sharpbits]\nper-file-ignores = 1\n', ":2: [tool.sharpbits] `per-file-ignores` must be a table"),
    ],
    ids=["nested", "tool-string", "severity-string", "per-file-int"],
)
def test_the_server_starts_says_what_is_wrong_and_serves_with_defaults(tmp_path, content, says):
    (tmp_path / "pyproject.toml").write_text(content)
    client = RawClient(cwd=tmp_path)
    try:
        reply = client.call("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {},
                                           "initializationOptions": {}})
        assert "result" in reply, reply
        client.notify("initialized", {})
        message = client.wait_for(lambda m: isinstance(m, dict) and m.get("method") == "window/showMessage",
                                  what="a message about the configuration")
        text = message["params"]["message"]
        assert text.startswith(f"sharpbits: {(tmp_path / 'pyproject.toml').resolve()}") and says in text, text
        uri = (tmp_path / "m.py").as_uri()
        client.open(uri, MODEL)
        diagnostics = client.published(uri)
        assert [d["code"] for d in diagnostics] == ["SB101"]  # the defaults: nothing switched off
    finally:
        client.close()


def test_a_malformed_pyproject_above_the_workspace_is_passed_over(tmp_path):
    (tmp_path / "pyproject.toml").write_text("a = " + "[" * 3000 + "\n")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    client = RawClient(cwd=workspace)
    try:
        reply = client.call("initialize", {"processId": None, "rootUri": workspace.as_uri(), "capabilities": {},
                                           "initializationOptions": {}})
        assert "result" in reply, reply
        client.notify("initialized", {})
        uri = (workspace / "m.py").as_uri()
        client.open(uri, MODEL)
        assert [d["code"] for d in client.published(uri)] == ["SB101"]
        assert not [m for m in client.seen if isinstance(m, dict) and m.get("method") == "window/showMessage"]
    finally:
        client.close()
