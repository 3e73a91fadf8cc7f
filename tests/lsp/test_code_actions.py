"""Quick fixes (resolved lazily) in Ruff's conventions, the noqa action, fix-all (safe fixes only), over stdio."""

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
    action, noqa, fix_all = await quick_fixes(client, uri, first)
    assert action.kind == noqa.kind == fix_all.kind == types.CodeActionKind.QuickFix
    assert action.title == "sharpbits (SB101): Use `y = y.at[0].set(...)`"  # a local: the safe fix
    assert action.is_preferred is True
    assert noqa.title == "sharpbits (SB101): Disable for this line" and not noqa.is_preferred
    assert fix_all.title == "Fix all safe sharpbits problems" and not fix_all.is_preferred
    assert action.edit is None  # computed lazily, in codeAction/resolve
    resolved = await client.code_action_resolve_async(action)
    fixed = apply(BAD, resolved.edit)
    assert "    y = y.at[0].set(1.0)  # keep me\n" in fixed
    assert resolved.edit.document_changes[0].text_document.version == 1
    action2 = (await quick_fixes(client, uri, second))[0]
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
    assert action.title == "Fix all safe sharpbits problems"
    # the source action is not in the lightbulb away from a finding (it is in Ctrl+. on one: see above)
    lightbulb = await quick_fixes(client, uri, None)
    assert not lightbulb or all(a.kind == types.CodeActionKind.QuickFix for a in lightbulb)


LOOP = (
    "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef total(x):\n    acc = jnp.zeros(())\n"
    "    for i in range(x.shape[0]):  # sum\n        acc = acc + x[i]\n    return acc\n"
)


async def test_loop_quick_fix_and_refactor(client, uri):
    open_document(client, uri, LOOP)
    (diag,) = await wait_for_publish(client, uri, 1)
    assert diag.code == "SB301"
    actions = await quick_fixes(client, uri, diag)
    rewrite = "sharpbits (SB301): Rewrite as `lax.fori_loop` (unsafe)"
    # on the finding the rewrite is listed once, as an unsafe quick fix that is not preferred
    assert [a.title for a in actions].count(rewrite) == 1
    (fix,) = [a for a in actions if a.title == rewrite]
    assert fix.kind == types.CodeActionKind.QuickFix and not fix.is_preferred
    # elsewhere on its lines (the comment after the loop's header) it is a refactoring
    comment = types.Diagnostic(range=types.Range(types.Position(6, 35), types.Position(6, 35)), message="")
    (refactor,) = await quick_fixes(client, uri, comment)
    assert (refactor.kind, refactor.title) == (types.CodeActionKind.RefactorRewrite, rewrite)
    resolved = await client.code_action_resolve_async(refactor)
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
    rewrite = next(a for a in actions if "lax.fori_loop" in a.title)
    resolved = await client.code_action_resolve_async(rewrite)
    assert resolved.edit is not None
    fixed = apply(MIXED_TABS_LOOP, resolved.edit)
    ast.parse(fixed)
    assert "    def loop_body(i, acc):  # sum\n\t    acc = acc + x[i]\n\t    return acc\n" in fixed


KEYS = (
    "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    y = jnp.sin(x)\n    y[0] = 1.0\n    return y\n\n"
    "key = jax.random.key(0)\na = jax.random.normal(key, (3,))\nb = jax.random.normal(key, (3,))\n"
)


async def test_unsafe_fix_is_titled_unsafe_and_not_preferred(client, uri):
    open_document(client, uri, KEYS)
    diagnostics = await wait_for_publish(client, uri, 1)
    (reuse,) = [d for d in diagnostics if d.code == "SB201"]
    actions = await quick_fixes(client, uri, reuse)
    assert [(a.title, bool(a.is_preferred)) for a in actions] == [
        ("sharpbits (SB201): Split `key` before its first use (unsafe)", False),
        ("sharpbits (SB201): Disable for this line", False),
        ("Fix all safe sharpbits problems", False),
    ]


async def test_fix_all_applies_only_the_safe_fixes(client, uri):
    open_document(client, uri, KEYS)
    await wait_for_publish(client, uri, 1)
    for only in (["source.fixAll"], None):  # the source action, and the same action in Ctrl+. on a finding
        at = None if only else types.Diagnostic(range=types.Range(types.Position(6, 4), types.Position(6, 8)),
                                                message="")
        actions = await quick_fixes(client, uri, at, only=only)
        (action,) = [a for a in actions if a.title == "Fix all safe sharpbits problems"]
        fixed = apply(KEYS, (await client.code_action_resolve_async(action)).edit)
        assert "    y = y.at[0].set(1.0)\n" in fixed  # the safe one
        assert "split" not in fixed  # not the unsafe key split
        ast.parse(fixed)


async def test_noqa_action_adds_the_code_and_silences_the_finding(client, uri):
    text = KEYS.replace("    y[0] = 1.0\n", "    y[0] = 1.0  # keep me   \n").replace(
        "b = jax.random.normal(key, (3,))\n", "b = jax.random.normal(key, (3,))  # noqa: E501\n")
    open_document(client, uri, text)
    diagnostics = await wait_for_publish(client, uri, 1)
    fixed = text
    for code in ("SB101", "SB201"):
        (diagnostic,) = [d for d in diagnostics if d.code == code]
        (noqa,) = [a for a in await quick_fixes(client, uri, diagnostic) if "Disable" in a.title]
        assert noqa.title == f"sharpbits ({code}): Disable for this line"
        edit = (await client.code_action_resolve_async(noqa)).edit
        assert edit.document_changes[0].text_document.version == 1
        fixed = apply(fixed, edit)
    assert "    y[0] = 1.0  # keep me  # noqa: SB101\n" in fixed  # trailing blanks replaced
    assert "b = jax.random.normal(key, (3,))  # noqa: E501, SB201\n" in fixed  # added to the comment there
    from sharpbits.analysis.engine import analyze

    assert analyze(fixed, "f.py").findings == []  # both silenced, and neither code reported unused


async def test_noqa_action_goes_after_a_multiline_string(client, uri):
    text = 'import jax\n@jax.jit\ndef f(x):\n    x[0] = len("""a\nb""")\n    return x\n'
    open_document(client, uri, text)
    (diagnostic,) = await wait_for_publish(client, uri, 1)
    (noqa,) = [a for a in await quick_fixes(client, uri, diagnostic) if "Disable" in a.title]
    fixed = apply(text, (await client.code_action_resolve_async(noqa)).edit)
    assert 'b""")  # noqa: SB101\n' in fixed
    from sharpbits.analysis.engine import analyze

    assert analyze(fixed, "f.py").findings == []


async def test_unknown_noqa_code_is_a_finding_with_a_fix(client, uri):
    text = KEYS.replace("b = jax.random.normal(key, (3,))\n", "b = jax.random.normal(key, (3,))  # noqa: SB2O1\n")
    open_document(client, uri, text)
    diagnostics = await wait_for_publish(client, uri, 1)
    (typo,) = [d for d in diagnostics if d.code == "SB001"]
    assert typo.message == "`SB2O1` is not a sharpbits code (did you mean `SB201`?)"
    assert typo.range == types.Range(types.Position(11, 42), types.Position(11, 47))
    assert typo.code_description.href.endswith("/unused-noqa.md")
    assert any(d.code == "SB201" for d in diagnostics)  # the typo suppressed nothing
    (fix,) = [a for a in await quick_fixes(client, uri, typo) if a.title.startswith("sharpbits (SB001): Remove")]
    assert fix.title == "sharpbits (SB001): Remove `SB2O1`" and fix.is_preferred
    fixed = apply(text, (await client.code_action_resolve_async(fix)).edit)
    assert "b = jax.random.normal(key, (3,))\n" in fixed
