"""Tracing a function defined in a notebook cell, over stdio with a real worker: the Trace CodeLens on the cell,
the cells above it run first (magics, shell escapes and %timeit left out, a note says which cells ran), and the
result comes back in the cell's lines (hover, inlay hints, the jaxpr's source map, errors). Untrusted: refused,
and nothing of the notebook runs."""

import os
import sys
import tempfile
from pathlib import Path

from lsprotocol import types
from sharpbits.trace import protocol, schema

from .conftest import lenses, server_fixture, trace
from .test_notebooks import CODE, MARKUP, Notebook, notebook_client_capabilities, published_after
from .test_tracing_in_server import plain

TRACE = {"enabled": True, "interpreter": sys.executable, "platform": "cpu",
         "cacheDir": os.path.join(tempfile.gettempdir(), "sharpbits-test-jax-cache")}
client = server_fixture({"trace": TRACE}, notebook_client_capabilities())
MARKER = Path(tempfile.gettempdir()) / f"sharpbits-notebook-untrusted-{os.getpid()}"
untrusted = server_fixture({"trusted": False, "trace": {**TRACE, "interpreter": sys.executable}},
                           notebook_client_capabilities())

CELLS = [
    (MARKUP, "# Tracing from a notebook"),
    (CODE, "!pip install -q jax\n%matplotlib inline\nimport jax\nimport jax.numpy as jnp\n\nSCALE = 3.0"),
    (CODE, "def helper(x):\n    return jnp.cos(x) * SCALE"),
    (CODE, "%%bash\necho this never runs"),
    (CODE, "%timeit helper(jnp.ones(3)).block_until_ready()\nwith open(MARKER_PATH, 'w') as f:\n    f.write('ran')"),
    (MARKUP, "The function to trace:"),
    (CODE, "# sharpbits: trace(x=f32[8])\n@jax.jit\ndef f(x):\n    y = jnp.sin(x) + helper(x)\n    return y * 2"),
    (CODE, "@jax.jit\ndef g(x):\n    return undefined_name + x"),
    (CODE, "def broken(x):\n    raise ValueError('no good')"),
    (CODE, "@jax.jit\ndef h(x):\n    return broken(x)"),
]


def cells_with_marker(marker: Path):
    return [(kind, text.replace("MARKER_PATH", repr(str(marker)))) for kind, text in CELLS]



async def hover(client, uri, line, character):
    return await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, character)))


async def test_the_trace_lens_on_a_cell_runs_the_cells_above_and_maps_back_to_the_cell(client, tmp_path):
    marker = tmp_path / "ran-cell-5"
    nb = Notebook(client, tmp_path / "tracing.ipynb", cells_with_marker(marker))
    try:
        cell = nb.uri_of(6)
        await published_after(client, 0, [cell])
        before = await lenses(client, cell)
        # above the whole decorated function: on `@jax.jit`, not between it and the `def`
        assert [(lens.range.start.line, lens.command.title) for lens in before] == [(1, "▶ Trace")]
        assert list(before[0].command.arguments) == [{"uri": cell, "function": "f"}]
        assert [(lens.range.start.line, lens.command.title) for lens in await lenses(client, nb.uri_of(7))] == [
            (0, "▶ Trace")]
        # `helper` in cell 3 runs under `f`'s jit: traceable too, with its lens in its own cell
        assert [(lens.range.start.line, lens.command.arguments[0]["function"])
                for lens in await lenses(client, nb.uri_of(2))] == [(0, "helper")]

        result = await trace(client, cell, "f")
        assert result["ok"], result
        assert result["note"] == ("ran cells 2, 3, 5, 7 of the notebook in order before tracing (magics and shell "
                                  "escapes left out); not run: cell 4 (%%bash cell)")
        assert marker.read_text() == "ran"  # cell 5 ran (its %timeit line did not)

        after = await lenses(client, cell)
        assert after[0].command.title.startswith("jaxpr ") and after[0].command.title.endswith("cpu")
        name = await hover(client, cell, 2, 5)
        assert "{ lambda" in name.contents.value and "_ran cells 2, 3, 5, 7 of the notebook" in name.contents.value
        # line 4 of the cell (0-based 3): its own `sin` and `+`, and the `cos` and `*` of the helper it calls
        # (written in cell 3): a call's line counts what it calls, so the lines of `f` add up to its count
        line = await hover(client, cell, 3, 8)
        assert line.contents.value == ("line 4 of **f** accounts for 4 jaxpr equations (of 5, with what it calls): "
                                       "`add`, `cos`, `mul`, `sin`")
        hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
            types.TextDocumentIdentifier(cell), types.Range(types.Position(0, 0), types.Position(10, 0))))
        labels = {(h.position.line, h.label.strip()) for h in hints}
        assert any(line == 2 and label.startswith("run ") for line, label in labels)
        assert (4, "1 eqn") in labels  # `return y * 2`
        assert all(line <= 4 for line, _ in labels)  # nothing past the cell's end

        # the jaxpr's source map is in the cell's lines, with a request as the "Show jaxpr" view makes it
        raw = plain(await client.protocol.send_request_async("sharpbits/trace", {"uri": cell, "function": "f",
                                                                                 "show": ["jaxpr", "lines"]}))
        assert raw["notebook"]["cell"] == 7 and raw["notebook"]["ran"] == [2, 3, 5, 7]
        assert raw["notebook"]["skipped"] == [{"cell": 4, "reason": "%%bash cell"}]
        text_lines = raw["jaxpr"]["text_lines"]
        assert text_lines and {line for _, line in text_lines} <= {4, 5}
        assert raw["target"]["line"] == 2 and raw["spec"]["line"] == 1
        assert schema.problems(raw, protocol.TraceResult) == []  # the typed record, `notebook` included

        # the result is of the cells that ran: an edit below the function's cell keeps it, one above does not
        nb.edit(7, "@jax.jit\ndef g(x):\n    return x + 1")
        await published_after(client, len(client.published), [cell])
        assert (await lenses(client, cell))[0].command.title.startswith("jaxpr ")
        nb.edit(2, "def helper(x):\n    return jnp.cos(x) * SCALE * 2")
        await published_after(client, len(client.published), [cell])
        assert (await lenses(client, cell))[0].command.title == "↻ Trace (code changed)"
        assert "{ lambda" not in ((await hover(client, cell, 2, 5)) or types.Hover("")).contents
    finally:
        nb.close()


async def test_an_error_in_a_cell_is_a_diagnostic_in_that_cell(client, tmp_path):
    nb = Notebook(client, tmp_path / "errors.ipynb", cells_with_marker(tmp_path / "m"))
    try:
        cell = nb.uri_of(7)
        await published_after(client, 0, [cell])
        mark = len(client.published)
        result = await trace(client, cell, "g", "x=f32[2]")
        assert not result["ok"] and result["error"]["type"] == "NameError"
        assert result["error"]["line"] == 3 and result["error"]["cell"] == 8 and result["error"]["cell_line"] == 3
        diagnostics = {uri: diags for uri, _, diags in client.published[mark:]}
        (diagnostic,) = [d for d in diagnostics[cell] if d.source == "sharpbits (trace)"]
        assert diagnostic.range.start.line == 2 and "undefined_name" in diagnostic.message
        # raised in a helper of another cell: the error says where, and has no line in this cell
        result = await trace(client, nb.uri_of(9), "h", "x=f32[2]")
        assert not result["ok"] and result["error"]["type"] == "ValueError"
        assert (result["error"]["line"], result["error"]["cell"], result["error"]["cell_line"]) == (None, 9, 2)
        assert result["error"]["message"] == "no good (cell 9, line 2)"
    finally:
        nb.close()


async def test_untrusted_a_notebook_cell_trace_is_refused_and_nothing_runs(untrusted, tmp_path):
    marker = tmp_path / "must-not-exist"
    nb = Notebook(untrusted, tmp_path / "untrusted.ipynb", cells_with_marker(marker))
    try:
        cell = nb.uri_of(6)
        await published_after(untrusted, 0, [cell])
        assert await lenses(untrusted, cell) is None
        result = await trace(untrusted, cell, "f")
        assert result["refused"] and result["error"]["type"] == "WorkspaceNotTrusted"
        raw = plain(await untrusted.protocol.send_request_async("sharpbits/trace", {"uri": cell, "function": "f"}))
        assert raw["refused"]
        assert not marker.exists()
    finally:
        nb.close()
