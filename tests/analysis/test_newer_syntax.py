"""Python syntax newer than the interpreter's is read (analysis/parsing.py): a file in 3.12-3.14 syntax gets its
findings where the newer Python puts them, not a syntax error with nothing else checked; a text no Python reads
still gets the interpreter's syntax error."""

from __future__ import annotations

import subprocess
import sys

import pytest
from sharpbits.analysis.engine import analyze
from sharpbits.analysis.incremental import IncrementalAnalysis
from sharpbits.analysis.parsing import downlevel, parse_module

from tests.conftest import ROOT

KEY_REUSE = "    a = jax.random.normal(key, (3,))\n    b = jax.random.uniform(key, (3,))\n    return a + b\n"

CASES = {
    # PEP 695 (3.12): a type alias, generic functions and classes, type parameter lists over several lines
    "type statement": "import jax\ntype Key = jax.Array\ntype Pair[T] = tuple[T, T]\ndef draw(key: Key):\n" + KEY_REUSE,
    "generic function": "import jax\ndef draw[T: (int, float)](key, dtype: type[T]):\n" + KEY_REUSE,
    "generic class": "import jax\nclass Sampler[T = float](object):\n    def draw[S](self, key):\n"
    + KEY_REUSE.replace("    ", "        "),
    "brackets over lines": "import jax\ndef draw[\n    T,\n    S: int,\n](key):\n" + KEY_REUSE,
    # PEP 701 (3.12): an f-string reusing its quotes inside a replacement field
    "nested quotes": 'import jax\ndef draw(key, d):\n    print(f"{d["name"]}: {", ".join(d["tags"])}")\n' + KEY_REUSE,
    # PEP 701 (3.12): an escape in a string inside a replacement field (read as two spaces)
    "escape in a field": "import jax\ndef draw(key, lines):\n    print(f'{\"\\n\".join(lines)}')\n" + KEY_REUSE,
    # PEP 701 (3.12): a replacement field over lines in a single-quoted f-string (jax-jynx's containers.py)
    "field over lines": 'import jax\ndef draw(key, f):\n    note = (f"Required: {\n        f.name} not given")\n'
    + KEY_REUSE,
    # PEP 750 (3.14): a template string
    "template string": 'import jax\ndef draw(key, name):\n    note = t"drawing {name}"\n' + KEY_REUSE,
    # PEP 758 (3.14): several exception types without parentheses
    "except without parentheses": "import jax\ndef draw(key):\n    try:\n        pass\n"
    "    except ValueError, TypeError:\n        pass\n" + KEY_REUSE,
    # PEP 654 (3.11, newer than a 3.10 interpreter)
    "except star": "import jax\ndef draw(key):\n    try:\n        pass\n    except* ValueError:\n        pass\n" + KEY_REUSE,
}


def _line_of_second_draw(text: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if "uniform(key" in line)


@pytest.mark.parametrize("name", sorted(CASES))
def test_newer_syntax_is_read_and_its_findings_land_in_place(name):
    text = CASES[name]
    result = analyze(text, "new.py")
    assert result.syntax_error is None, result.syntax_error
    reuse = [f for f in result.findings if f.rule == "prng-key-reuse"]
    line = _line_of_second_draw(text)
    column = text.splitlines()[line - 1].index("key") + 1  # the key the second draw reads (1-based)
    assert [(f.line, f.column) for f in reuse] == [(line, column)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_rewrite_keeps_every_line_and_column(name):
    text = CASES[name]
    rewritten = downlevel(text)
    assert rewritten is not None
    assert [len(line) for line in rewritten.splitlines()] == [len(line) for line in text.splitlines()]
    parse_module(text)  # and it parses here, whatever this interpreter is


def test_type_as_a_name_stays_a_name():
    text = "x = type(3)\ntype = 5\nprint(type)\n"
    assert downlevel(text) == text


@pytest.mark.parametrize("text", [
    "def f(:\n    pass\n",  # no Python reads it
    "type X = \n",
    "def f[T(x):\n    pass\n",
    "try:\n    pass\nexcept ValueError, TypeError as e:\n    pass\n",  # 3.14 wants the parentheses with `as`
])
def test_what_no_python_reads_is_still_a_syntax_error(text):
    result = analyze(text, "bad.py")
    assert result.syntax_error is not None and result.findings == []
    with pytest.raises(SyntaxError):
        parse_module(text)


def test_typing_inside_a_generic_function_gets_what_a_fresh_analysis_gets():
    document = IncrementalAnalysis("m.py")
    text = CASES["brackets over lines"] + "\n\ndef later[T](key):\n    return jax.random.normal(key)\n"
    for version in (text, text.replace("(3,))\n    return", "(4,))\n    return"), text + "x = 1\n"):
        got, fresh = document.update(version), analyze(version, "m.py")
        assert [f.to_json(with_fix=False) for f in got.findings] == [f.to_json(with_fix=False) for f in fresh.findings]
        assert got.syntax_error is None


def test_the_cli_checks_a_file_in_newer_syntax(tmp_path):
    (tmp_path / "new.py").write_text(CASES["generic function"], encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "sharpbits", "check", "--no-cache", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert "SB201" in proc.stdout and "SB000" not in proc.stdout, proc.stdout + proc.stderr


def test_a_field_over_lines_with_no_text_to_spare_still_parses_on_every_line():
    """`f"{\\n x}"`: no character of the string's text to drop for the added quotes, so its columns shift on the
    string's two end lines; every line stays where it is and the file is checked."""
    text = "import jax\ndef draw(key, x):\n    s = f'{\n        x}'\n" + KEY_REUSE
    rewritten = downlevel(text)
    assert rewritten is not None and len(rewritten.splitlines()) == len(text.splitlines())
    result = analyze(text, "new.py")
    assert result.syntax_error is None
    assert [f.line for f in result.findings if f.rule == "prng-key-reuse"] == [_line_of_second_draw(text)]


# Each statement the token pass of `downlevel` rewrites, in the spellings the tokenizer still reads as one (a
# backslash joining lines, a `;`, a form feed, a number run into the keyword): the regular expression in front of
# that pass must let every one through, or a file in newer syntax would be reported as a syntax error.
TOKEN_PASS_STATEMENTS = [
    "except* E:", "except *E:", "except\\\n* E:", "x = 9except* E", "except A, B:", "except A, \\\n B:",
    "except A \\\n, B:", "except (A), B:", "except (A, B), C:", "x = 1; except A, B:", "\fexcept A, B:",
    "def f[T](x): pass", "def \\\n f[T](x): pass", "class C [T]: pass", "class C\\\n[T]: pass",
    "type X = int", "type X[T] = list[T]", "x = 1; type X = int", "type \\\n X = int", "\ftype X = int",
    "pass\r\ntype X = int", "pass\rtype X = int",
]


@pytest.mark.parametrize("statement", TOKEN_PASS_STATEMENTS)
def test_every_statement_the_token_pass_rewrites_is_let_through(statement):
    from sharpbits.analysis.parsing import _MAY_NEED_TOKENS
    assert _MAY_NEED_TOKENS.search("import jax\n" + statement + "\n") is not None


def test_a_text_being_typed_is_not_tokenized(monkeypatch):
    """The usual reason a parse fails in the editor is an unfinished line (`y = foo(bar`); nothing in such a text
    is newer syntax, and tokenizing a big file took ten parses' time on each of those keystrokes. What is read
    stays the same: still the interpreter's syntax error."""
    import tokenize

    def no_tokens(*args, **kwargs):
        raise AssertionError("tokenized")

    monkeypatch.setattr(tokenize, "generate_tokens", no_tokens)
    text = ("import jax\ndef f(key, d):\n    try:\n        pass\n    except (ValueError, TypeError) as e:\n"
            "        raise\n    print(f\"{d['k']}\", type(d))\n    y = foo(bar\n")
    assert downlevel(text) == text
    with pytest.raises(SyntaxError):
        parse_module(text)
    assert analyze(text, "typing.py").syntax_error is not None
    # a template string is still read (the string pass needs no tokens)
    assert parse_module(text.replace("    y = foo(bar\n", "    z = t\"{d}\"\n")) is not None
