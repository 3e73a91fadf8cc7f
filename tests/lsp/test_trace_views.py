"""Live tracing in the editor, over stdio: CodeLens, the trace command, hover, inlay hints, and diagnostics
confirmed by tracing (cleared when the code changes)."""

import asyncio
import os
import sys
import tempfile

import pytest
from lsprotocol import types

from tests.trace.known_peak import keep_known_peak

from .conftest import lenses, open_document, replace_text, server_fixture, trace, wait_for_publish

CACHE = os.path.join(tempfile.gettempdir(), "sharpbits-test-jax-cache")
client = server_fixture({"trace": {"enabled": True, "interpreter": sys.executable, "platform": "cpu",
                                   "cacheDir": CACHE}})


@pytest.fixture(autouse=True, scope="module")
def known_peak():
    """The roofline's side of the ridge from known figures, not from what this machine measured while busy."""
    keep_known_peak(CACHE)

DOC = (
    "import jax\nimport jax.numpy as jnp\n\n\n"
    "# sharpbits: trace(x=f32[16])\n"
    "@jax.jit\n"
    "def f(x):\n"
    "    y = jnp.sin(x) * 2\n"
    "    return y + 1\n\n\n"
    "@jax.jit\n"
    "def g(x):\n"
    "    return x[x > 0]\n"
)



async def test_lens_trace_hover_and_hints(client, uri):
    open_document(client, uri, DOC)
    await wait_for_publish(client, uri, 1)
    before = await lenses(client, uri)
    # above the decorators (`@jax.jit`), not between them and the `def`
    assert [(lens.range.start.line, lens.command.title) for lens in before] == [(5, "▶ Trace"), (11, "▶ Trace")]
    assert before[0].command.command == "sharpbits.trace"
    assert before[0].command.arguments[0] == {"uri": uri, "function": "f"}
    result = await trace(client, uri, "f")
    assert result["ok"], result
    after = await lenses(client, uri)
    title = after[0].command.title
    assert title.startswith("jaxpr ") and " eqns · compile " in title and " · run " in title and title.endswith("cpu")
    assert after[1].command.title == "▶ Trace"
    # the summary of a current result opens the trace report in VS Code (other editors' sharpbits.trace re-traces)
    assert after[0].command.arguments[0] == {"uri": uri, "function": "f", "report": True}
    # hover on the name: the jaxpr; on a line: its primitives
    name = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(6, 5)))
    assert "{ lambda" in name.contents.value and "cpu" in name.contents.value
    # the roofline: an elementwise function moves more bytes than it computes on, against this CPU's measured peak
    assert "roofline: " in name.contents.value and "**memory-bound: " in name.contents.value
    assert "measured on this CPU" in name.contents.value
    line = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(7, 8)))
    assert "`sin`" in line.contents.value and "`mul`" in line.contents.value
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(20, 0))))
    labels = {(h.position.line, h.label.strip()) for h in hints}
    (def_hint,) = [label for line, label in labels if line == 6]
    assert def_hint.startswith("run ") and " · memory-bound: " in def_hint and def_hint.endswith("% of peak")
    assert len(def_hint) <= 43, f"VS Code cuts an inlay hint past 43 characters: {def_hint!r}"
    (def_tooltip,) = [h.tooltip for h in hints if h.position.line == 6]
    assert def_tooltip.value.startswith("roofline: ") and "measured on this CPU" in def_tooltip.value
    assert (7, "2 eqns") in labels and (8, "1 eqn") in labels
    # an edit makes the result stale: no hints, and the lens offers a re-run
    replace_text(client, uri, DOC.replace("* 2", "* 3"), 2)
    await wait_for_publish(client, uri, 2)
    assert (await lenses(client, uri))[0].command.title == "↻ Trace (code changed)"
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(20, 0))))
    assert not hints


async def test_trace_error_becomes_a_diagnostic_until_the_code_changes(client, uri):
    open_document(client, uri, DOC)
    (static,) = await wait_for_publish(client, uri, 1)
    assert static.code == "SB102"
    result = await trace(client, uri, "g", args="x=f32[4]")
    assert not result["ok"] and result["error"]["type"] == "NonConcreteBooleanIndexError"
    diagnostics = await settled(client, uri, lambda ds: any(d.source == "sharpbits (trace)" for d in ds))
    traced = [d for d in diagnostics if d.source == "sharpbits (trace)"]
    assert len(traced) == 1 and traced[0].range.start.line == 13 and traced[0].code == "NonConcreteBooleanIndexError"
    assert any(d.source == "sharpbits" for d in diagnostics)  # next to the static finding
    replace_text(client, uri, DOC + "\n", 2)
    diagnostics = await wait_for_publish(client, uri, 2)
    assert [d.source for d in diagnostics] == ["sharpbits"]


async def test_a_function_without_a_spec_asks_for_one(client, uri):
    open_document(client, uri, DOC)
    await wait_for_publish(client, uri, 1)
    result = await trace(client, uri, "g")
    assert result["needsSpec"] and not result["ok"]


async def test_traced_functions_request(client, uri):
    open_document(client, uri, DOC)
    await wait_for_publish(client, uri, 1)
    functions = await client.protocol.send_request_async("sharpbits/tracedFunctions", {"uri": uri})
    assert [(f["function"], f["line"], f["endLine"]) for f in functions] == [("f", 7, 9), ("g", 13, 14)]


auto_client = server_fixture({"trace": {"enabled": True, "autoRetrace": True, "interpreter": sys.executable,
                                        "platform": "cpu",
                                        "cacheDir": CACHE}})


async def test_auto_retrace_refreshes_results_after_an_edit(auto_client, uri):
    client = auto_client
    open_document(client, uri, DOC)
    await wait_for_publish(client, uri, 1)
    assert (await trace(client, uri, "f"))["ok"]
    assert (await lenses(client, uri))[0].command.title.startswith("jaxpr 3 eqns")
    replace_text(client, uri, DOC.replace("    return y + 1\n", "    return jnp.cos(y) + 1\n"), 2)
    for _ in range(200):  # re-traced in the background for version 2: one more equation
        title = (await lenses(client, uri))[0].command.title
        if title.startswith("jaxpr 4 eqns"):
            break
        await asyncio.sleep(0.1)
    assert title.startswith("jaxpr 4 eqns"), title


LOOPS = (
    "import jax\nimport jax.numpy as jnp\n\nLAYERS = list(range(300))\n\n\n"
    "# sharpbits: trace(x=f32[8])\n"
    "@jax.jit\n"
    "def big(x):\n"                                  # line 9
    "    for i in range(300):\n"                     # line 10: static warning (300 iterations), 600 equations
    "        x = jnp.sin(x) * 2\n"
    "    return x\n\n\n"
    "# sharpbits: trace(x=f32[8])\n"
    "@jax.jit\n"
    "def small(x):\n"                                # line 17
    "    for i in range(3):\n"                       # line 18: static info, 3 equations
    "        x = x + i\n"
    "    return x\n\n\n"
    "# sharpbits: trace(x=f32[8])\n"
    "@jax.jit\n"
    "def layered(x):\n"                              # line 25
    "    for k in LAYERS:\n"                         # line 26: not flagged statically (a list), 600 equations
    "        x = jnp.tanh(x) + k\n"
    "    return x\n"
)


async def settled(client, uri, predicate):
    for _ in range(100):
        diagnostics = client.diagnostics.get(uri, [])
        if predicate(diagnostics):
            return diagnostics
        await asyncio.sleep(0.05)
    raise AssertionError(f"diagnostics never settled: {client.diagnostics.get(uri)}")


def loop_diagnostics(diagnostics, line):
    return [d for d in diagnostics if d.range.start.line == line - 1 and (d.data or {}).get("rule") == "python-loop-in-jit"]


async def test_a_trace_confirms_loop_findings_with_their_measured_size(client, uri):
    open_document(client, uri, LOOPS)
    static = await wait_for_publish(client, uri, 1)
    assert loop_diagnostics(static, 10)[0].severity == types.DiagnosticSeverity.Warning
    assert loop_diagnostics(static, 18)[0].severity == types.DiagnosticSeverity.Information
    assert loop_diagnostics(static, 26) == []
    for function in ("big", "small", "layered"):
        assert (await trace(client, uri, function))["ok"]
    diagnostics = await settled(client, uri, lambda ds: all(
        loop_diagnostics(ds, line) and "traceConfirmed" in (loop_diagnostics(ds, line)[0].data or {})
        for line in (10, 18, 26)))
    (big,) = loop_diagnostics(diagnostics, 10)
    assert big.severity == types.DiagnosticSeverity.Warning
    assert "(trace: unrolled into 600 of 600 equations, ≈" in big.message and " compile)" in big.message
    assert big.data["traceConfirmed"]["function"] == "big" and big.data["traceConfirmed"]["equations"] == 600
    (small,) = loop_diagnostics(diagnostics, 18)
    assert small.severity == types.DiagnosticSeverity.Hint and "unrolled into 3 of 3 equations" in small.message
    (layered,) = loop_diagnostics(diagnostics, 26)  # found by the trace alone
    assert layered.severity == types.DiagnosticSeverity.Warning and layered.code == "SB301"
    assert "`layered`" in layered.message and "unrolled into 600 of 600 equations" in layered.message
    # the hover on a traced function splits its compile time and names the lines with the most equations
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri),
                                                                     types.Position(8, 5)))
    assert "compile " in hover.contents.value and " = tracing " in hover.contents.value
    assert "XLA compile " in hover.contents.value and "most of the 600 equations: line 11 (600, 100%)" in hover.contents.value
    # an edit: the measured facts are for the old version, so the findings are static again
    replace_text(client, uri, LOOPS + "\n", 2)
    diagnostics = await wait_for_publish(client, uri, 2)
    assert not any("traceConfirmed" in (d.data or {}) for d in diagnostics)
    assert loop_diagnostics(diagnostics, 26) == []


async def test_every_view_reads_one_stored_trace(client, uri, tmp_path):
    """Show jaxpr / StableHLO / HLO (the sharpbits/trace request for an open document) read the result the lens
    stored (it holds StableHLO and HLO too: the lens's line map needs both), so no listing traces again."""
    runs = tmp_path / "traced"  # the traced function's Python body runs (and writes a dot) only when it is traced
    text = DOC.replace("def f(x):\n", f"def f(x):\n    open({str(runs)!r}, 'a').write('.')\n")
    open_document(client, uri, text)
    await wait_for_publish(client, uri, 1)
    assert (await trace(client, uri, "f"))["ok"]
    traced = runs.read_text()

    async def show(kind):
        return await client.protocol.send_request_async("sharpbits/trace", {"uri": uri, "function": "f",
                                                                            "show": [kind, "lines"]})

    listing = await show("jaxpr")
    assert listing.ok and "{ lambda" in listing.jaxpr.text
    assert runs.read_text() == traced  # no second trace
    hlo = await show("hlo")  # the lens's trace mapped StableHLO and HLO to lines: both are held already
    assert hlo.ok and hlo.hlo.text and hlo.timings.run.median_s
    stablehlo = await show("stablehlo")
    assert stablehlo.ok and "func.func" in stablehlo.stablehlo.text
    assert runs.read_text() == traced
    assert (await show("jaxpr")).jaxpr.text == listing.jaxpr.text and (await show("hlo")).hlo.text == hlo.hlo.text
    assert runs.read_text() == traced
    assert " · run " in (await lenses(client, uri))[0].command.title  # the lens shows the stored result
    replace_text(client, uri, text + "\n", 2)  # a new version: its listing is traced again
    await wait_for_publish(client, uri, 2)
    assert (await show("jaxpr")).ok and len(runs.read_text()) > len(traced)
