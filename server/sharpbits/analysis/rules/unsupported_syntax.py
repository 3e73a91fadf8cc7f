"""SB003 unsupported-syntax: syntax newer than the oldest Python the project supports.

sharpbits reads every syntax from Python 3.8 to 3.14 whatever interpreter runs it (parsing.py), so a file is
never a syntax error merely because it is newer than our interpreter. What is an error is code the project's own
target cannot read: `match` in a project whose `requires-python` admits 3.9 fails to import there, with nothing
in it run. The target is `[tool.sharpbits] target-version`, else the project's `requires-python` (config.py);
when neither is known, nothing is reported.

Each feature is found from the tree and, for syntax the interpreter running us may not have (read through
parsing.py's rewrite, which keeps every position), from the text at the node's position, so the findings are the
same on every interpreter. The rule is function-local: a finding follows from its statement's syntax and the
setting.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import ClassVar

from sharpbits.analysis.parsing import TargetVersion, uses_pep701
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.source import SourceText

_TYPE_ALIAS = getattr(ast, "TypeAlias", None)  # 3.12+
_TEMPLATE_STR = getattr(ast, "TemplateStr", None)  # 3.14+
_EXCEPT_STAR = re.compile(r"except\s*\*")
_WITH_PAREN = re.compile(r"(?:async\s+)?with\s*\(")
_PAREN_CLOSES = re.compile(r"(?:[\s,\\]|#[^\n]*)*\)")


class _End:
    """An end position for a finding's range (`RuleContext.report`'s `end_node` reads only these two)."""

    def __init__(self, end_lineno: int, end_col_offset: int) -> None:
        self.end_lineno, self.end_col_offset = end_lineno, end_col_offset


class UnsupportedSyntax(Rule):
    code = "SB003"
    name = "unsupported-syntax"
    severity = "error"
    reuse = "function"
    example_target = TargetVersion(3, 9, 'requires-python = ">=3.9"')
    messages: ClassVar[dict[str, str]] = {
        "newer": "{feature} needs Python {needed}, but this project supports Python {target} ({source}), "
                 "which cannot parse this file",
    }
    summary = ("Syntax newer than the oldest Python the project supports (its `requires-python`, or "
               "`target-version` in `[tool.sharpbits]`): the file does not import there.")
    why = """
A file that uses syntax its Python does not have fails as a whole: `import` raises `SyntaxError` and none of it
runs, so a project that says it supports Python 3.9 (`requires-python = ">=3.9"`) breaks there as soon as one
module uses `match` (3.10), `except*` (3.11), `type X = ...` or `def f[T]` (3.12), a type parameter default (3.13),
an f-string that reuses its quotes inside a replacement field or holds a backslash or comment there (3.12), or a
t-string (3.14). Tests run on a newer interpreter do not show it.

sharpbits itself reads every syntax from 3.8 to 3.14 on any interpreter, so the rest of the file is still checked.
The target is `target-version = "3.9"` in `[tool.sharpbits]` when set, else the lower bound of the nearest
pyproject.toml's `requires-python` (or Poetry's `python` dependency); with neither, or a bound that names no minor
version (`>=3`), nothing is reported. Features found: `:=` and positional-only parameters (3.8), parenthesized
context managers and decorators that are any expression (3.9), `match` (3.10), `except*`, `*` in an index and
`*args: *Ts` (3.11), type aliases, type parameter lists and the f-strings of PEP 701 (3.12), type parameter
defaults (3.13), t-strings and `except A, B:` without parentheses (3.14).
"""
    example = """
# pyproject.toml: requires-python = ">=3.9"
def describe(command):
    match command:
        case "go":
            return 1
        case _:
            return 0
"""
    use_instead = """
# pyproject.toml: requires-python = ">=3.10" (or keep 3.9 and write the `if` chain)
def describe(command):
    if command == "go":
        return 1
    return 0
"""
    fix_safety = """
No fix is offered: whether to raise `requires-python` or write the code for the older Python is the project's
choice. The examples here are checked with `requires-python = ">=3.9"`.
"""
    VALID: ClassVar[list[str]] = [
        "def f(x):\n    return [y for y in x if y]\n",
        "with open('a') as a, open('b') as b:\n    pass\n",
        "with (open('a')) as a:\n    pass\n",
        "@property\ndef f(self):\n    return 1\n",
        "@a.b(c)\ndef f():\n    pass\n",
        "x = f'{a!r:>10} {b[\"k\"]}'\n",
        "x = f\"\"\"{d[\"k\"]}\"\"\"\n",
        "type = 3\nprint(type)\n",
        "try:\n    pass\nexcept (A, B):\n    pass\n",
        "if (n := 3) > 2:\n    pass\n",  # 3.8 <= 3.9
    ]
    INVALID: ClassVar[list[Invalid]] = [
        Invalid("match x:\n    case 1:\n        pass\n"),
        Invalid("try:\n    pass\nexcept* ValueError:\n    pass\n"),
        Invalid("type Vector = list[float]\n"),
        Invalid("def first[T](xs: list[T]) -> T:\n    return xs[0]\n"),
        Invalid("class Box[T]:\n    pass\n"),
        Invalid("x = f\"{d[\"k\"]}\"\n"),
        Invalid(r"""x = f'{"\n".join(lines)}'""" + "\n"),
        Invalid("def f(*args: *Ts):\n    pass\n"),
        Invalid("x = a[*idx]\n"),
        Invalid("t = t'{name}'\n"),
    ]

    def check(self, ctx: RuleContext) -> Iterator[None] | None:
        target = ctx.target
        if target is None or target.version >= (3, 14):
            return None
        for node, end, feature, needed in _features(ctx):
            if needed > target.version:
                ctx.report(node, self.message("newer", feature=feature, needed=f"{needed[0]}.{needed[1]}",
                                              target=str(target), source=target.source or "its target"),
                           end_node=end, even_unreached=True)  # type: ignore[arg-type]
        return None


def _features(ctx: RuleContext) -> Iterator[tuple[ast.AST, object, str, tuple[int, int]]]:
    """(node, end of the range or None, what the feature is, the Python that brought it) for each use of syntax
    newer than 3.7 in the statements the rule looks at."""
    scopes, source = ctx.model.scopes, ctx.source
    for node in scopes.nodes(ast.NamedExpr):
        yield node, None, "an assignment expression (`:=`)", (3, 8)
    for arguments in scopes.nodes(ast.arguments):
        if arguments.posonlyargs:  # type: ignore[attr-defined]
            first = arguments.posonlyargs[0]  # type: ignore[attr-defined]
            yield first, None, "a positional-only parameter (`/`)", (3, 8)
        vararg = arguments.vararg  # type: ignore[attr-defined]
        if vararg is not None and isinstance(vararg.annotation, ast.Starred):
            yield vararg, None, "a starred annotation (`*args: *Ts`)", (3, 11)
    for definition in scopes.nodes(ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        for decorator in definition.decorator_list:  # type: ignore[attr-defined]
            if not _dotted_or_call(decorator):
                yield decorator, None, "a decorator that is not a name, attribute or call", (3, 9)
        found = _type_parameters(source, definition)
        if found is not None:
            yield definition, _End(definition.lineno, found[0]), found[1], found[2]  # type: ignore[attr-defined]
    for statement in scopes.nodes(ast.With, ast.AsyncWith):
        if _parenthesized_items(source, statement):  # type: ignore[arg-type]
            line = statement.lineno  # type: ignore[attr-defined]
            yield statement, _End(line, _line_end(source, line)), "parenthesized context managers", (3, 9)
    for statement in scopes.nodes(ast.Match) if hasattr(ast, "Match") else ():
        yield statement, statement.subject, "a `match` statement", (3, 10)  # type: ignore[attr-defined]
    for node in scopes.nodes(ast.ExceptHandler):
        handler: ast.ExceptHandler = node  # type: ignore[assignment]
        line = source.line_text(handler.lineno)
        column = source.char_column(handler.lineno, handler.col_offset)
        end = handler.type or handler
        if _EXCEPT_STAR.match(line, column):
            yield handler, end, "`except*`", (3, 11)
        if handler.type is not None and _unparenthesized_types(source, handler):
            yield handler, end, "`except` of several types without parentheses", (3, 14)
    for subscript in scopes.nodes(ast.Subscript):
        index = subscript.slice  # type: ignore[attr-defined]
        if isinstance(index, ast.Starred) or (isinstance(index, ast.Tuple) and any(
                isinstance(e, ast.Starred) for e in index.elts)):
            yield subscript, None, "a starred expression in an index (`a[*b]`)", (3, 11)
    for statement in scopes.nodes(ast.Assign, *((_TYPE_ALIAS,) if _TYPE_ALIAS else ())):
        after_name = _type_alias(source, statement)
        if after_name is not None:
            yield statement, None, "a `type` alias statement", (3, 12)
            line = statement.lineno  # type: ignore[attr-defined]
            if source.line_text(line).startswith("[", after_name) and _holds_default(source, line, after_name + 1):
                yield statement, None, "a type parameter default", (3, 13)
    if _TEMPLATE_STR is not None:
        for template in scopes.nodes(_TEMPLATE_STR):
            yield template, None, "a template string (`t\"...\"`)", (3, 14)
    for joined in scopes.nodes(ast.JoinedStr):
        if isinstance(scopes.parents.get(joined), ast.FormattedValue):
            continue  # inside another f-string: that one's text is read whole
        text = source.node_text(joined)
        if _prefix(text) and "t" in _prefix(text).lower():
            yield joined, None, "a template string (`t\"...\"`)", (3, 14)
        elif uses_pep701(text):
            yield joined, None, ("an f-string whose replacement field reuses its quotes or holds a backslash, a "
                                 "comment or a line break"), (3, 12)


def _dotted_or_call(node: ast.AST) -> bool:
    """What a decorator could be before 3.9 (PEP 614): a dotted name, optionally called."""
    if isinstance(node, ast.Call):
        node = node.func
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _line_end(source: SourceText, line: int) -> int:
    return len(source.line_text(line).encode("utf-8"))


def _unparenthesized_types(source: SourceText, handler: ast.ExceptHandler) -> bool:
    """`except A, B:` (3.14, PEP 758): the types after `except` (or `except*`) hold a comma outside brackets. (On an
    older interpreter parsing.py reads the commas as `|`, so the tree cannot tell; the text can.)"""
    kind = handler.type
    assert kind is not None
    start = source.char_column(handler.lineno, handler.col_offset) + len("except")
    end_line = kind.end_lineno or kind.lineno
    text = source.segment(handler.lineno, start, end_line, source.char_column(end_line, kind.end_col_offset or 0))
    text = text.lstrip()
    if text.startswith("*"):
        text = text[1:]
    depth = 0
    for c in text:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            return True
        elif c in "'\"#":
            return False  # a string or comment among the types: not read here (no such type list is seen in practice)
    return False


def _parenthesized_items(source: SourceText, statement: ast.With) -> bool:
    """`with (a as x, b as y):` (3.9): a parenthesis right after `with` that closes after the last item, with an
    `as` inside it. (`with (a) as x:` and `with (a, b):` read on 3.8 too.)"""
    if not any(item.optional_vars is not None for item in statement.items):
        return False
    column = source.char_column(statement.lineno, statement.col_offset)
    if _WITH_PAREN.match(source.line_text(statement.lineno), column) is None:
        return False
    last = statement.items[-1]
    end = last.optional_vars if last.optional_vars is not None else last.context_expr
    end_line = end.end_lineno or end.lineno
    end_column = source.char_column(end_line, end.end_col_offset or 0)
    after = source.segment(end_line, end_column, min(end_line + 20, len(source.lines)),
                           len(source.line_text(min(end_line + 20, len(source.lines)))))
    return _PAREN_CLOSES.match(after) is not None


def _type_parameters(source: SourceText, definition: ast.AST) -> tuple[int, str, tuple[int, int]] | None:
    """(end column of the `def`/`class` header's first line in bytes, the feature, its version) when the
    definition has a type parameter list: 3.12, or 3.13 when a parameter has a default."""
    line = definition.lineno  # type: ignore[attr-defined]
    text = source.line_text(line)
    if "[" not in text:
        return None
    column = source.char_column(line, definition.col_offset)  # type: ignore[attr-defined]
    keyword = "class" if isinstance(definition, ast.ClassDef) else "def"
    opening = _after_keyword_and_name(text, column, keyword, definition.name)  # type: ignore[attr-defined]
    if opening is None or not text.startswith("[", opening):
        return None
    end = _line_end(source, line)
    if _holds_default(source, line, opening + 1):
        return end, "a type parameter default", (3, 13)
    return end, "a type parameter list", (3, 12)


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\f":
        i += 1
    return i


def _after_keyword_and_name(text: str, column: int, keyword: str, name: str) -> int | None:
    """The index after `[async] KEYWORD NAME` and the spaces after it, when the text at `column` reads so."""
    i = column
    if keyword == "def" and text.startswith("async", i):
        i = _skip_space(text, i + len("async"))
    if not text.startswith(keyword, i):
        return None
    j = _skip_space(text, i + len(keyword))
    if j == i + len(keyword) or not text.startswith(name, j):
        return None
    after = j + len(name)
    if after < len(text) and (text[after].isalnum() or text[after] == "_"):
        return None
    return _skip_space(text, after)


def _holds_default(source: SourceText, line: int, i: int) -> bool:
    """Whether the type parameter list whose `[` ends just before (line, i) gives a parameter a default (an `=`
    at its own depth, 3.13)."""
    depth, row, text = 1, line, source.line_text(line)
    while row <= len(source.lines):
        while i < len(text):
            c = text[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    return False
            elif c == "=" and depth == 1 and text[i - 1] not in "=!<>" and text[i + 1:i + 2] != "=":
                return True
            elif c == "#":
                break
            i += 1
        row, i = row + 1, 0
        text = source.line_text(row)
    return False


def _type_alias(source: SourceText, statement: ast.AST) -> int | None:
    """For `type X = ...` / `type X[T] = ...` (3.12; read by an older interpreter as `X = ...`): the index after
    the name on its line; None for any other statement."""
    targets = getattr(statement, "targets", None)
    if _TYPE_ALIAS is not None and isinstance(statement, _TYPE_ALIAS):
        name = statement.name.id  # type: ignore[attr-defined]
    elif targets and len(targets) == 1 and isinstance(targets[0], ast.Name) and targets[0].id != "type":
        name = targets[0].id
    else:
        return None
    line = statement.lineno  # type: ignore[attr-defined]
    if "type" not in source.lines[line - 1]:  # most assignments: no look at columns
        return None
    text, column = source.line_text(line), source.char_column(line, statement.col_offset)  # type: ignore[attr-defined]
    if not text.startswith("type", column):
        return None
    return _after_keyword_and_name(text, column, "type", name)


def _prefix(text: str) -> str:
    """The string prefix (`f`, `rb`, `t`, ...) of the first string of a string literal's text."""
    i = 0
    while i < len(text) and text[i] not in "'\"":
        i += 1
    return text[:i]
