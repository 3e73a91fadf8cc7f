"""The fuzzed properties, shared by the bounded, fixed-seed tests that `make test` runs
(tests/robustness/test_fuzz_analysis.py) and the long random run in bench/fuzz.py.

Whatever the text: analysis returns findings inside the text and no exception escapes; every fix a finding
offers leaves code that parses; every rewrite parses before the check even sees it (a rewrite that does not is
a bug of ours that the check hides from users, but the fuzz must still find it); and the fix check, which
parses only the statements a fix touches, never accepts what a full parse rejects.
"""

from __future__ import annotations

import ast
import random
from collections import Counter

from hypothesis import strategies as st
from sharpbits.analysis.engine import analyze
from sharpbits.findings import Fix, TextEdit, apply_edits
from sharpbits.fix_check import parses, parses_after
from sharpbits.source import split_lines

from .mutations import SEEDS, mutate

# What the properties saw (bench/fuzz.py prints it).
STATS: Counter[str] = Counter()


def check_document(text: str) -> None:
    STATS["documents"] += 1
    result = analyze(text, "fuzz.py")
    lines = split_lines(text)
    for f in result.findings:
        STATS["findings"] += 1
        assert 1 <= f.line <= f.end_line <= len(lines)
        assert f.column >= 1 and f.end_column <= len(lines[f.end_line - 1]) + 1
        if f.fix_builder is None:
            continue
        offered = f.fix()
        if offered is not None:
            STATS["fixes offered"] += 1
            ast.parse(apply_edits(text, offered.edits))
        built = f.fix_builder()
        if built is not None:
            rewritten = apply_edits(text, built.edits)
            assert parses(rewritten), f"{f.rule}: its fix does not parse:\n{rewritten}"
    if result.syntax_error is not None:
        assert result.findings == []


def check_fix_check_is_sound(text: str, edit: TextEdit) -> None:
    """The local check says "parses" only when the whole document parses."""
    STATS["edits checked"] += 1
    fix = Fix(safe=True, description="fuzz", edits=(edit,))
    local = parses_after(text, [fix])
    full = parses(apply_edits(text, [edit]))
    if local:
        assert full, f"the fix check accepted an edit that breaks the document: {edit}"
    STATS["local check agreed" if local == full else "local check stricter"] += 1


mutated_documents = st.builds(lambda seed, rng_seed: mutate(seed, random.Random(rng_seed)),
                              st.sampled_from(SEEDS), st.integers(0, 2**32 - 1))
arbitrary_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=300)
statement_soup = st.lists(
    st.sampled_from(
        ["x[0] = 1", "x = jnp.zeros(3)", "@jax.jit", "def f(x):", "    x[i] += 2", "for i in range(3):",
         "    ", "import jax.numpy as jnp", "import jax", "y = x", "if x:", "else:", "return x", "\t", "x[", "]"]
    ),
    max_size=40,
).map(lambda lines: "\n".join(lines) + "\n")

_REPLACEMENTS = ["", "\n", "x = 1\n", "    y = 2\n", "\ty = 2\n", "(", ")", "\\\n", "def g():\n", "pass", "  ",
                 "from __future__ import annotations\n", "'''", "#", "if x:\n    pass\n", "@jax.jit\n"]


@st.composite
def document_and_edit(draw: st.DrawFn) -> tuple[str, TextEdit]:
    """A valid document (a rule example) and an edit somewhere in it, in the units fixes use."""
    text = draw(st.sampled_from([s for s in SEEDS if parses(s)]))
    lines = split_lines(text)
    line = draw(st.integers(1, len(lines)))
    column = draw(st.integers(1, len(lines[line - 1].rstrip("\r\n")) + 1))
    end_line = draw(st.integers(line, min(len(lines), line + 6)))
    end_limit = len(lines[end_line - 1].rstrip("\r\n")) + 1
    end_column = draw(st.integers(column if end_line == line else 1, max(end_limit, column)))
    new_text = draw(st.sampled_from(_REPLACEMENTS))
    return text, TextEdit(line, column, end_line, end_column, new_text)
