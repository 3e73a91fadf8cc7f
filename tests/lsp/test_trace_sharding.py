"""Sharding in the editor, over stdio: a function sharded over 8 host devices (the worker runs through the launch
prefix `env XLA_FLAGS=...`) shows its device grids in the hover and its collectives next to their lines."""

import os
import sys
import tempfile

from lsprotocol import types

from .conftest import open_document, server_fixture, wait_for_publish

client = server_fixture({"trace": {
    "enabled": True, "interpreter": sys.executable, "platform": "cpu",
    "launchPrefix": ["env", "XLA_FLAGS=--xla_force_host_platform_device_count=8"],
    "cacheDir": os.path.join(tempfile.gettempdir(), "sharpbits-test-jax-cache")}})

DOC = (
    "import jax\nimport jax.numpy as jnp\nfrom jax.sharding import AxisType, NamedSharding\n"
    "from jax.sharding import PartitionSpec as P\n\n"
    "mesh = jax.make_mesh((4, 2), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))\n"
    "rows = NamedSharding(mesh, P('x', None))\n\n\n"
    "# sharpbits: trace(a=f32[16,8] @ rows)\n"
    "@jax.jit\n"
    "def gram_rows(a):\n"                                                             # line 12
    "    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P('x', 'y')))\n"
    "    b = jnp.sin(a) @ a.T\n"                                                     # line 14
    "    return jax.lax.with_sharding_constraint(b.sum(axis=0), NamedSharding(mesh, P()))\n"  # line 15
)


async def test_sharding_hover_and_collective_hints(client, uri):
    open_document(client, uri, DOC)
    await wait_for_publish(client, uri, 1)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="sharpbits.trace", arguments=[{"uri": uri, "function": "gram_rows"}]))
    assert result["ok"], result
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri),
                                                                     types.Position(11, 6)))
    text = hover.contents.value
    assert "sharding over 8 devices:" in text and "`a` float32[16, 8] `P('x', None)` (split over 8 devices)" in text
    assert "0:4  0,1" in text and "`result` float32[16] `P()` (replicated)" in text
    assert "collectives: " in text and "`all-reduce` 64 B (line 15)" in text
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(20, 0))))
    labels = {(h.position.line + 1, h.label.strip()) for h in hints}
    assert any(line == 15 and "all-reduce 64 B" in label for line, label in labels)
    assert any(line == 14 and "all-" in label and " B" in label for line, label in labels)
