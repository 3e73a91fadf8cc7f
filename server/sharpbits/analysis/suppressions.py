"""Suppression comments, and what is wrong with them (SB001 unused-noqa, like Ruff's RUF100).

`# noqa` / `# noqa: SB201, prng-key-reuse` on a finding's first or last line drops it (for a line that ends inside
a string spanning lines: on the line where the string ends); `# sharpbits: noqa[: ...]`
on a line of its own drops it in the whole file. `apply` is the one step the engine calls after the rules: it
drops what is suppressed and, when the unused-noqa rule is selected, reports the codes of line comments that
name no rule (`SB2O1`, a near-miss of a rule's name) or that suppressed nothing, each with a safe fix that
removes the code. Codes of other tools (`E501`) and a bare `# noqa` are never reported; a code is called unused
only when its rule ran. Only real comments count (tokenize), not text in strings that looks like one.
"""

from __future__ import annotations

import difflib
import io
import re
import tokenize
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sharpbits.analysis.rules import BY_CODE, BY_NAME, lookup
from sharpbits.analysis.rules.unused_noqa import UnusedNoqa
from sharpbits.findings import Finding, Fix, Severity, TextEdit
from sharpbits.source import SourceText

NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[\w\-]+(?:\s*,\s*[\w\-]+)*))?", re.IGNORECASE)
FILE_NOQA = re.compile(r"^\s*#\s*sharpbits:\s*noqa(?::\s*(?P<codes>[\w\-]+(?:\s*,\s*[\w\-]+)*))?\s*$",
                       re.IGNORECASE | re.MULTILINE)
_LOOKS_LIKE_OURS = re.compile(r"SB[0-9A-Z]{2,4}", re.IGNORECASE)
_CODE = re.compile(r"[\w\-]+")


def codes_match(codes: str | None, finding: Finding) -> bool:
    """Whether a comment's codes (None: a bare noqa) name the finding's rule."""
    if codes is None:
        return True
    wanted = {c.strip().lower() for c in codes.split(",")}
    return finding.code.lower() in wanted or finding.rule in wanted


@dataclass(frozen=True)
class _Code:
    """One code written in a noqa comment: where (1-based line, 0-based character columns) and what."""

    line: int
    start: int
    end: int
    text: str
    file_level: bool


def _comments(source: SourceText) -> list[tuple[int, int, str]]:
    """(line, column, text) of every comment token that mentions noqa (columns in characters, 0-based)."""
    return _tokens(source.text)[0]


def string_ends(text: str) -> dict[int, int]:
    """For each line (1-based) that ends inside a string spanning lines: the line where that string ends. A comment
    for such a line goes there (and is read there), as in Ruff."""
    return dict(_tokens(text)[1])


_last_tokens: tuple[str, tuple[list[tuple[int, int, str]], dict[int, int]]] | None = None


def _tokens(text: str) -> tuple[list[tuple[int, int, str]], dict[int, int]]:
    """(the noqa comments, the string ends) of the text, from one pass of the tokenizer (a third of the CLI's time
    on real code with noqa comments went to two passes); the last text's are kept (`apply` asks for both)."""
    global _last_tokens
    last = _last_tokens
    if last is not None and last[0] is text:
        return last[1]
    comments: list[tuple[int, int, str]] = []
    ends: dict[int, int] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                if "noqa" in tok.string.lower():
                    comments.append((tok.start[0], tok.start[1], tok.string))
            elif tok.type == tokenize.STRING and tok.end[0] > tok.start[0]:
                ends.update((n, tok.end[0]) for n in range(tok.start[0], tok.end[0]))
    except (tokenize.TokenError, SyntaxError, ValueError):  # (a notebook cell's magics): what was read so far
        pass
    _last_tokens = (text, (comments, ends))
    return comments, ends


def _codes_in(source: SourceText) -> list[_Code]:
    out = []
    for line, column, comment in _comments(source):
        file_level = FILE_NOQA.fullmatch(comment) is not None and not source.line_text(line)[:column].strip()
        m = FILE_NOQA.fullmatch(comment) if file_level else NOQA.search(comment)
        if m is None or m.group("codes") is None:
            continue
        base = column + m.start("codes")
        for c in _CODE.finditer(m.group("codes")):
            out.append(_Code(line, base + c.start(), base + c.end(), c.group(), file_level))
    return out


def _may_report(source: SourceText, ran: set[str]) -> bool:
    """Whether a line comment of the text may hold a code SB001 reports (one of ours, or one that looks like ours),
    found without the tokenizer: the `# noqa` after every `#` of every line that mentions noqa, in strings too (a
    comment runs from its `#` to the end of its line, so its own match is among these). False: none can be
    reported, and the tokenizer's pass over the file (most of `apply`'s time) is not needed."""
    for line in source.text.splitlines():
        if "noqa" not in line.lower():
            continue
        at = line.find("#")
        while at >= 0:
            m = NOQA.match(line, at)
            if m is not None and m.group("codes") is not None:
                for c in _CODE.finditer(m.group("codes")):
                    rule = lookup(c.group())
                    if (rule is not None and rule.name in ran) or _unknown(c.group()) is not None:
                        return True
            at = line.find("#", at + 1)
    return False


def _unknown(text: str) -> str | None:
    """Why a code is not ours to accept (with a guess), or None when it names a rule or belongs to another tool."""
    if lookup(text) is not None:
        return None
    if _LOOKS_LIKE_OURS.fullmatch(text):
        guess = difflib.get_close_matches(text.upper().replace("O", "0").replace("I", "1").replace("L", "1"),
                                          list(BY_CODE), n=1, cutoff=0.6)
        return UnusedNoqa.unknown_code(text, guess[0] if guess else None)
    if "-" in text:
        guess = difflib.get_close_matches(text.lower(), list(BY_NAME), n=1, cutoff=0.85)
        if guess:
            return UnusedNoqa.unknown_name(text, guess[0])
    return None


def _removal(source: SourceText, code: _Code) -> Callable[[], Fix | None]:
    """A fix that deletes the code from its comment (the comment, or its whole line, when it was the only one)."""

    def build() -> Fix | None:
        text = source.line_text(code.line)
        comment_start = text.rfind("#", 0, code.start)
        codes = _codes_in_comment(text, comment_start, code)
        if len(codes) == 1:  # the only code: the comment goes (with the blanks before it), or the line if bare
            before = text[:comment_start].rstrip()
            if not before:  # with its line break, unless it is the last line and has none
                last = source.text.count("\n") < code.line
                edit = TextEdit(code.line, 1, code.line, len(text) + 1, "") if last \
                    else TextEdit(code.line, 1, code.line + 1, 1, "")
                return Fix(True, f"Remove `{text[comment_start:].strip()}`", (edit,))
            start, end = len(before), len(text)
        else:
            at = codes.index((code.start, code.end))
            if at + 1 < len(codes):  # up to the next code
                start, end = code.start, codes[at + 1][0]
            else:  # from the end of the previous code
                start, end = codes[at - 1][1], code.end
        return Fix(True, f"Remove `{code.text}` from the noqa comment",
                   (TextEdit(code.line, start + 1, code.line, end + 1, ""),))

    return build


def _codes_in_comment(text: str, comment_start: int, code: _Code) -> list[tuple[int, int]]:
    comment = text[comment_start:]
    m = FILE_NOQA.fullmatch(comment) if code.file_level else NOQA.search(comment)
    if m is None or m.group("codes") is None:
        return [(code.start, code.end)]
    base = comment_start + m.start("codes")
    return [(base + c.start(), base + c.end()) for c in _CODE.finditer(m.group("codes"))]


def _finding(source: SourceText, code: _Code, message: str, severities: Mapping[str, Severity]) -> Finding:
    return Finding(
        path=source.path, line=code.line, column=code.start + 1, end_line=code.line, end_column=code.end + 1,
        code=UnusedNoqa.code, rule=UnusedNoqa.name,
        severity=severities.get(UnusedNoqa.name, UnusedNoqa.severity),
        message=message, url=UnusedNoqa.url(), fix_builder=_removal(source, code), source_text=source.text,
        fix_title=f"remove `{code.text}`",
    )


def apply(findings: list[Finding], source: SourceText, ran: set[str], severities: Mapping[str, Severity]) -> list[Finding]:
    """The findings that no comment suppresses, plus SB001's findings when `unused-noqa` is among the rules that
    `ran` (rule names). `severities`: the selection's severity overrides (rule name -> severity)."""
    if "noqa" not in source.text.lower():
        return findings
    file_level = [m.group("codes") for m in FILE_NOQA.finditer(source.text)]
    # the tokenizer's string ends only when a finding asks (most files with a noqa comment have no finding)
    ends = string_ends(source.text) if findings and ('"""' in source.text or "'''" in source.text) else {}
    kept: list[Finding] = []
    used: set[tuple[int, str]] = set()  # (line, rule name) a line comment's code suppressed
    for f in findings:
        suppressed = any(codes_match(codes, f) for codes in file_level)
        for lineno in {ends.get(f.line, f.line), ends.get(f.end_line, f.end_line)}:
            m = NOQA.search(source.line_text(lineno))
            if m and codes_match(m.group("codes"), f):
                suppressed = True
                used.add((lineno, f.rule))
        if not suppressed:
            kept.append(f)
    if UnusedNoqa.name not in ran or (not file_level and not _may_report(source, ran)):
        return kept
    reported: list[Finding] = []
    for code in _codes_in(source):
        why = _unknown(code.text)
        rule = lookup(code.text)
        if why is None and not code.file_level and rule is not None and rule.name in ran \
                and rule is not UnusedNoqa and (code.line, rule.name) not in used:
            why = UnusedNoqa.unused(code.text, rule.name)
        if why is None:
            continue
        finding = _finding(source, code, why, severities)
        m = NOQA.search(source.line_text(code.line))
        if not (m and codes_match(m.group("codes"), finding)):  # SB001 among the codes keeps one on purpose
            reported.append(finding)
    return kept + reported

