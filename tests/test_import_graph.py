"""No import cycle anywhere in the `sharpbits` package.

The graph is read from the source with `ast`, not from what Python happens to import at run time. What counts:
every import that can run, wherever it is: at module level, inside a function or method (the usual way to dodge
a cycle at import time, which leaves the cycle in the design: it still counts), under any `if`/`try`. What does
not count: imports under `if TYPE_CHECKING:`, which never run and only name types for annotations (two modules
whose annotations mention each other are not layered wrongly by that alone). `test_type_only_cycles` lists the
cycles that exist only through them, so they are seen and can be removed one by one.

An edge goes from a module to each `sharpbits` module it names: `from a.b import c` names `a.b.c` when that is a
module and `a.b` otherwise; a relative import is resolved against the package. Importing a module also runs its
packages' `__init__`; those implicit edges are not counted, so a package `__init__` must not import the package's
own modules (lsp/features/__init__.py imports none; lsp/server.py composes the features).
"""

from __future__ import annotations

import ast
from pathlib import Path

import sharpbits

ROOT = Path(sharpbits.__file__).parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in ROOT.rglob("*.py")}


def _type_checking_only(tree: ast.Module) -> set[int]:
    """ids of the import nodes under `if TYPE_CHECKING:` (or `if typing.TYPE_CHECKING:`)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def imports_of(name: str, path: Path, known: set[str], type_checking: bool = True) -> set[str]:
    """The sharpbits modules `name` imports, anywhere in its source (with `type_checking` False: leaving out the
    imports under `if TYPE_CHECKING:`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skip = set() if type_checking else _type_checking_only(tree)
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # `import sharpbits.a.b` names a.b; `a.b.Class` names a.b
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def graph(type_checking: bool = True) -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports_of(name, path, known, type_checking) for name, path in found.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle as [a, b, ..., a], or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_reader_counts_imports_inside_functions_and_tells_type_checking_ones_apart(tmp_path):
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from sharpbits.config import Config\n"
              "def f():\n    from sharpbits import findings\n    import sharpbits.source as s\n"
              "from .analysis.engine import analyze\n")
    path = tmp_path / "probe.py"
    path.write_text(source)
    known = set(modules())
    assert imports_of("sharpbits.probe", path, known, type_checking=False) == {
        "sharpbits.findings", "sharpbits.source", "sharpbits.analysis.engine"}
    assert "sharpbits.config" in imports_of("sharpbits.probe", path, known)
    edges = graph(type_checking=False)
    assert "sharpbits.lsp.notebooks" in edges["sharpbits.lsp.language_server"]
    assert "sharpbits.lsp.language_server" in edges["sharpbits.lsp.features.hover"]


def test_the_cycle_finder():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_no_import_cycle_in_the_package():
    cycle = find_cycle(graph(type_checking=False))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


# Cycles only through `if TYPE_CHECKING:` imports (annotations), as strongly connected sets of modules. The analysis
# core's are its mixin tower naming each other's types (issue 21 replaces it); fix_check names findings' types.
TYPE_ONLY_CYCLES = {
    frozenset({"sharpbits.findings", "sharpbits.fix_check"}),
    # annotations only: a fact names the ModuleModel that builds it, the model names the Reusable it is given
    frozenset({"sharpbits.analysis.effects", "sharpbits.analysis.execution", "sharpbits.analysis.facts",
               "sharpbits.analysis.globals", "sharpbits.analysis.kinds", "sharpbits.analysis.model", "sharpbits.analysis.records",
               "sharpbits.analysis.reuse", "sharpbits.analysis.scopes", "sharpbits.analysis.traced",
               "sharpbits.analysis.tracers"}),
    frozenset({"sharpbits.analysis.rules.prng_key_reuse.key_flow", "sharpbits.analysis.rules.prng_key_reuse.reuse"}),
}


def strongly_connected(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """The sets of two or more modules that import each other (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: set[frozenset[str]] = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                out.add(frozenset(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return out


def test_type_only_cycles():
    """No new cycle through annotations either; a listed one that is gone must leave the list."""
    assert strongly_connected(graph(type_checking=True)) == TYPE_ONLY_CYCLES


def test_language_server_features_never_import_each_other():
    edges = graph()
    features = {name for name in edges if name.startswith("sharpbits.lsp.features.")}
    for name in features:
        assert not (edges[name] & features), f"{name} imports another feature: {sorted(edges[name] & features)}"
        assert "sharpbits.lsp.server" not in edges[name]  # the composition imports the features, not the reverse
    assert not any(name.startswith("sharpbits.lsp.features") for name in edges["sharpbits.lsp.language_server"])
