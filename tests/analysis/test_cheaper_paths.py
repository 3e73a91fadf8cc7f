"""The cheaper ways some facts are now found give what the plain ways gave (issue 26, CLI CPU per line): the
suppressions' tokenizer pass is skipped only where it could report nothing, `unreached_functions` from the walk's
Name index equals the ast.walk it replaced, and an analysis leaves the garbage collector as it found it."""

from __future__ import annotations

import ast
import gc
from pathlib import Path

import pytest
from sharpbits.analysis import suppressions
from sharpbits.analysis.engine import Selection, analyze
from sharpbits.analysis.execution import Execution
from sharpbits.analysis.model import ModuleModel

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted((ROOT / "tests" / "corpus").rglob("*.py")) + sorted((ROOT / "examples").rglob("*.py"))

NOQA_TEXTS = [
    # other tools' codes and a bare noqa only: nothing SB001 could report, so no tokenizer pass is needed
    "import jax\nx = jax.numpy.zeros(3)  # noqa: E501\ny = 1  # noqa\n",
    # a misspelled code of ours in a comment, and one in a string only (not a comment: never reported)
    "import jax\nx = 1  # noqa: SB2O1\ns = '# noqa: SB2O1'\n",
    "s = '# noqa: SB2O1'\nt = 2  # noqa: E501\n",
    # an unused code of ours after a `#` in a string on the same line
    "s = '#'  # noqa: SB101\n",
    # a multi-line string that ends on the line of a finding's noqa
    'import jax\nkey = jax.random.key(0)\na = jax.random.normal(key, (2,))\nb = f("""\n{jax.random.normal(key, (2,))}\n""")  # noqa: SB201\n',
]


def _with_tokenizer_always(monkeypatch: pytest.MonkeyPatch, text: str) -> list[tuple[int, int, str, str]]:
    monkeypatch.setattr(suppressions, "_may_report", lambda source, ran: True)
    try:
        return [(f.line, f.column, f.code, f.message) for f in analyze(text, "t.py").findings]
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("text", NOQA_TEXTS)
def test_the_suppressions_shortcut_changes_no_finding(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    now = [(f.line, f.column, f.code, f.message) for f in analyze(text, "t.py").findings]
    assert now == _with_tokenizer_always(monkeypatch, text)


def test_foreign_noqa_codes_need_no_tokenizer_pass() -> None:
    suppressions._last_tokens = None
    analyze(NOQA_TEXTS[0], "t.py")
    assert suppressions._last_tokens is None  # never tokenized
    analyze(NOQA_TEXTS[1], "t.py")
    assert suppressions._last_tokens is not None  # a code of ours: tokenized, as before


def _unreached_by_walking(model: ModuleModel) -> set[str]:
    """The implementation `unreached_functions` had: an ast.walk of every reached statement."""
    functions = {name: fn.node for name, fn in model.scopes.module_functions.items()
                 if isinstance(fn.node, ast.FunctionDef | ast.AsyncFunctionDef)}
    run = {name for name, node in functions.items() if node.decorator_list or name.startswith("test")}
    work: list[ast.AST] = [s for s in model.tree.body if not isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
    work += [functions[name] for name in run]
    while work:
        for node in ast.walk(work.pop()):
            if isinstance(node, ast.Name) and node.id in functions and node.id not in run:
                run.add(node.id)
                work.append(functions[node.id])
    return set(functions) - run


def test_unreached_functions_are_those_the_walk_found() -> None:
    assert CORPUS
    unreached_somewhere = False
    for path in CORPUS:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, ValueError, UnicodeDecodeError):
            continue
        model = ModuleModel(tree)
        found = model.fact(Execution).unreached_functions()
        assert found == _unreached_by_walking(model), path
        unreached_somewhere = unreached_somewhere or bool(found)
    assert unreached_somewhere  # the comparison saw both answers


def test_unreached_functions_follow_calls_from_top_level_code() -> None:
    text = ("def a():\n    b()\n\ndef b():\n    pass\n\ndef lib():\n    pass\n\n@deco\ndef cmd():\n    c()\n\n"
            "def c():\n    pass\n\nif __name__ == '__main__':\n    a()\n")
    assert ModuleModel(ast.parse(text)).fact(Execution).unreached_functions() == {"lib"}


@pytest.mark.parametrize("enabled", [True, False])
def test_an_analysis_leaves_the_garbage_collector_as_it_found_it(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        analyze("import jax\nx = jax.numpy.zeros(3)\n", "t.py", Selection())
        analyze("def broken(:\n", "t.py")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_an_analysis_leaves_no_cycle_to_the_collector() -> None:
    """`analyze` frees its tree and model by reference counting (engine._analyze_parsed's `release`): no reference
    cycle may reach them (a fact's helper holding its fact, a recursive closure holding the model), or the cycle
    collector walks every object of every analysis again (0.4x `ast.parse` of a file with fixable findings)."""
    was = gc.isenabled()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector frees is kept in gc.garbage instead
    try:
        for path in CORPUS:
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            result = analyze(text, str(path), Selection())
            assert all(f.fix_title is not None for f in result.findings)  # (read, as a caller does)
            del result
        gc.collect()
        left = {getattr(obj, "__qualname__", type(obj).__qualname__) for obj in gc.garbage
                if isinstance(obj, ast.AST) or type(obj).__module__.startswith("sharpbits") or (
                    type(obj).__name__ == "function" and obj.__module__.startswith("sharpbits"))}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        (gc.enable if was else gc.disable)()
    assert not left, left
