"""SB001 unused-noqa: a `# noqa:` code that names no sharpbits rule, or that suppresses nothing on its line.

The rule only documents itself here: whether a code suppressed something is known once every other rule has run,
so the findings come from the suppression step (sharpbits.analysis.suppressions), which the engine calls after
the rules. Selecting, ignoring and re-grading it works like any other rule.
"""

from __future__ import annotations

from typing import ClassVar

from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext


class UnusedNoqa(Rule):
    code = "SB001"
    name = "unused-noqa"
    severity = "warning"
    messages: ClassVar[dict[str, str]] = {
        "unknown": "`{code}` is not a sharpbits code{guess}",
        "unknown-name": "`{code}` is not a sharpbits rule (did you mean `{guess}`?)",
        "unused": "unused `# noqa: {code}`: no {rule} finding on this line",
        "guess": " (did you mean `{guess}`?)",
    }
    summary = "A `# noqa:` code that is misspelled, or that suppresses nothing on its line."
    why = """
A misspelled code (`# noqa: SB2O1`, with the letter O) suppresses nothing, so the line looks silenced while the
finding it was meant for still counts, or has quietly gone away and the comment hides the next one. An unused
code is a leftover: the problem it silenced was fixed. Only codes that look like sharpbits codes (`SB` and two to
four letters or digits) or close to a rule's name are checked; `# noqa: E501` belongs to another tool and is left alone. A
code is called unused only when its rule ran on the file (a rule left out by `select`/`ignore` is not judged).
Like Ruff's RUF100.
"""
    example = """
import jax

key = jax.random.key(0)
a = jax.random.normal(key, (3,))
b = jax.random.normal(key, (3,))  # noqa: SB2O1
"""
    use_instead = """
import jax

key = jax.random.key(0)
a = jax.random.normal(key, (3,))
b = jax.random.normal(key, (3,))  # noqa: SB201
"""
    fix_safety = """
The fix removes the code from the comment (the whole comment when it was the only code). It is **safe**: a
comment changes neither the program's numbers nor any signature. Add `SB001` to a line's codes to keep an
unused code there on purpose.
"""
    VALID: ClassVar[list[str]] = [
        "x = 1  # noqa: E501\n",  # another tool's code
        "x = 1  # noqa\n",  # a blanket noqa: for every tool
        "s = '# noqa: SB2O1'\n",  # inside a string, not a comment
        "x = 1  # noqa: SB2O1, SB001\n",  # kept on purpose
    ]
    INVALID: ClassVar[list[Invalid]] = [
        Invalid("x = 1  # noqa: SB2O1\n", fixed="x = 1\n"),
        Invalid("x = 1  # noqa: E501, SB2O1\n", fixed="x = 1  # noqa: E501\n"),
        Invalid("x = 1  # noqa: SB2O1,E501\n", fixed="x = 1  # noqa: E501\n"),
        Invalid("x = 1  # keep  # noqa: prng-key-reus\n", fixed="x = 1  # keep\n"),
        Invalid("# sharpbits: noqa: SB9999\nx = 1\n", fixed="x = 1\n"),
        Invalid("x = 1\n# sharpbits: noqa: SB9999", fixed="x = 1\n"),  # the last line, with no line break
    ]

    def check(self, ctx: RuleContext) -> None:
        """Nothing to do while the rules run: sharpbits.analysis.suppressions reports after them."""
        return None

    @classmethod
    def unknown_code(cls, code: str, guess: str | None) -> str:
        return cls.message("unknown", code=code, guess=cls.message("guess", guess=guess) if guess else "")

    @classmethod
    def unknown_name(cls, code: str, guess: str) -> str:
        return cls.message("unknown-name", code=code, guess=guess)

    @classmethod
    def unused(cls, code: str, rule: str) -> str:
        return cls.message("unused", code=code, rule=rule)
