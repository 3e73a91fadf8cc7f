"""SB001 unused-noqa from the command line and the engine: misspelled and unused noqa codes, and what is left
alone (other tools' codes, bare noqa, strings, rules that did not run)."""

from sharpbits.analysis.engine import Selection, analyze

CODE = (
    "import jax\n\nkey = jax.random.key(0)\na = jax.random.normal(key, (3,))\n"
    "b = jax.random.normal(key, (3,))  # noqa: SB2O1\nc = 1  # noqa: SB101, E501\nd = 2  # noqa\n"
)


def test_check_reports_a_misspelled_and_an_unused_code_and_fix_removes_them(tmp_path, run_cli):
    (tmp_path / "n.py").write_text(CODE)
    out = run_cli("check", "n.py", "--no-cache", cwd=tmp_path)
    lines = out.stdout.splitlines()
    assert "n.py:5:43: SB001 [unused-noqa] `SB2O1` is not a sharpbits code (did you mean `SB201`?) [*]" in lines
    assert "n.py:6:16: SB001 [unused-noqa] unused `# noqa: SB101`: no in-place-update finding on this line [*]" \
        in lines
    assert any(line.startswith("n.py:5:23: SB201 [prng-key-reuse]") for line in lines)  # the typo hid nothing
    run_cli("check", "n.py", "--no-cache", "--fix", cwd=tmp_path)
    fixed = (tmp_path / "n.py").read_text()
    assert "b = jax.random.normal(key, (3,))\nc = 1  # noqa: E501\nd = 2  # noqa\n" in fixed


def test_codes_of_rules_that_did_not_run_are_not_called_unused():
    result = analyze(CODE, "n.py", Selection(ignore=frozenset({"in-place-update"})))
    assert [(f.line, f.message[:8]) for f in result.findings if f.code == "SB001"] == [(5, "`SB2O1` ")]
    assert all(f.code != "SB001" for f in analyze(CODE, "n.py", Selection(ignore=frozenset({"unused-noqa"}))).findings)


def test_a_used_code_is_not_reported_and_a_multiline_string_takes_its_comment_at_its_end():
    text = 'import jax\n@jax.jit\ndef f(x):\n    x[0] = len("""a\nb""")  # noqa: SB101\n    return x\n'
    assert analyze(text, "m.py").findings == []
    assert [f.code for f in analyze(text.replace("  # noqa: SB101", ""), "m.py").findings] == ["SB101"]
