"""gitignore patterns with git's wildmatch semantics, matched in time bounded by the pattern's length times the
path's: no pattern a repository writes can stall `check`.

A regular-expression translation (what pathspec does) backtracks: `*a*a*a*a*a*a*a*a*a*a*b` against a name of
40 `a`s takes seconds at 8 stars, hours at 14, while git answers at once. Here a pattern is split at its slashes
into segments; a segment without `**` is matched against one name with the classic wildcard algorithm, which
returns to the last `*` only (each `*` matches any run of characters other than `/`, so only the latest one
ever needs to give back characters: O(pattern x name) steps); `**` segments are matched over the path's names
with a table of (pattern segment, name) pairs, each computed once.

What git accepts, this accepts: `[z-a]` is a range that matches nothing, and a pattern git can never match (an
unterminated `[`, a trailing `\\`) matches nothing here either; `problems` says which lines those are, as
warnings for the user. Semantics (git's `gitignore` documentation, `dir.c` and `wildmatch.c`):

- blank lines and `#` comments are skipped; trailing spaces are dropped unless escaped (`\\ `);
- `!` negates; the last matching pattern decides; `\\!`, `\\#` and any `\\c` stand for the character itself;
- a trailing `/` matches directories only; a pattern with a `/` elsewhere is anchored at the folder of the file
  that holds it, one without matches a name at any depth;
- `*` and `?` never match `/`; `[...]` (with `!` or `^` to negate, ranges, `[:alpha:]` classes) matches one
  character other than `/`;
- `**/` at the start matches in any folder, `/**` at the end everything inside, `/**/` zero or more folders;
  any other `**` is a `*`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

_CLASSES: dict[str, Callable[[str], bool]] = {
    "alnum": str.isalnum, "alpha": str.isalpha, "blank": lambda c: c in " \t", "cntrl": lambda c: ord(c) < 32 or ord(c) == 127,
    "digit": lambda c: "0" <= c <= "9", "graph": lambda c: c.isprintable() and not c.isspace(),
    "lower": str.islower, "print": str.isprintable, "punct": lambda c: c.isprintable() and not c.isalnum() and not c.isspace(),
    "space": str.isspace, "upper": str.isupper, "xdigit": lambda c: c in "0123456789abcdefABCDEF",
}

STAR = object()  # any run of characters (no `/`)
ANY = object()  # any one character (no `/`)
GLOBSTAR = object()  # a whole `**` segment: any number of names


class _Never(Exception):
    """A pattern git can never match (unterminated bracket, trailing backslash)."""


@dataclass(frozen=True)
class _Class:
    negated: bool
    items: tuple[tuple[str, str] | Callable[[str], bool], ...]  # (low, high) ranges and character classes

    def __call__(self, char: str) -> bool:
        hit = any(item(char) if callable(item) else item[0] <= char <= item[1] for item in self.items)
        return hit != self.negated


Token = str | _Class | object
Segment = tuple[Token, ...] | object  # tokens of one name, or GLOBSTAR


def _bracket(pattern: str, start: int) -> tuple[_Class, int]:
    """The bracket expression opening at pattern[start] == "[" and the index after its "]"."""
    i = start + 1
    negated = i < len(pattern) and pattern[i] in "!^"
    if negated:
        i += 1
    items: list[tuple[str, str] | Callable[[str], bool]] = []
    first = True
    while True:
        if i >= len(pattern):
            raise _Never("an unterminated [")
        char = pattern[i]
        if char == "]" and not first:
            return _Class(negated, tuple(items)), i + 1
        first = False
        if char == "[" and pattern.startswith("[:", i):
            end = pattern.find(":]", i + 2)
            if end != -1:
                name = pattern[i + 2 : end]
                if name not in _CLASSES:
                    raise _Never(f"an unknown character class [:{name}:]")
                items.append(_CLASSES[name])
                i = end + 2
                continue
        if char == "\\":
            i += 1
            if i >= len(pattern):
                raise _Never("a trailing backslash")
            char = pattern[i]
        low = char
        i += 1
        if i + 1 < len(pattern) and pattern[i] == "-" and pattern[i + 1] != "]":
            high = pattern[i + 1]
            i += 2
            if high == "\\":
                if i >= len(pattern):
                    raise _Never("a trailing backslash")
                high = pattern[i]
                i += 1
            items.append((low, high))  # git accepts a reversed range: it matches nothing
        else:
            items.append((low, low))


def _tokens(segment: str) -> tuple[Token, ...]:
    tokens: list[Token] = []
    i = 0
    while i < len(segment):
        char = segment[i]
        if char == "*":
            while i < len(segment) and segment[i] == "*":
                i += 1
            if not tokens or tokens[-1] is not STAR:
                tokens.append(STAR)
            continue
        if char == "?":
            tokens.append(ANY)
        elif char == "[":
            bracket, i = _bracket(segment, i)
            tokens.append(bracket)
            continue
        elif char == "\\":
            i += 1
            if i >= len(segment):
                raise _Never("a trailing backslash")
            tokens.append(segment[i])
        else:
            tokens.append(char)
        i += 1
    return tuple(tokens)


def _match_name(tokens: tuple[Token, ...], name: str) -> bool:
    """Wildcard match of one name: on a mismatch, only the latest `*` takes one more character (every earlier
    `*` is then satisfied whatever the latest one matches), so the work is O(len(tokens) x len(name))."""
    t = n = 0
    star_t, star_n = -1, 0
    while n < len(name):
        if t < len(tokens):
            token = tokens[t]
            if token is STAR:
                star_t, star_n = t, n
                t += 1
                continue
            if token is ANY or (token == name[n] if isinstance(token, str) else token(name[n])):  # type: ignore[operator]
                t += 1
                n += 1
                continue
        if star_t < 0:
            return False
        star_n += 1
        t, n = star_t + 1, star_n
    return all(token is STAR for token in tokens[t:])


def _split(pattern: str) -> list[str]:
    """The segments between unescaped slashes."""
    parts, current, i = [], "", 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            current += pattern[i : i + 2]
            i += 2
            continue
        if char == "/":
            parts.append(current)
            current = ""
        else:
            current += char
        i += 1
    parts.append(current)
    return parts


@dataclass(frozen=True)
class Pattern:
    text: str  # the line as written
    negated: bool
    directory_only: bool
    anchored: bool
    segments: tuple[Segment, ...]

    def matches(self, names: tuple[str, ...], is_dir: bool) -> bool:
        """Whether the path (its names, relative to the folder of the pattern's file) matches."""
        if self.directory_only and not is_dir:
            return False
        if not self.anchored:
            return bool(names) and _match_name(self.segments[0], names[-1])  # type: ignore[arg-type]
        # the names each segment can end at, one segment after the other: O(segments x names) name matches
        reachable = {0}
        for index, segment in enumerate(self.segments):
            if not reachable:
                return False
            if segment is GLOBSTAR:
                # a trailing `/**` matches what is inside (one name or more); elsewhere zero names or more
                first = min(reachable) + (1 if index == len(self.segments) - 1 else 0)
                reachable = set(range(first, len(names) + 1))
            else:
                reachable = {n + 1 for n in reachable
                             if n < len(names) and _match_name(segment, names[n])}  # type: ignore[arg-type]
        return len(names) in reachable


def parse(line: str) -> Pattern | None:
    """One gitignore line as a pattern (None for a blank line or a comment); raises ValueError, saying why, for
    a pattern git can never match."""
    line = line.rstrip("\r\n")
    if not line or line.startswith("#"):
        return None
    # trailing spaces go unless escaped with a backslash ("\ " keeps one)
    end = len(line)
    while end > 0 and line[end - 1] == " ":
        backslashes = len(line[:end - 1]) - len(line[:end - 1].rstrip("\\"))
        if backslashes % 2:
            break
        end -= 1
    text = line[:end]
    if not text:
        return None
    negated = text.startswith("!")
    body = text[1:] if negated else text
    directory_only = body.endswith("/") and not body.endswith("\\/")
    if directory_only:
        body = body[:-1]
    if not body:
        return None
    anchored = "/" in body
    if body.startswith("/"):
        body = body[1:]
    try:
        parts = _split(body)
        segments: tuple[Segment, ...] = tuple(GLOBSTAR if anchored and part == "**" else _tokens(part) for part in parts)
    except _Never as exc:
        raise ValueError(f"{text!r} can never match ({exc}); it is ignored, as git ignores it") from None
    return Pattern(line, negated, directory_only, anchored, segments)


class IgnoreSpec:
    """The patterns of one .gitignore (or `exclude` list), relative to one folder; the last one that matches
    a path decides. `problems` are (line number, why) for the patterns that can never match."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.patterns: list[Pattern] = []
        self.problems: list[tuple[int, str]] = []
        for number, line in enumerate(lines, 1):
            try:
                pattern = parse(line)
            except ValueError as exc:
                self.problems.append((number, str(exc)))
                continue
            if pattern is not None:
                self.patterns.append(pattern)

    def verdict(self, relative: str, is_dir: bool) -> bool | None:
        """True: ignored, False: re-included by a `!` pattern, None: no pattern matches. `relative` is the
        path from the spec's folder, with `/` between names."""
        names = tuple(name for name in relative.split("/") if name)
        for pattern in reversed(self.patterns):
            if pattern.matches(names, is_dir):
                return not pattern.negated
        return None
