"""Quick fixes (resolved lazily), source.fixAll.sharpbits, and hover docs, over stdio."""

import ast

from lsprotocol import types
from sharpbits.findings import TextEdit, apply_edits

from .conftest import open_document, wait_for_publish

BAD = (
    "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    y = jnp.sin(x)  # é\n"
    "    y[0] = 1.0  # keep me\n    y[1:] += 2\n    return y\n"
)


def apply(text: str, edit: types.WorkspaceEdit) -> str:
    (change,) = edit.document_changes
    return apply_edits(
        text,
        [TextEdit(e.range.start.line + 1, e.range.start.character + 1, e.range.end.line + 1,
                  e.range.end.character + 1, e.new_text) for e in change.edits],
    )


async def quick_fixes(client, uri, diagnostic, only=None):
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=diagnostic.range if diagnostic else types.Range(types.Position(0, 0), types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[diagnostic] if diagnostic else [], only=only),
        )
    )


async def test_quick_fix_rewrites_to_at_set(client, uri):
    open_document(client, uri, BAD)
    first, second = await wait_for_publish(client, uri, 1)
    (action,) = await quick_fixes(client, uri, first)
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.title == "Fix: use `y = y.at[0].set(...)`"
    assert action.edit is None  # computed lazily, in codeAction/resolve
    resolved = await client.code_action_resolve_async(action)
    fixed = apply(BAD, resolved.edit)
    assert "    y = y.at[0].set(1.0)  # keep me\n" in fixed
    assert resolved.edit.document_changes[0].text_document.version == 1
    (action2,) = await quick_fixes(client, uri, second)
    resolved2 = await client.code_action_resolve_async(action2)
    assert "    y = y.at[1:].add(2)\n" in apply(BAD, resolved2.edit)


async def test_fix_all(client, uri):
    open_document(client, uri, BAD)
    await wait_for_publish(client, uri, 1)
    actions = await quick_fixes(client, uri, None, only=["source.fixAll"])
    (action,) = actions
    assert action.kind == "source.fixAll.sharpbits"
    resolved = await client.code_action_resolve_async(action)
    fixed = apply(BAD, resolved.edit)
    assert "y = y.at[0].set(1.0)  # keep me" in fixed and "y = y.at[1:].add(2)" in fixed
    # no fix-all offered in the ordinary lightbulb request
    lightbulb = await quick_fixes(client, uri, None)
    assert not lightbulb or all(a.kind == types.CodeActionKind.QuickFix for a in lightbulb)


async def test_hover_shows_the_rule_docs(client, uri):
    open_document(client, uri, BAD)
    diagnostics = await wait_for_publish(client, uri, 1)
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), diagnostics[0].range.start)
    )
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert "SB101" in hover.contents.value and "## Why is this bad?" in hover.contents.value
    assert hover.range == diagnostics[0].range
    elsewhere = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))
    )
    assert elsewhere is None


LOOP = (
    "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef total(x):\n    acc = jnp.zeros(())\n"
    "    for i in range(x.shape[0]):  # sum\n        acc = acc + x[i]\n    return acc\n"
)


async def test_loop_quick_fix_and_refactor(client, uri):
    open_document(client, uri, LOOP)
    (diag,) = await wait_for_publish(client, uri, 1)
    assert diag.code == "SB301"
    actions = await quick_fixes(client, uri, diag)
    kinds = {a.kind: a for a in actions}
    assert set(kinds) == {types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite}
    assert kinds[types.CodeActionKind.QuickFix].title == "Fix: rewrite as `lax.fori_loop`"
    resolved = await client.code_action_resolve_async(kinds[types.CodeActionKind.RefactorRewrite])
    fixed = apply(LOOP, resolved.edit)
    assert "    def loop_body(i, acc):  # sum\n        acc = acc + x[i]\n        return acc\n" in fixed
    assert "    acc = jax.lax.fori_loop(0, x.shape[0], loop_body, acc)\n" in fixed
    assert "for i in" not in fixed


MIXED_TABS_LOOP = LOOP.replace("        acc = acc + x[i]\n", "\t    acc = acc + x[i]\n")  # tab + 4 spaces


async def test_loop_rewrite_with_mixed_tabs_and_spaces_parses(client, uri):
    """The fuzz finding (issue 10): the rewrite of a body indented tab + 4 spaces under a loop indented 4
    spaces must parse; the editor gets it through the same check as the CLI (Finding.fix)."""
    open_document(client, uri, MIXED_TABS_LOOP)
    (diag,) = await wait_for_publish(client, uri, 1)
    actions = await quick_fixes(client, uri, diag)
    rewrite = next(a for a in actions if a.kind == types.CodeActionKind.RefactorRewrite)
    resolved = await client.code_action_resolve_async(rewrite)
    assert resolved.edit is not None
    fixed = apply(MIXED_TABS_LOOP, resolved.edit)
    ast.parse(fixed)
    assert "    def loop_body(i, acc):  # sum\n\t    acc = acc + x[i]\n\t    return acc\n" in fixed
