"""Every example shows what its `# expect: RULE` marks say, and nothing else."""

import re
from pathlib import Path

import pytest
from sharpbits.analysis.engine import analyze

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.py"))
EXPECT = re.compile(r"#\s*expect:\s*([\w\-, ]+)")


# Examples that carry no `# expect:` marks (test marks read as noise in the files a new user opens first): their
# findings are listed here, (line, rule).
LISTED: dict[str, set[tuple[int, str]]] = {
    "traced_control_flow.py": {(10, "traced-control-flow")},
    "print_in_jit.py": {(9, "print-in-jit")},
    "host_conversion_in_jit.py": {(10, "host-conversion-in-jit")},
}


def expected(text: str, name: str = "") -> set[tuple[int, str]]:
    marks = set(LISTED.get(name, ()))
    for lineno, line in enumerate(text.splitlines(), 1):
        m = EXPECT.search(line)
        if m:
            marks |= {(lineno, rule.strip()) for rule in m.group(1).split(",")}
    return marks


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_findings_match_their_marks(path):
    text = path.read_text()
    result = analyze(text, str(path))
    assert result.syntax_error is None
    assert {(f.line, f.rule) for f in result.findings} == expected(text, path.name)


def test_every_rule_has_an_example():
    from sharpbits.analysis.rules import ALL_RULES

    shown = {rule for path in EXAMPLES for _, rule in expected(path.read_text(), path.name)}
    missing = {r.name for r in ALL_RULES} - shown - {"in-place-update"}  # in_place_update.py comes with the editor work
    assert not missing
