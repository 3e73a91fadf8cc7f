"""SB401 global-captured-in-jit: a traced function reads a module-level name whose value can change."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from sharpbits.analysis.model import FunctionInfo, Kind, ModuleModel
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.findings import Fix, TextEdit

_MUTATING_METHODS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem",
                     "add", "discard", "sort", "reverse", "__setitem__"}


@dataclass
class Change:
    line: int
    how: str  # "reassigned", "written through `global` in `f`", "mutated"
    in_function: bool  # made by a function (runs at any time) rather than by module-level code (runs once, in order)


def _module_level_statements(tree: ast.Module):
    """Statements that run at module level: the body, and the bodies of module-level if/for/while/try/with."""
    stack: list[ast.stmt] = list(reversed(tree.body))
    while stack:
        stmt = stack.pop()
        yield stmt
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            stack.extend(reversed(getattr(stmt, field, []) or []))
        for handler in getattr(stmt, "handlers", []) or []:
            stack.extend(reversed(handler.body))


def _targets(stmt: ast.stmt) -> list[ast.AST]:
    if isinstance(stmt, ast.Assign):
        return list(stmt.targets)
    if isinstance(stmt, ast.AugAssign | ast.AnnAssign) and (not isinstance(stmt, ast.AnnAssign) or stmt.value):
        return [stmt.target]
    if isinstance(stmt, ast.For | ast.AsyncFor):
        return [stmt.target]
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return [item.optional_vars for item in stmt.items if item.optional_vars is not None]
    return []


def _stored_names(target: ast.AST) -> list[ast.Name]:
    return [n for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


class _Globals:
    """Module-level names and how they can change after a function is traced."""

    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.bindings: dict[str, list[ast.stmt]] = {}
        self.kinds: dict[str, str] = {}  # name -> "value" | "def" | "import"
        self.changes: dict[str, list[Change]] = {}
        self.containers: set[str] = set()
        for stmt in _module_level_statements(model.tree):
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self.kinds[stmt.name] = "def"
                self.bindings.setdefault(stmt.name, []).append(stmt)
            elif isinstance(stmt, ast.Import | ast.ImportFrom):
                for alias in stmt.names:
                    self.kinds[(alias.asname or alias.name).split(".")[0]] = "import"
            for target in _targets(stmt):
                for stored in _stored_names(target):
                    self.kinds.setdefault(stored.id, "value")
                    self.bindings.setdefault(stored.id, []).append(stmt)
                    if isinstance(stmt, ast.For | ast.AsyncFor | ast.AugAssign):
                        self.bindings[stored.id].append(stmt)  # a loop or `+=` rebinds it again
            if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None and _is_mutable(stmt.value, model):
                for target in _targets(stmt):
                    if isinstance(target, ast.Name):
                        self.containers.add(target.id)
        for name, stmts in self.bindings.items():
            if self.kinds.get(name) == "value" and len(stmts) > 1:
                for stmt in stmts[1:]:
                    self.changes.setdefault(name, []).append(Change(stmt.lineno, "reassigned", False))
        for node in model.nodes(ast.Global):
            fn = model.enclosing_function(node)
            if fn is not None:
                self._global_writes(fn, set(node.names))  # type: ignore[attr-defined]
        self._mutations()

    def _global_writes(self, fn: FunctionInfo, declared: set[str]) -> None:
        for node in self.model.own_nodes(fn):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del) and node.id in declared:
                self.changes.setdefault(node.id, []).append(Change(node.lineno, f"written through `global` in `{fn.name}`", True))

    def _mutations(self) -> None:
        for node in self.model.nodes(ast.Subscript, ast.Attribute, ast.Call):
            base: ast.AST | None = None
            if isinstance(node, ast.Subscript | ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
                base = node.value  # `config["relu"] = True`, `settings.clip = 10.0`, `MEAN[:] = ...`
                if not isinstance(base, ast.Name) or self.kinds.get(base.id) != "value":
                    continue
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in _MUTATING_METHODS):
                base = node.func.value
                if not isinstance(base, ast.Name) or base.id not in self.containers:
                    continue
            else:
                continue
            fn = self.model.enclosing_function(node)
            if fn is not None and self.model.is_local(base.id, fn):
                continue
            if fn is not None and _registers_its_argument(node, fn, self.model):
                continue
            self.changes.setdefault(base.id, []).append(Change(getattr(node, "lineno", 0), "mutated", fn is not None))

    def change_after(self, name: str, fn: FunctionInfo) -> Change | None:
        """A change that can happen after `fn` captured the global. A function that writes it can run at any
        time. Module-level code runs once, in order: its change is stale only when the traced function was
        called (traced) before it and is called again after it; set-up at import time (a registry filled, a
        table built, a flag defined) and scripts that rebind a global after its last traced use are fine."""
        calls: list[int] | None = None
        for change in self.changes.get(name, []):
            if change.in_function:
                return change
            if calls is None:
                calls = self._module_level_calls(fn)
            loop = self._enclosing_loop(change.line)
            in_loop = loop is not None and any(loop[0] <= line <= loop[1] for line in calls)
            if in_loop or (any(line < change.line for line in calls) and any(line > change.line for line in calls)):
                return change
        return None

    def _enclosing_loop(self, line: int) -> tuple[int, int] | None:
        """The line span of the module-level loop that holds this line (a loop repeats what comes after)."""
        for stmt in self.model.tree.body:
            if isinstance(stmt, ast.For | ast.While | ast.AsyncFor) and stmt.lineno <= line <= (stmt.end_lineno or 0):
                return stmt.lineno, stmt.end_lineno or stmt.lineno
        return None

    def _module_level_calls(self, fn: FunctionInfo) -> list[int]:
        """Lines of the module-level calls that run `fn`: calls of it, of the functions it is reached from, and
        of module-level `g = jax.jit(f)` aliases of those."""
        model = self.model
        names: set[str] = set()
        seen = {id(fn)}
        work = [fn]
        while work:
            cur = work.pop()
            if cur.parent is None and not isinstance(cur.node, ast.Lambda):
                names.add(cur.name)
            reached_from = [caller for caller, _ in model.calls_from_traced(cur)]
            for site in cur.traces:  # a lax.scan body is run by the function that calls lax.scan
                runner = model.enclosing_function(site.node) if site.node is not None else None
                if runner is not None:
                    reached_from.append(runner)
            if cur.parent is not None:
                reached_from.append(cur.parent)
            for caller in reached_from:
                if id(caller) not in seen:
                    seen.add(id(caller))
                    work.append(caller)
        for stmt in model.tree.body:
            if (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and stmt.value.args
                    and isinstance(stmt.value.args[0], ast.Name) and stmt.value.args[0].id in names):
                names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        lines = []
        for node in model.own_nodes(None):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Call) and func.args:  # jax.jit(f)(x)
                func = func.args[0]
            if isinstance(func, ast.Name) and func.id in names:
                lines.append(node.lineno)
        return lines


def _registers_its_argument(node: ast.AST, fn: FunctionInfo, model: ModuleModel) -> bool:
    """The registry idiom `def decorator(fn): REGISTRY[name] = fn; return fn`: entries are added once, at import,
    and read under jit by a static name; that is not a value that goes stale."""
    assign = model.parents.get(node)
    if not (isinstance(assign, ast.Assign) and isinstance(assign.value, ast.Name) and assign.value.id in fn.params):
        return False
    if isinstance(fn.node, ast.Lambda):
        return False
    returns = [n for n in model.own_nodes(fn) if isinstance(n, ast.Return)]
    return bool(returns) and all(isinstance(r.value, ast.Name) and r.value.id == assign.value.id for r in returns)


def _is_mutable(value: ast.AST, model: ModuleModel) -> bool:
    if isinstance(value, ast.List | ast.Dict | ast.Set | ast.ListComp | ast.DictComp | ast.SetComp):
        return True
    if model.kind_of(value, None) is Kind.NUMPY:  # NumPy arrays are filled in place: `MEAN[:] = ...`
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("dict", "list", "set")


class GlobalCapturedInJit(Rule):
    code = "SB401"
    name = "global-captured-in-jit"
    severity = "warning"
    summary = "Flags a traced function reading a module-level name that is reassigned, written via `global`, or mutated."
    why = """
`jit` runs the Python function once, at trace time, and bakes the values of the globals it reads into the compiled
program as constants. If the global changes later — reassigned further down the module, written through `global`
from a function, or a dict/list that is mutated (`config["relu"] = True`) — the compiled function keeps using
the old value until something forces a retrace. No error, just stale results.

Constants assigned once, modules, functions and classes are fine and never flagged.
"""
    example = """
import jax

scale = 1.0

@jax.jit
def apply(x):
    return x * scale

def set_scale(value):
    global scale
    scale = value
"""
    use_instead = """
import jax

scale = 1.0

@jax.jit
def apply(x, scale):
    return x * scale

def set_scale(value):
    global scale
    scale = value
"""
    fix_safety = """
The fix adds the global as the function's last parameter and passes it at every call of the function in this
module, so the current value is an argument at each call. It is **unsafe**: callers in other modules must pass it
too, and a value that must stay a Python constant (a shape, a flag used in `if`) then needs `static_argnames`.
Offered only for functions decorated directly and called by name in this module.
"""
    VALID = [
        # set-up at import time: a table built in place, then used by traced code
        "import jax\nimport numpy as np\nTABLE = np.zeros((8, 8))\nfor i in range(8):\n    TABLE[i, i] = 1.0\n"
        "@jax.jit\ndef f(x):\n    return TABLE @ x\n",
        # a script that rebinds a global after its last traced use
        "import jax\nscale = 1.0\n@jax.jit\ndef apply(x):\n    return x * scale\nprint(apply(1.0))\nscale = 2.0\n"
        "print(scale)\n",
        # a constant assigned once
        "import jax\nLR = 0.1\n@jax.jit\ndef step(w, g):\n    return w - LR * g\n",
        # modules, functions, classes
        "import jax\nimport jax.numpy as jnp\ndef act(x):\n    return jnp.tanh(x)\n@jax.jit\ndef f(x):\n    return act(x)\n",
        # reassigned only before the function is defined
        "import jax\nsize = 3\nsize = size * 2\n@jax.jit\ndef f(x):\n    return x * size\n",
        # a local shadows the global
        "import jax\nscale = 1.0\n@jax.jit\ndef f(x, scale):\n    return x * scale\nscale = 2.0\n",
        # an eager function may read changing globals
        "counter = 0\ndef bump():\n    global counter\n    counter += 1\n    return counter\n",
        # a registry filled by decorators at import time
        "import jax\nREGISTRY = {}\ndef register(name):\n    def decorator(fn):\n        REGISTRY[name] = fn\n        return fn\n"
        "    return decorator\n@register('relu')\ndef relu(x):\n    return x\n"
        "@jax.jit\ndef apply(x):\n    return REGISTRY['relu'](x)\n",
    ]
    INVALID = [
        Invalid(
            "import jax\nscale = 1.0\n@jax.jit\ndef apply(x):\n    return x * scale\ny = apply(1.0)\nscale = 2.0\n"
            "z = apply(1.0)\n",
            fixed="import jax\nscale = 1.0\n@jax.jit\ndef apply(x, scale):\n    return x * scale\ny = apply(1.0, scale)\n"
            "scale = 2.0\nz = apply(1.0, scale)\n",
        ),
        Invalid(
            "import jax\nconfig = {'relu': False}\ndef f(x):\n    return jax.nn.relu(x) if config['relu'] else x\n"
            "g = jax.jit(f)\nprint(g(-1.0))\nconfig['relu'] = True\nprint(g(-1.0))\n",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\ntemperature = 1.0\n@jax.vmap\ndef soft(x):\n    return jnp.exp(x / temperature)\n"
            "def set_temperature(t):\n    global temperature\n    temperature = t\n",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        if not any(True for _ in model.traced_functions()):
            return
        info = _Globals(model)
        if not info.changes:
            return
        for fn in model.traced_functions():
            seen: set[str] = set()
            for node in sorted((n for n in model.own_nodes(fn) if isinstance(n, ast.Name)),
                               key=lambda n: (n.lineno, n.col_offset)):
                if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load) or node.id in seen:
                    continue
                if info.kinds.get(node.id) != "value" or model.is_local(node.id, fn):
                    continue
                change = info.change_after(node.id, fn)
                if change is None:
                    continue
                seen.add(node.id)
                ctx.report(
                    node,
                    f"`{fn.name}` ({fn.trace_reason}) reads the global `{node.id}`, which is {change.how} at line "
                    f"{change.line}: its value is baked in at trace time and later changes are ignored; "
                    "pass it as an argument",
                    _fix(ctx, fn, node.id),
                    fix_title=f"pass `{node.id}` as an argument",
                )


def _fix(ctx: RuleContext, fn: FunctionInfo, name: str):
    """Adds `name` as the last parameter and to every direct call in the module."""
    node = fn.node
    model, source = ctx.model, ctx.source
    if isinstance(node, ast.Lambda) or fn.parent is not None:
        return None
    a = node.args
    # jit takes the new argument as it is; vmap/grad/pmap would map or differentiate over it
    if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or any(
        t.transform != "jax.jit" or t.node not in node.decorator_list for t in fn.traces
    ):
        return None
    calls = []
    for other in model.nodes(ast.Name):
        if isinstance(other, ast.Name) and other.id == fn.name and isinstance(other.ctx, ast.Load):
            parent = model.parents.get(other)
            if not (isinstance(parent, ast.Call) and parent.func is other):
                return None  # used as a value: its callers cannot all be found
            if any(isinstance(x, ast.Starred) for x in parent.args) or any(k.arg is None for k in parent.keywords):
                return None
            calls.append(parent)
    params = [*a.posonlyargs, *a.args]
    if not params:
        return None

    def after(n: ast.AST) -> tuple[int, int]:
        return n.end_lineno, source.char_column(n.end_lineno, n.end_col_offset)  # type: ignore[attr-defined]

    def build() -> Fix | None:
        edits = []
        line, col = after(params[-1])
        edits.append(TextEdit(line, col + 1, line, col + 1, f", {name}"))
        for call in calls:
            last = [*call.args, *call.keywords]
            if last:
                if call.keywords:
                    return None
                line, col = after(call.args[-1])
                edits.append(TextEdit(line, col + 1, line, col + 1, f", {name}"))
            else:
                line, col = after(call)
                edits.append(TextEdit(line, col, line, col, name))
        return Fix(safe=False, description=f"Pass `{name}` as an argument of `{fn.name}`", edits=tuple(edits))

    return build
