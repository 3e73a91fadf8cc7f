"""Every rule's VALID and INVALID cases, which double as its documentation, run as tests."""

import ast

import pytest
from sharpbits.analysis.engine import Selection, analyze
from sharpbits.analysis.rules import ALL_RULES
from sharpbits.findings import apply_edits

VALID = [pytest.param(rule, code, id=f"{rule.name}-valid-{i}") for rule in ALL_RULES for i, code in enumerate(rule.VALID)]
INVALID = [pytest.param(rule, case, id=f"{rule.name}-invalid-{i}") for rule in ALL_RULES for i, case in enumerate(rule.INVALID)]


def only(rule):
    return Selection(select=frozenset({rule.name}), target=rule.example_target)


@pytest.mark.parametrize(("rule", "code"), VALID)
def test_valid_code_stays_silent(rule, code):
    result = analyze(code, "case.py", only(rule))
    assert result.syntax_error is None
    assert result.findings == [], [f.message for f in result.findings]


@pytest.mark.parametrize(("rule", "case"), INVALID)
def test_invalid_code_is_flagged_and_fixed(rule, case):
    result = analyze(case.code, "case.py", only(rule))
    assert result.syntax_error is None
    assert len(result.findings) == case.count, [f.message for f in result.findings]
    for f in result.findings:
        assert (f.code, f.rule, f.severity) == (rule.code, rule.name, case.severity or rule.severity)
        assert f.url == rule.url()  # the configured address of its page, or "" (tests/cli: SHARPBITS_DOCS_URL)
        assert (f.line, f.column) < (f.end_line, f.end_column)
    fixes = [f.fix() for f in result.findings]
    if case.fixed is None:
        assert all(fix is None for fix in fixes)
        return
    edits = [e for fix in fixes if fix is not None for e in fix.edits]
    fixed = apply_edits(case.code, edits)
    assert fixed == case.fixed
    ast.parse(fixed)
    # once fixed, the rule is silent
    assert analyze(fixed, "case.py", only(rule)).findings == []


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.name)
def test_rule_documents_itself(rule):
    assert rule.code.startswith("SB") and rule.name == rule.name.lower()
    for part in (rule.summary, rule.why, rule.example, rule.use_instead, rule.fix_safety):
        assert part.strip()
    assert rule.VALID and rule.INVALID
    # the documented example is flagged, and what to use instead is not
    assert analyze(rule.example, "example.py", only(rule)).findings
    assert analyze(rule.use_instead, "example.py", only(rule)).findings == []
