"""reuse.StatementParts: the parts of statements an edit left in place are taken by position, the rest asked."""

from __future__ import annotations

import ast

from sharpbits.analysis.reuse import StatementParts


def _body(text: str) -> list[ast.stmt]:
    return ast.parse(text).body


def test_parts_of_unchanged_statements_are_taken_and_the_rest_asked() -> None:
    a, b, c, d = _body("a = 1\nb = 2\nc = 3\nd = 4\n")
    asked: list[ast.stmt] = []

    def part(s: ast.stmt) -> object:
        asked.append(s)
        return ("part", id(s))

    parts = StatementParts()
    assert parts.parts("w", [a, b, c], part) == [("part", id(a)), ("part", id(b)), ("part", id(c))]
    asked.clear()
    # b replaced by d: a and c (start and end) taken, d asked
    assert parts.parts("w", [a, d, c], part) == [("part", id(a)), ("part", id(d)), ("part", id(c))]
    assert asked == [d]
    asked.clear()
    # a statement added at the end
    assert parts.parts("w", [a, d, c, b], part) == [("part", id(a)), ("part", id(d)), ("part", id(c)), ("part", id(b))]
    assert asked == [b]
    asked.clear()
    # one dropped at the start: the rest taken from the end
    assert parts.parts("w", [d, c, b], part) == [("part", id(d)), ("part", id(c)), ("part", id(b))]
    assert asked == []
    # statements in another order: asked (only the start and the end are compared)
    assert parts.parts("w", [c, d, b], part) == [("part", id(c)), ("part", id(d)), ("part", id(b))]
    assert asked == [c, d]


def test_parts_are_asked_again_when_what_they_read_differs() -> None:
    a, b = _body("a = 1\nb = 2\n")
    asked: list[ast.stmt] = []

    def part(s: ast.stmt) -> object:
        asked.append(s)
        return id(s)

    parts = StatementParts()
    parts.parts("w", [a, b], part, reads=frozenset({("np", "numpy")}))
    asked.clear()
    parts.parts("w", [a, b], part, reads=frozenset({("np", "numpy")}))
    assert asked == []
    parts.parts("w", [a, b], part, reads=frozenset({("np", "jax.numpy")}))
    assert asked == [a, b]
