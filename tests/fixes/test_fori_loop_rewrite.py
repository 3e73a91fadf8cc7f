"""The fori_loop rewrite, proven by execution: same outputs, no loop left, fewer jaxpr equations; refusals leave
the source untouched and say why."""

import ast
import types

import jax
import numpy as np
import pytest
from sharpbits.analysis.engine import Selection, analyze
from sharpbits.check_command import fix_text
from sharpbits.findings import apply_edits

from .loop_cases import REFUSE, REWRITE, WHILE_REWRITE

LOOPS = Selection(select=frozenset({"python-loop-in-jit"}))
# a `while` on a traced value is traced-control-flow's finding, which carries the same lax.while_loop rewrite
WHILE_LOOPS = Selection(select=frozenset({"python-loop-in-jit", "traced-control-flow"}))


def load(source: str, name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    return module


def count_eqns(jaxpr) -> int:
    from jax.extend.core import jaxprs_in_params

    total = 0
    for eqn in jaxpr.eqns:
        total += 1
        for sub in jaxprs_in_params(eqn.params):
            total += count_eqns(sub)
    return total


def unjitted(fn):
    return getattr(fn, "__wrapped__", fn)


def rewrite(source: str, selection: Selection = LOOPS) -> str:
    result = analyze(source, "case.py", selection)
    marked = [f for f in result.findings if "# rewrite" in source.splitlines()[f.line - 1]]
    finding = (marked or result.findings)[0]
    fix = finding.fix()
    assert fix is not None, finding.message
    return apply_edits(source, fix.edits)


@pytest.mark.parametrize(("name", "source"), REWRITE, ids=[c[0] for c in REWRITE])
def test_rewrite_keeps_the_result(name, source):
    new = rewrite(source)
    tree, new_tree = ast.parse(source), ast.parse(new)
    loops = lambda t: sum(isinstance(n, ast.For) for n in ast.walk(t))  # noqa: E731
    assert loops(new_tree) == loops(tree) - 1, new
    assert "fori_loop(" in new
    original, rewritten = load(source, f"orig_{name}"), load(new, f"new_{name}")
    args = original.ARGS
    expected, got = original.f(*args), rewritten.f(*args)
    for e, g in zip(jax.tree.leaves(expected), jax.tree.leaves(got), strict=True):
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=1e-5, atol=1e-5)
        assert np.asarray(g).dtype == np.asarray(e).dtype and np.shape(g) == np.shape(e)
    before = count_eqns(jax.make_jaxpr(unjitted(original.f), static_argnums=_static(original))(*args).jaxpr)
    after = count_eqns(jax.make_jaxpr(unjitted(rewritten.f), static_argnums=_static(original))(*args).jaxpr)
    assert after < before, (before, after)
    # the rewritten loop is no longer reported
    assert len(analyze(new, "case.py", LOOPS).findings) == len(analyze(source, "case.py", LOOPS).findings) - 1


def _static(module) -> tuple[int, ...]:
    return tuple(i for i, a in enumerate(module.ARGS) if isinstance(a, int | str))


@pytest.mark.parametrize(("name", "source", "reason"), REFUSE, ids=[c[0] for c in REFUSE])
def test_refusals_leave_the_source_untouched(name, source, reason):
    findings = analyze(source, "case.py", LOOPS).findings
    assert findings, "the loop should still be reported"
    assert all(not f.fixable for f in findings)
    assert any("no automatic rewrite" in f.message and reason in f.message for f in findings), [f.message for f in findings]
    new, applied, error = fix_text(source, "case.py", LOOPS, unsafe=True)
    assert (new, applied, error) == (source, 0, None)


def test_corpus_size():
    assert len(REWRITE) >= 30 and len(REFUSE) >= 10


def test_cli_applies_the_rewrite(tmp_path, run_cli):
    _, source = REWRITE[0]
    path = tmp_path / "m.py"
    path.write_text(source)
    out = run_cli("check", "--fix", "--unsafe-fixes", "--select", "python-loop-in-jit", str(path))
    assert out.returncode == 0, out.stdout
    assert "    total = lax.fori_loop(1, x.shape[0], loop_body, total)\n" in path.read_text()
    # safe fixes alone do not touch it (the rewrite is unsafe)
    path.write_text(source)
    run_cli("check", "--fix", "--select", "python-loop-in-jit", str(path))
    assert path.read_text() == source


@pytest.mark.parametrize(("name", "source"), WHILE_REWRITE, ids=[c[0] for c in WHILE_REWRITE])
def test_while_rewrite_keeps_the_result(name, source):
    new = rewrite(source, WHILE_LOOPS)
    assert "while_loop(" in new and not any(isinstance(n, ast.While) for n in ast.walk(ast.parse(new)))
    original, rewritten = load(source, f"orig_{name}"), load(new, f"new_{name}")
    # a `while` on a traced value cannot run under jit at all: compare with the function run eagerly
    expected, got = unjitted(original.f)(*original.ARGS), rewritten.f(*original.ARGS)
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-5, atol=1e-5)
