"""Diagnostics over stdio: published on open, after changes (a burst shown once, at its last version), never for an
old version, UTF-16 columns."""

import asyncio
import time

from lsprotocol import types

from .conftest import open_document, quiescent, replace_text, wait_for_publish

BAD = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1\n"


async def test_diagnostic_on_open(client, uri):
    open_document(client, uri, BAD)
    (diag,) = await wait_for_publish(client, uri, 1)
    assert diag.code == "SB101" and diag.source == "sharpbits"
    assert diag.severity == types.DiagnosticSeverity.Error
    assert diag.data["rule"] == "in-place-update" and not diag.message.endswith("]")  # no `[rule]` suffix
    assert diag.code_description.href.startswith("file://") and diag.code_description.href.endswith("/in-place-update.md")
    assert diag.range == types.Range(types.Position(2, 0), types.Position(2, 4))


async def test_utf16_columns_on_a_non_ascii_line(client, uri):
    # 😀 is one character but two UTF-16 code units; é is one of each
    text = "import jax.numpy as jnp\nx = jnp.zeros(3)\ns = '😀é'; x[0] = 1\n"
    open_document(client, uri, text)
    (diag,) = await wait_for_publish(client, uri, 1)
    # characters: s, ,=, ,', 😀, é, ', ;,  -> x at index 10; in UTF-16 units it is 11
    assert diag.range.start == types.Position(2, 11) and diag.range.end == types.Position(2, 15)


async def test_a_burst_of_changes_ends_with_the_last_version_and_never_goes_back(client, uri):
    open_document(client, uri, "import jax.numpy as jnp\n")
    assert list(await wait_for_publish(client, uri, 1)) == []
    for version in range(2, 8):  # a burst of changes (a paste, a formatter): sent back to back
        replace_text(client, uri, BAD + "\n" * version, version)
    diagnostics = await wait_for_publish(client, uri, 7)
    assert [d.code for d in diagnostics] == ["SB101"]
    await quiescent(client)  # anything still in flight has arrived now
    versions = [v for u, v, _ in client.published if u == uri]
    # no debounce: a version whose analysis finished while it was still current may be published (on a loaded
    # machine the burst arrives with gaps); what never happens is an older version after a newer one, or a
    # publication after the last version's
    assert versions[0] == 1 and versions[-1] == 7 and versions == sorted(set(versions)), versions


async def test_fixing_the_code_clears_the_diagnostic(client, uri):
    open_document(client, uri, BAD)
    assert len(await wait_for_publish(client, uri, 1)) == 1
    replace_text(client, uri, BAD.replace("x[0] = 1", "x = x.at[0].set(1)"), 2)
    assert list(await wait_for_publish(client, uri, 2)) == []


async def test_syntax_error_mid_typing_keeps_the_server_answering(client, uri):
    open_document(client, uri, BAD)
    await wait_for_publish(client, uri, 1)
    replace_text(client, uri, BAD + "def broken(:\n", 2)
    await quiescent(client)  # version 2 was analysed
    # nothing is published for the unparsable version: the editor keeps showing the last good diagnostics
    assert [v for u, v, _ in client.published if u == uri] == [1]
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(2, 1))
    )
    assert hover is None  # answered (no finding of the current text to describe)
    replace_text(client, uri, BAD, 3)
    assert len(await wait_for_publish(client, uri, 3)) == 1


async def test_close_clears_diagnostics(client, uri):
    open_document(client, uri, BAD)
    await wait_for_publish(client, uri, 1)
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    assert list(await wait_for_publish(client, uri, None)) == []


SLOW_MODULE = "import jax\nimport jax.numpy as jnp\n\n" + "".join(
    f"@jax.jit\ndef step_{i}(x, key):\n    y = x * 2.0 + jnp.sin(x)\n    for j in range(3):\n"
    f"        y = y + jax.random.normal(key, y.shape)\n    return y.sum()\n\n\n" for i in range(700))


async def test_typing_faster_than_the_analysis_still_gets_diagnostics(client, uri):
    """A document whose analysis takes longer than the pause between keys: a newer key abandons the running
    analysis, but not once the changes have waited two analysis times (nor past half an analysis), so
    diagnostics arrive while the user types, not only once they stop."""
    open_document(client, uri, SLOW_MODULE)
    await wait_for_publish(client, uri, 1, timeout=60)
    mark = len(client.published)
    version, during = 1, []
    deadline = time.monotonic() + 60  # however slow the machine: typing goes on until diagnostics arrive
    while not during and time.monotonic() < deadline:  # a key every 100 ms
        version += 1
        replace_text(client, uri, SLOW_MODULE + "#" * version, version)
        await asyncio.sleep(0.1)
        during = [v for u, v, _ in client.published[mark:] if u == uri]
    version += 1  # one more key: the publication came while the user was still typing
    replace_text(client, uri, SLOW_MODULE + "#" * version, version)
    await wait_for_publish(client, uri, version, timeout=60)
    assert during and max(during) < version, during  # published while typing, for a version then current
    assert during == sorted(during)


async def test_a_change_during_an_analysis_abandons_it_and_only_the_newest_version_is_shown(client, uri):
    """Two changes back to back while a slow document is analysed: the analysis of the first is abandoned (or, if
    it finished first, dropped), and only the second is published."""
    open_document(client, uri, SLOW_MODULE)
    await wait_for_publish(client, uri, 1, timeout=60)
    mark = len(client.published)
    replace_text(client, uri, SLOW_MODULE + "# a\n", 2)
    replace_text(client, uri, SLOW_MODULE + "# ab\n", 3)
    await wait_for_publish(client, uri, 3, timeout=60)
    await quiescent(client)
    assert [v for u, v, _ in client.published[mark:] if u == uri] == [3]


async def test_a_malformed_trace_directive_is_a_squiggle_at_its_line(client, uri):
    """Issue 23: a `# sharpbits: trace(...)` the tracer cannot read was silent until a trace failed."""
    open_document(client, uri, "import jax\n\n# sharpbits: trace(x=f32[8)\n@jax.jit\ndef f(x):\n    return x\n")
    (diag,) = await wait_for_publish(client, uri, 1)
    assert diag.code == "SB002" and diag.range.start == types.Position(2, 0)
    assert diag.message.startswith("this trace directive cannot be read: cannot parse the argument spec")
