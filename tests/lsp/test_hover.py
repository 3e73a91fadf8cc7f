"""The hover on a finding, over stdio: short (the rule, why in one line, the fix and its safety, a link to the
rule page), with no heading, no `[rule]` suffix and not the diagnostic's message again."""

from pathlib import Path
from urllib.parse import urlparse

from lsprotocol import types
from sharpbits.analysis.rules import lookup

from .conftest import open_document, wait_for_publish
from .test_code_actions import BAD, KEYS


async def hover_at(client, uri, position):
    return await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), position))


async def test_hover_is_short_and_links_the_shipped_rule_page(client, uri):
    open_document(client, uri, BAD)
    diagnostics = await wait_for_publish(client, uri, 1)
    hover = await hover_at(client, uri, diagnostics[0].range.start)
    text = hover.contents.value
    assert hover.contents.kind == types.MarkupKind.Markdown and hover.range == diagnostics[0].range
    paragraphs = text.split("\n\n")
    assert paragraphs[0] == "**sharpbits SB101** · `in-place-update`"
    assert paragraphs[1] == ("JAX arrays are immutable. Assigning into one, as NumPy code does, raises `TypeError: JAX "
                             "arrays are immutable and do not support in-place item assignment` — eagerly and under "
                             "`jit`.")  # why, in one line: the first sentences of the rule's "why"
    assert paragraphs[2] == "**Fix** (safe): Use `y = y.at[0].set(...)` — in the quick fixes (Ctrl+.)"
    assert paragraphs[3].startswith("[SB101 in-place-update: rule page](file://")
    assert len(paragraphs) == 4 and "\n#" not in f"\n{text}" and "[in-place-update]" not in text
    assert diagnostics[0].message not in text  # the editor shows the diagnostic right above
    # the link is the page of the installed version, the same text `python -m sharpbits.docs` publishes
    link = paragraphs[3].split("](", 1)[1].rstrip(")")
    assert link == diagnostics[0].code_description.href
    assert Path(urlparse(link).path).read_text(encoding="utf-8") == lookup("SB101").documentation()
    assert await hover_at(client, uri, types.Position(0, 0)) is None


async def test_hover_says_an_unsafe_fix_is_unsafe(client, uri):
    open_document(client, uri, KEYS)
    diagnostics = await wait_for_publish(client, uri, 1)
    (reuse,) = [d for d in diagnostics if d.code == "SB201"]
    text = (await hover_at(client, uri, reuse.range.start)).contents.value
    assert "**Fix** (unsafe: it may change the numbers or a signature, review it): Split `key` before its first use" \
        in text


async def test_hover_on_a_finding_without_a_fix(client, uri):
    text = "import jax\n\n@jax.jit\ndef f(x):\n    print(x, end='')\n    return x\n"
    open_document(client, uri, text)
    (diagnostic,) = await wait_for_publish(client, uri, 1)
    hover = (await hover_at(client, uri, diagnostic.range.start)).contents.value
    assert "**Fix:** by hand (no automatic fix here); the rule page shows what to use instead" in hover
