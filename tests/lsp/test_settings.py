"""Rule selection and severities from the editor's settings, on top of the workspace's pyproject.toml."""

from lsprotocol import types

from .conftest import open_document, server_fixture, wait_for_publish

client = server_fixture({"ignore": ["SB101"], "severity": {"prng-key-reuse": "hint"}})

CODE = (
    "import jax\nimport jax.numpy as jnp\nkey = jax.random.key(0)\na = jax.random.normal(key, ())\n"
    "b = jax.random.normal(key, ())\nx = jnp.zeros(3)\nx[0] = 1\n"
)


async def test_editor_settings_select_rules_and_severities(client, uri):
    open_document(client, uri, CODE)
    (diag,) = await wait_for_publish(client, uri, 1)
    assert diag.code == "SB201" and diag.severity == types.DiagnosticSeverity.Hint
