"""project_index._breadth_first is `ast.walk` (same nodes, same order) less the leaves it skips."""

from __future__ import annotations

import ast
from pathlib import Path

from sharpbits.analysis.project_index import _breadth_first

ROOT = Path(__file__).resolve().parents[2]
LEAVES = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop, ast.alias)


def test_breadth_first_is_ast_walk_without_leaves() -> None:
    files = sorted((ROOT / "tests" / "corpus").rglob("*.py"))[:150] + sorted((ROOT / "server").rglob("*.py"))[:40]
    assert files
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert _breadth_first(tree) == [n for n in ast.walk(tree) if not isinstance(n, LEAVES)], path
