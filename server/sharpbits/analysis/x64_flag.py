"""What one module's text says about JAX's x64 flag at import (read statically, never imported): whether its
module-level code turns `jax_enable_x64` on, whether a pytest hook or autouse fixture of it does (conftest files),
and which modules its module-level imports run. The project index keeps these in each module's shape (so a result
cache notices when they change); `x64_reach.py` follows them through a project's imports and conftest files.
"""

from __future__ import annotations

import ast
import hashlib
import threading
import warnings
from dataclasses import dataclass

from sharpbits.analysis.parsing import parse_module
from sharpbits.analysis.syntax import walk_nodes

_HOOKS = {"pytest_configure", "pytest_sessionstart", "pytest_collection", "pytest_load_initial_conftests"}
_TRUTHY = {True, "1", "true", "True", "TRUE"}  # True == 1: a literal 1 counts too


@dataclass(frozen=True)
class X64Facts:
    """What one module's text says about the x64 flag at import."""

    enables: bool  # a module-level statement turns the flag on (runs when the module is imported)
    hook_enables: bool  # a pytest hook or autouse fixture of it turns the flag on (conftest files)
    imports: tuple[str, ...]  # modules its module-level imports run, absolute (`a`, `a.b`, `a.b.c`, ...)
    # its module-level functions that may turn the flag on (`def configure(precision): ... update(..., True)`)
    setters: tuple[str, ...] = ()
    # names it imports (`from a.b import f as g`): (local name, absolute module, name there)
    imported: tuple[tuple[str, str, str], ...] = ()
    # module-level calls of imported functions (`configure()` after `from .runtime import configure`): what runs
    # at import if that function is a setter of its module: (absolute module, name there)
    calls: tuple[tuple[str, str], ...] = ()


_facts_cache: dict[tuple[str, str, bool], X64Facts] = {}
_lock = threading.Lock()


def x64_facts(text: str, module: str, is_package: bool) -> X64Facts:
    """The X64Facts of a module's source text (kept by its digest: read once per text)."""
    key = (hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest(), module, is_package)
    with _lock:
        found = _facts_cache.get(key)
    if found is not None:
        return found
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = parse_module(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        facts = X64Facts(False, False, ())
    else:
        facts = facts_of_tree(tree, module, is_package)
    with _lock:
        _facts_cache[key] = facts
    return facts


def facts_of_tree(tree: ast.Module, module: str, is_package: bool) -> X64Facts:
    package = module if is_package else module.rpartition(".")[0]
    enables = hook_enables = False
    imports: list[str] = []
    imported: dict[str, tuple[str, str]] = {}
    called: list[str] = []
    # functions of the module that turn the flag on somewhere in their body (`def set_precision(mode): if mode ==
    # "float64": jax.config.update("jax_enable_x64", True)`): a module-level call of one runs it at import, and
    # whichever branch it takes the flag may be on (silence over a guess)
    # (a class counts when one of its methods does: nlsq's module-level `_config = JAXConfig()`, whose `__init__`
    # runs the method that turns the flag on)
    setters = {n.name for n in tree.body
               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _enables_in(n)}
    stack: list[ast.AST] = list(tree.body)
    while stack:  # the statements that run at import: module level, inside if/try/with/for blocks
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if (node.name in _HOOKS or _autouse_fixture(node)) and _enables_in(node):
                hook_enables = True
            continue
        if isinstance(node, ast.ClassDef):
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                imports.extend(_with_parents(alias.name))
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            if base:
                imports.extend(_with_parents(base))
                imports.extend(f"{base}.{a.name}" for a in node.names if a.name != "*")  # submodules, if any
                imported.update({a.asname or a.name: (base, a.name) for a in node.names if a.name != "*"})
        elif (isinstance(node, ast.stmt) and _enables(node)) or (
                setters and isinstance(node, (ast.Expr, ast.Assign)) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id in setters):
            enables = True
        elif (isinstance(node, (ast.Expr, ast.Assign)) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)):
            called.append(node.value.func.id)  # (the walk goes backwards: resolved once every import is read)
        for block in ("body", "orelse", "finalbody", "handlers"):
            if isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While, ast.ExceptHandler)) or (
                    isinstance(node, ast.stmt) and type(node).__name__ == "TryStar"):
                stack.extend(getattr(node, block, []) or [])
    calls = [imported[name] for name in reversed(called) if name in imported]
    return X64Facts(enables, hook_enables, tuple(dict.fromkeys(imports)), tuple(sorted(setters)),
                    tuple((local, *where) for local, where in imported.items()), tuple(dict.fromkeys(calls)))


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def _absolute(node: ast.ImportFrom, package: str) -> str:
    base = node.module or ""
    if not node.level:
        return base
    parts = package.split(".") if package else []
    if node.level - 1 > len(parts):
        return ""
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, *([base] if base else [])])


def _autouse_fixture(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for deco in fn.decorator_list:
        if isinstance(deco, ast.Call) and any(
                kw.arg == "autouse" and isinstance(kw.value, ast.Constant) and kw.value.value is True
                for kw in deco.keywords):
            return True
    return False


def _enables_in(fn: ast.AST) -> bool:
    return any(isinstance(n, ast.stmt) and _enables(n) for n in walk_nodes(fn))


def _enables(stmt: ast.stmt) -> bool:
    """`jax.config.update("jax_enable_x64", True)` or `jax.config.jax_enable_x64 = True` (this statement only,
    not the blocks inside it)."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        if not isinstance(call.func, ast.Attribute) or len(call.args) < 2 or not isinstance(call.args[0], ast.Constant):
            return False
        if call.func.attr == "update":
            return call.args[0].value == "jax_enable_x64" and _truthy(call.args[1])
        # `os.environ.setdefault("JAX_ENABLE_X64", "true")` before JAX is imported (a conftest's first lines)
        return (call.func.attr == "setdefault" and _environ(call.func.value)
                and call.args[0].value == "JAX_ENABLE_X64" and _truthy(call.args[1]))
    if isinstance(stmt, ast.Assign):
        return _truthy(stmt.value) and any(
            (isinstance(t, ast.Attribute) and t.attr == "jax_enable_x64") or (
                isinstance(t, ast.Subscript) and _environ(t.value) and isinstance(t.slice, ast.Constant)
                and t.slice.value == "JAX_ENABLE_X64") for t in stmt.targets)
    return False


def _environ(node: ast.AST) -> bool:
    """`os.environ` (or `environ` imported from os)."""
    return (isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name)
            and node.value.id == "os") or (isinstance(node, ast.Name) and node.id == "environ")


def _truthy(value: ast.AST) -> bool:
    """A value that turns the flag on, or may: a truthy literal, or any expression (`precision == "float64"`,
    `args.x64`) whose value a setting decides (what the program then does is unknown: silence over a guess)."""
    if isinstance(value, ast.Constant):
        return not isinstance(value.value, float) and value.value in _TRUTHY
    return not isinstance(value, (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.Lambda))
