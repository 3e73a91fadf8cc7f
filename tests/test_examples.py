"""Every example shows the findings listed here, and nothing else. The expectations live here, not in the
examples: examples/ is the first thing a new user opens, and test marks there read as noise."""

from pathlib import Path

import pytest
from sharpbits.analysis.engine import analyze
from sharpbits.config import load_config
from sharpbits.notebooks import analyze_notebook, parse_notebook

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"

# file -> the (line, rule) of every finding; for a notebook, (cell, line in the cell, rule)
EXPECTED: dict[str, set[tuple]] = {
    "boolean_indexing_in_jit.py": {(9, "boolean-indexing-in-jit"), (16, "boolean-indexing-in-jit")},
    "global_captured_in_jit.py": {(13, "global-captured-in-jit"), (18, "global-captured-in-jit")},
    "in_place_update.py": {(17, "in-place-update")},
    "prng_key_reuse.py": {(12, "prng-key-reuse"), (18, "prng-key-reuse")},
    "python_loop_in_jit.py": {(16, "python-loop-in-jit"), (24, "python-loop-in-jit"), (32, "traced-control-flow")},
    "traced_control_flow.py": {(10, "traced-control-flow")},
    "print_in_jit.py": {(9, "print-in-jit")},
    "host_conversion_in_jit.py": {(10, "host-conversion-in-jit")},
    "donated_buffer_reuse.py": {(16, "donated-buffer-reuse")},
    "dynamic_shape.py": {(12, "dynamic-shape"), (18, "dynamic-shape")},
    "float64_without_x64.py": {(8, "float64-without-x64")},
    "jit_in_loop.py": {(16, "jit-in-loop")},
    "side_effect_in_jit.py": {(15, "side-effect-in-jit"), (16, "side-effect-in-jit")},
    "unblocked_timing.py": {(18, "unblocked-timing")},
    "unused_noqa.py": {(8, "prng-key-reuse"), (8, "unused-noqa"), (15, "unused-noqa")},
    "invalid_trace_directive.py": {(7, "invalid-trace-directive"), (13, "invalid-trace-directive")},
    # the repository's pyproject.toml says requires-python >=3.10: `except*` (3.11) and `type` (3.12) are too new
    "unsupported_syntax.py": {(10, "unsupported-syntax"), (29, "unsupported-syntax")},
    "tracing_loops.py": {(14, "python-loop-in-jit")},
    "tracing_selu.py": set(),
    "tracing_matmul.py": set(),
    "tracing_sharding.py": set(),
    # the key drawn in cell 5 is reused in cell 7; the helper in cell 11 runs under the jit of cell 12
    "sharp_bits_notebook.ipynb": {(7, 1, "prng-key-reuse"), (11, 2, "in-place-update")},
}
EXAMPLES = sorted(p for p in EXAMPLES_DIR.iterdir() if p.suffix in (".py", ".ipynb"))


def test_every_example_is_listed():
    assert sorted(EXPECTED) == [p.name for p in EXAMPLES]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_findings_match_the_table(path):
    if path.suffix == ".ipynb":
        analysis = analyze_notebook(parse_notebook(path.read_text(encoding="utf-8")), str(path))
        found = {(f.cell, f.line, f.rule) for f in analysis.findings}
    else:
        # as `sharpbits check examples/` and the editor see it: the settings and target Python of the project
        result = analyze(path.read_text(encoding="utf-8"), str(path), load_config(path).selection_for(path))
        assert result.syntax_error is None
        found = {(f.line, f.rule) for f in result.findings}
    assert found == EXPECTED[path.name]


def test_every_rule_has_an_example():
    from sharpbits.analysis.rules import ALL_RULES

    shown = {mark[-1] for marks in EXPECTED.values() for mark in marks}
    assert {r.name for r in ALL_RULES} <= shown


def test_the_examples_carry_no_test_marks():
    assert not [p.name for p in EXAMPLES if "# expect:" in p.read_text(encoding="utf-8")]
