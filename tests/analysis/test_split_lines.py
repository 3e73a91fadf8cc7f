"""`split_lines` splits where the tokenizer does (\\n, \\r\\n, \\r), whichever of its two paths a text takes."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from sharpbits.source import split_lines

TOKENIZER_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
PIECES = ["a", "é", " ", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "x = 1"]


@settings(max_examples=400, derandomize=True)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_split_lines_is_the_tokenizers_split(pieces: list[str]) -> None:
    text = "".join(pieces)
    lines = split_lines(text)
    assert lines == TOKENIZER_LINES.findall(text)
    assert "".join(lines) == text


def test_form_feeds_and_unicode_breaks_stay_inside_a_line() -> None:
    assert split_lines("a\x0cb\u2028c\nd") == ["a\x0cb\u2028c\n", "d"]
    assert split_lines("a\nb\n") == ["a\n", "b\n"]
    assert split_lines("") == []
