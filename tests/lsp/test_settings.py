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


# ---- the typed settings, read in one place (sharpbits.lsp.settings) ----------------------------------------------

def test_a_value_of_the_wrong_type_is_named_and_the_previous_value_stays():
    from sharpbits.lsp.settings import EditorSettings, read_settings

    previous, _ = read_settings({"debounceMs": 40, "select": ["SB101"]}, EditorSettings())
    settings, messages = read_settings({"debounceMs": "fast", "maxFileSizeKB": -3, "select": 5,
                                        "trace": {"enabled": True, "autoRetrace": "yes", "timeout": 0}}, previous)
    assert settings.debounce_s == 0.04 and settings.max_file_size_kb == previous.max_file_size_kb
    assert settings.rules.select == frozenset({"in-place-update"})  # the previous rule settings stay
    assert settings.trace.enabled and not settings.trace.auto_retrace and settings.trace.timeout_s == 120
    named = " | ".join(messages)
    for name in ("sharpbits.debounceMs", "sharpbits.maxFileSizeKB", "sharpbits.trace.autoRetrace",
                 "sharpbits.trace.timeout", "`select`"):
        assert name in named, messages
    assert len(messages) == 5


def test_a_push_is_a_snapshot_except_numbers_trust_and_the_lens_command():
    from sharpbits.lsp.settings import EditorSettings, read_settings

    first, _ = read_settings({"debounceMs": 0, "trusted": False, "traceLensCommand": "editor.trace",
                              "ignore": ["SB101"], "trace": {"enabled": True, "interpreter": "/bin/py",
                                                             "inlayHints": {"equations": False}}}, EditorSettings())
    assert first.trace.worker.as_mapping() == {"interpreter": "/bin/py"}
    assert not first.trace.inlay_hints.equations and first.trace.inlay_hints.run_time
    later, messages = read_settings({}, first)
    assert messages == []
    assert later.debounce_s == 0 and later.trusted is False and later.trace_lens_command == "editor.trace"
    assert later.rules.ignore == frozenset() and not later.trace.enabled  # the rest is what the push says


def test_an_untrusted_workspace_keeps_no_program_to_run():
    from sharpbits.lsp.settings import editor_settings
    from sharpbits.lsp.trace_service import TraceWorkers

    workers = TraceWorkers()
    workers.update(False, editor_settings({"trace": {"enabled": True, "interpreter": "/evil", "launchPrefix": ["ssh"],
                                                      "cacheDir": "/tmp/x", "platform": "cpu"}}).trace)
    assert workers.settings.worker.as_mapping() == {"platform": "cpu"}
    assert workers.refusal()["type"] == "WorkspaceNotTrusted"
    workers.executor.shutdown()


def test_a_workspace_setting_that_cannot_be_used_is_one_message_and_keeps_its_default(tmp_path, monkeypatch):
    """config.load_config reports each setting it cannot use (file, line, key) and keeps the rest; the server
    says each in one message and goes on with the editor's settings on top."""
    from sharpbits import config
    from sharpbits.lsp import settings

    (tmp_path / "pyproject.toml").write_text('[tool.sharpbits]\nignore = ["SB101"]\nseverity = 3\n')
    rules = config.Config.from_mapping({"select": ["SB101"]})
    merged, messages = settings.workspace_config(str(tmp_path), rules)
    assert len(messages) == 1 and "pyproject.toml" in messages[0] and "severity" in messages[0], messages
    assert merged.select == frozenset({"in-place-update"}) and merged.ignore == frozenset({"in-place-update"})

    def raises(root):  # a shape config.py did not expect: still one message and the defaults, never a crash
        raise AttributeError("'int' object has no attribute 'items'")

    monkeypatch.setattr(settings, "load_config", raises)
    merged, messages = settings.workspace_config(str(tmp_path), rules)
    assert len(messages) == 1 and "cannot be used" in messages[0] and "AttributeError" in messages[0]
    assert merged.select == frozenset({"in-place-update"}) and merged.ignore == frozenset()
