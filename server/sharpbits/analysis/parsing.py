"""One parse for every part of the analysis: `ast.parse`, and Python syntax newer than the interpreter's read too.

The server and the CLI run on the interpreter they were installed in (3.10 or later); the code they read may be
written for a newer Python. `ast.parse` of an older interpreter refuses what came after it, and a file it
refuses is reported as a syntax error with nothing else in it checked. So when `ast.parse` fails, the text is
rewritten into what the interpreter reads, keeping every line and column, and parsed again; when that parses,
the analysis goes on with it (a rule's finding lands where it would under the newer Python). What is rewritten:

- 3.11: `except* E:` (PEP 654) -> `except  E:`;
- 3.12: `type X[T] = v` (PEP 695) -> `X       = v`, the name kept at the value's side, the parameters blanked;
  `def f[T](x)` and `class C[T](B)` -> the parameter list blanked (`def f   (x)`; over several lines each ends
  with a backslash), defaults of 3.13 (PEP 696) included; f-strings that reuse their own quote inside a replacement field (PEP 701, `f"{d["k"]}"`) -> the
  inner string's quotes swapped (`f"{d['k']}"`) when it holds no quote of the other kind; an escape in a string
  inside a replacement field (`f"{'\\n'.join(x)}"`) -> two spaces (the string's value changes, not its extent);
  a single-quoted f-string whose replacement field spans lines -> triple-quoted, two characters of its text
  dropped on each end line for the added quotes;
- 3.14: template strings (PEP 750, `t"..."`) -> f-strings (`f"..."`): the same expressions are read; `except A, B:`
  without parentheses (PEP 758) -> `except A| B:`.

A text that still does not parse raises the first parse's SyntaxError: the error the user sees is the
interpreter's. Nothing of the text is run or imported."""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from collections.abc import Callable
from dataclasses import dataclass

_NEWER_THAN_INTERPRETER = sys.version_info < (3, 14)


@dataclass(frozen=True)
class TargetVersion:
    """The oldest Python a project's code must run on, and where that was said: `requires-python = ">=3.9"` of
    the project's pyproject.toml, or `target-version = "3.9"` in its [tool.sharpbits] (config.py reads both).
    Syntax newer than it is a finding (rules/unsupported_syntax.py); unknown (None) reads every syntax."""

    major: int
    minor: int
    source: str = ""  # e.g. 'requires-python = ">=3.9"' (the setting as written), for the finding's message

    @property
    def version(self) -> tuple[int, int]:
        return (self.major, self.minor)

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"


def parse_module(text: str, filename: str = "<unknown>") -> ast.Module:
    """`ast.parse(text)`, and when that fails on syntax a newer Python reads, the parse of the text rewritten
    with the same positions (see the module's docstring). Raises what `ast.parse` raises otherwise."""
    try:
        return ast.parse(text, filename=filename)
    except SyntaxError as first:
        if not _NEWER_THAN_INTERPRETER:
            raise
        rewritten = downlevel(text)
        if rewritten is None or rewritten == text:
            raise
        try:
            return ast.parse(rewritten, filename=filename)
        except (SyntaxError, ValueError):
            raise first from None


def downlevel(text: str) -> str | None:
    """The text with the newer syntax it holds written as the interpreter reads it, each character in its place;
    None when it cannot be (a string left open, brackets that do not close)."""
    chars = list(text)
    if not _strings(text, chars):
        return None
    swapped = "".join(chars)
    if _MAY_NEED_TOKENS.search(swapped) is None:
        # no statement the token pass below rewrites: a text with a syntax error being typed (the usual reason a
        # parse fails in the editor) is not tokenized, which took ten parses' time on a big file
        return swapped
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(swapped).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    offsets = _line_offsets(swapped)

    def at(position: tuple[int, int]) -> int:
        return offsets[position[0] - 1] + position[1]

    starts_statement = True
    for i, token in enumerate(tokens):
        if token.type in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT):
            if token.type != tokenize.COMMENT:
                starts_statement = True
            continue
        first_of_statement = starts_statement
        starts_statement = token.type == tokenize.OP and token.string == ";"
        if token.type != tokenize.NAME:
            continue
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        if token.string == "except" and following is not None and following.string == "*":
            chars[at(following.start)] = " "  # except* E: -> except  E:
        if token.string == "except" and first_of_statement:
            _bar_separated_types(tokens, i + 1 + (following is not None and following.string == "*"), chars, at)
        if token.string in ("def", "class") and following is not None and following.type == tokenize.NAME:
            after = tokens[i + 2] if i + 2 < len(tokens) else None
            if after is not None and after.string == "[" and not _blank_brackets(tokens, i + 2, chars, at):
                return None
        elif (token.string == "type" and first_of_statement and following is not None
              and following.type == tokenize.NAME and following.start[0] == token.start[0]):
            after = tokens[i + 2] if i + 2 < len(tokens) else None
            if after is None or after.string not in ("=", "["):
                continue  # `type(x)`, `type = 3`: the builtin or a name
            if after.string == "[" and not _blank_brackets(tokens, i + 2, chars, at):
                return None
            start, name_end, name = at(token.start), at(following.end), following.string
            chars[start:name_end] = list(name + " " * (name_end - start - len(name)))
    return "".join(chars)


# Every place the token pass of `downlevel` may rewrite matches (strings and comments included, so this finds more
# than that pass acts on, never less: a backslash may join the lines in between, and `9except*` is a number and an
# `except` to the tokenizer): `except*`; `except` at the start of a statement with a comma or a line joined on after
# it (`except A, B:`) unless what follows is one parenthesized tuple (`except (A, B) as e:`, the usual spelling,
# whose commas are not at depth 0); `def f[` / `class C[`; and `type X =` / `type X[` at the start of a statement.
_JOIN = r"(?:[ \t\f]|\\\r?\n)"
_MAY_NEED_TOKENS = re.compile(
    r"except" + _JOIN + r"*\*"
    r"|(?:^|[;\r])[ \t\f]*except\b(?!" + _JOIN + r"*\((?:[^()\n\\]|\([^()\n\\]*\))*\)[ \t]*(?:as[ \t]+\w+[ \t]*)?:)"
    r"[^\n]*(?:,|\\\r?\n)"
    r"|(?:def|class)" + _JOIN + r"+\w+" + _JOIN + r"*\["
    r"|(?:^|[;\r])[ \t\f]*type" + _JOIN + r"+\w+" + _JOIN + r"*[=\[]",
    re.MULTILINE)


def _bar_separated_types(tokens: list[tokenize.TokenInfo], start: int, chars: list[str],
                         at: Callable[[tuple[int, int]], int]) -> None:
    """3.14 (PEP 758): `except A, B:` without parentheses -> `except A| B:` (the interpreter reads the same names,
    at the same places, as one expression). Left alone with an `as` (a syntax error on 3.14 too) or parentheses."""
    depth, commas = 0, []
    for token in tokens[start:]:
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        elif depth == 0 and token.type == tokenize.OP and token.string == ",":
            commas.append(token)
        elif depth == 0 and (token.string == ":" or token.type in (tokenize.NEWLINE, tokenize.NL)):
            break
        elif depth == 0 and token.type == tokenize.NAME and token.string == "as":
            return
    for comma in commas:
        chars[at(comma.start)] = "|"


def _blank_brackets(tokens: list[tokenize.TokenInfo], opening: int, chars: list[str],
                    at: Callable[[tuple[int, int]], int]) -> bool:
    """Blanks the bracketed type parameters that start at tokens[opening] (`[T: int = str]`); over several lines,
    each of them then ends with a backslash (blanked brackets no longer join the lines). False when they never
    close, or hold an empty line."""
    depth = 0
    for token in tokens[opening:]:
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
            if depth == 0:
                start, end = at(tokens[opening].start), at(token.end)
                for index in range(start, end):
                    if chars[index] not in "\r\n":
                        chars[index] = " "
                for index in range(start, end):  # over lines: each line of the span ends with a continuation
                    if chars[index] == "\n":
                        before = index - 1 - (chars[index - 1] == "\r")
                        if before < start or chars[before] in "\r\n":
                            return False  # an empty line inside the brackets leaves no room for the backslash
                        chars[before] = "\\"
                return True
    return False


def _line_offsets(text: str) -> list[int]:
    offsets, total = [], 0
    for line in io.StringIO(text):
        offsets.append(total)
        total += len(line)
    offsets.append(total)
    return offsets


def _prefix_start(text: str, quote_at: int) -> int:
    """Where the prefix (`f`, `rb`, `t`, ...) of the string whose quote is at `quote_at` starts: up to two prefix
    letters right before it, when no other name character comes before them (`if"a"` has none)."""
    start = quote_at
    while start > quote_at - 2 and start > 0 and text[start - 1] in "rRbBuUfFtT":
        start -= 1
    if start < quote_at and start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        return quote_at
    return start


def uses_pep701(text: str) -> bool:
    """Whether a string literal's text (implicitly joined parts included) holds what only PEP 701 (3.12) reads:
    in a replacement field's expression, a string that reuses the enclosing quote, a backslash or a comment; a line
    break in a field of a single-quoted f-string (rules/unsupported_syntax.py)."""
    found: list[int] = []
    _strings(text, list(text), found)
    return bool(found)


def _strings(text: str, chars: list[str], pep701: list[int] | None = None) -> bool:
    """Walks the text's strings and comments: turns template-string prefixes into f-string ones and swaps the
    quotes of strings nested in an f-string's replacement fields that reuse its quote (both in `chars`, the
    text's characters). False when a string is left open or a swap would change what a string holds. `pep701`,
    when given, gets the index of each use of PEP 701 syntax met on the way (see uses_pep701)."""
    n, search = len(text), _QUOTE_OR_COMMENT.search
    found = search(text)
    while found is not None:
        i = found.start()
        if text[i] == "#":
            end = text.find("\n", i)
            if end < 0:
                return True
            found = search(text, end)
            continue
        i = _string_end(text, chars, _prefix_start(text, i), i, None, pep701)
        if i < 0:
            return False
        found = search(text, i) if i < n else None
    return True


_QUOTE_OR_COMMENT = re.compile(r"[#'\"]")


def _string_end(text: str, chars: list[str], prefix_start: int, quote_at: int, outer_quote: str | None,
                pep701: list[int] | None = None) -> int:
    """The index after the string whose prefix starts at `prefix_start` and whose quote is at `quote_at`; -1 when it
    does not close. `outer_quote`: the quote of the f-string whose replacement field holds this string."""
    prefix = text[prefix_start:quote_at].lower()
    for index in range(prefix_start, quote_at):
        if text[index] in "tT":
            chars[index] = "f" if text[index] == "t" else "F"  # t"..." (3.14) read as f"..."
    quote = text[quote_at]
    triple = text.startswith(quote * 3, quote_at)
    delimiter = quote * 3 if triple else quote
    formatted = "f" in prefix or "t" in prefix
    if pep701 is not None and outer_quote is not None and quote == outer_quote[0] and (
            len(outer_quote) == 1 or delimiter == outer_quote):
        pep701.append(quote_at)  # the nested string reuses the f-string's own quote
    i, n = quote_at + len(delimiter), len(text)
    content_start = i
    field_breaks: list[int] = []  # line breaks in this single-quoted f-string's replacement fields (PEP 701)
    plain: list[int] = []  # where this string's text holds a plain character (one a rewrite may drop)
    while i < n:
        c = text[i]
        if c == "\\":
            if outer_quote is not None and pep701 is not None:
                pep701.append(i)
            if outer_quote is not None and text[i + 1:i + 2] not in ("", "\r", "\n"):
                # PEP 701: a string in a replacement field holds an escape; before 3.12 no backslash may stand in
                # the field, so the escape is read as two spaces (what the string holds changes, not its extent)
                chars[i] = chars[i + 1] = " "
            i += 2
            continue
        if text.startswith(delimiter, i):
            end = i + len(delimiter)
            if outer_quote is not None and len(outer_quote) == 1 and quote == outer_quote:
                # PEP 701: the nested string reuses the f-string's quote; swap it when nothing in it changes meaning
                other = "'" if quote == '"' else '"'
                if triple or other in text[content_start:i] or "\\" in "".join(chars[content_start:i]):
                    return -1
                chars[quote_at] = other
                chars[i] = other
            if field_breaks:
                _triple_quoted(chars, quote_at, i, quote, plain, field_breaks[0], field_breaks[-1])
            return end
        if not triple and c == "\n":
            return -1
        if formatted and c == "{":
            if text.startswith("{{", i):
                i += 2
                continue
            i = _field_end(text, chars, i + 1, delimiter, pep701, field_breaks)
            if i < 0:
                return -1
            continue
        if c not in "{}\r":
            plain.append(i)
        i += 1
    return -1


def _triple_quoted(chars: list[str], quote_at: int, closing_at: int, quote: str, plain: list[int],
                   first_break: int, last_break: int) -> None:
    """PEP 701: a single-quoted f-string whose replacement field spans lines (`f"a {\\n x}"`) -> triple-quoted,
    which every Python reads over lines; two plain characters of its text on the opening line and two on the
    closing one are dropped for the two quotes added at each end, so every column stays (the string's value
    changes, not its extent). Where a line has no two such characters its columns shift after the quote."""
    chars[quote_at] = quote * 3
    chars[closing_at] = quote * 3
    for index in [at for at in plain if at < first_break][:2] + [at for at in plain if at > last_break][-2:]:
        chars[index] = ""


def _field_end(text: str, chars: list[str], i: int, delimiter: str, pep701: list[int] | None = None,
               breaks: list[int] | None = None) -> int:
    """The index after the `}` closing an f-string's replacement field that starts at `i`, strings nested in it
    walked (and fixed) on the way; -1 when it does not close. Inside a field's expression a quote always opens a
    string (PEP 701): the f-string cannot end there; in its format spec (after a `:` or `!` of its own) a quote,
    `#` or backslash is a character of the spec."""
    depth, n, in_spec = 0, len(text), False
    while i < n:
        c = text[i]
        if not in_spec and c in "'\"":
            i = _string_end(text, chars, _prefix_start(text, i), i, delimiter, pep701)
            if i < 0:
                return -1
            continue
        if pep701 is not None and not in_spec and (c in "\\#" or (c == "\n" and len(delimiter) == 1)):
            pep701.append(i)  # a backslash, a comment, a line break in a single-quoted f-string's field
        if breaks is not None and not in_spec and c == "\n" and len(delimiter) == 1:
            breaks.append(i)
        if c in "([{":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "}":
            if depth == 0:
                return i + 1
            depth -= 1
        elif depth == 0 and (c == ":" or (c == "!" and text[i + 1:i + 2] != "=")):
            in_spec = True
        i += 1
    return -1
