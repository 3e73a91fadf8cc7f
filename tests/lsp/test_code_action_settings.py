"""sharpbits.codeActions.* and sharpbits.docsUrl: read (typed, validated) and obeyed by a server started with
non-default values: no unsafe fixes shown, no noqa action, fix-all with the unsafe fixes, links to a docs site."""

from lsprotocol import types

from .conftest import open_document, server_fixture, wait_for_publish
from .test_code_actions import KEYS, apply, quick_fixes

client = server_fixture({
    "codeActions": {"showUnsafeFixes": False, "disableForThisLine": False, "fixAllIncludesUnsafe": True},
    "docsUrl": "https://docs.example.org/sharpbits/{code}.html",
})


async def test_settings_choose_what_is_offered_and_what_fix_all_applies(client, uri):
    open_document(client, uri, KEYS)
    diagnostics = await wait_for_publish(client, uri, 1)
    (reuse,) = [d for d in diagnostics if d.code == "SB201"]
    assert reuse.code_description.href == "https://docs.example.org/sharpbits/SB201.html"
    actions = await quick_fixes(client, uri, reuse)  # the unsafe split is not shown; no noqa action
    assert [a.title for a in actions] == ["Fix all sharpbits problems (unsafe fixes too)"]
    fixed = apply(KEYS, (await client.code_action_resolve_async(actions[0])).edit)
    assert "key, subkey = jax.random.split(key)" in fixed
    assert "y = y.at[0].set(1.0)" in fixed
    hover = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri),
                                                                     reuse.range.start))
    assert "not offered: `sharpbits.codeActions.showUnsafeFixes` is off" in hover.contents.value
    assert "(https://docs.example.org/sharpbits/SB201.html)" in hover.contents.value


def test_the_settings_are_typed_and_a_wrong_value_is_named():
    from sharpbits.lsp.settings import CodeActionSettings, EditorSettings, read_settings

    assert EditorSettings().code_actions == CodeActionSettings(False, True, True) and EditorSettings().docs_url is None
    settings, messages = read_settings({"codeActions": {"showUnsafeFixes": "no", "fixAllIncludesUnsafe": True},
                                        "docsUrl": "javascript:alert(1)"}, EditorSettings())
    assert settings.code_actions == CodeActionSettings(fix_all_includes_unsafe=True, show_unsafe_fixes=True)
    assert settings.docs_url is None
    assert messages == [
        'ignored sharpbits.codeActions.showUnsafeFixes = "no": expected true or false',
        'ignored sharpbits.docsUrl = "javascript:alert(1)": expected an http(s):// or file:// URL; links go to the '
        "installed version's rule pages",
    ]


def test_docs_url_without_placeholders_gets_the_page_name():
    from sharpbits.findings import Finding
    from sharpbits.lsp.finding_diagnostic import docs_link
    from sharpbits.lsp.settings import editor_settings

    f = Finding("a.py", 1, 1, 1, 2, "SB201", "prng-key-reuse", "warning", "m", "")
    assert docs_link(f, editor_settings({"docsUrl": "https://example.org/rules/"})) == \
        "https://example.org/rules/prng-key-reuse.md"
    assert docs_link(f, editor_settings({"docsUrl": "https://example.org/r/{name}"})) == \
        "https://example.org/r/prng-key-reuse"


def test_package_json_declares_what_the_server_reads_and_the_extension_sends():
    import json
    from pathlib import Path

    from sharpbits.lsp.settings import CodeActionSettings

    repo = Path(__file__).resolve().parents[2]
    props = json.loads((repo / "package.json").read_text(encoding="utf-8"))["contributes"]["configuration"]["properties"]
    sent = (repo / "extension" / "src" / "tracing" / "serverSettings.ts").read_text(encoding="utf-8")
    defaults = CodeActionSettings()
    for key, default in (("fixAllIncludesUnsafe", defaults.fix_all_includes_unsafe),
                         ("showUnsafeFixes", defaults.show_unsafe_fixes),
                         ("disableForThisLine", defaults.disable_for_this_line)):
        assert props[f"sharpbits.codeActions.{key}"]["default"] is default
        assert f'{key}: get<boolean>("codeActions.{key}", {str(default).lower()})' in sent
    assert props["sharpbits.docsUrl"]["default"] == "" and 'docsUrl: get<string>("docsUrl", "")' in sent
