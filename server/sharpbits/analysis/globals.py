"""Globals that change: which module-level names (and class attributes) can take a new value after a traced
function captured them. `jit` bakes a global's value in at trace time, so a change made later is silently
ignored; module-level set-up that runs before the first trace (tables, registries, flags) is not such a change.
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sharpbits.analysis.effects import SideEffects
from sharpbits.analysis.facts import Fact
from sharpbits.analysis.flow import statement_lists
from sharpbits.analysis.kinds import Kind, ValueKinds
from sharpbits.analysis.scopes import FunctionInfo
from sharpbits.analysis.syntax import literal_int, walk_nodes

if TYPE_CHECKING:
    from sharpbits.analysis.model import ModuleModel

_MUTATING_METHODS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem",
                     "add", "discard", "sort", "reverse", "__setitem__"}


@dataclass
class Change:
    line: int
    how: str  # "reassigned", "written through `global` in `f`", "mutated"
    in_function: bool  # made by a function (runs at any time) rather than by module-level code (runs once, in order)
    attribute: str | None = None  # `FLAGS.verbose = True` changes `FLAGS.verbose`, not the other attributes of FLAGS
    writer: FunctionInfo | None = None  # the function that makes the change, when one does
    node: ast.AST | None = None  # the statement that makes it


def _module_level_statements(tree: ast.Module):
    """Statements that run at module level: the body, and the blocks of module-level compound statements."""
    stack: list[ast.stmt] = list(reversed(tree.body))
    while stack:
        stmt = stack.pop()
        yield stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for block in statement_lists(stmt):  # (popped last block first, as it always was)
            stack.extend(reversed(block))


def _targets(stmt: ast.stmt) -> list[ast.AST]:
    if isinstance(stmt, ast.Assign):
        return list(stmt.targets)
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and (not isinstance(stmt, ast.AnnAssign) or stmt.value):
        return [stmt.target]
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [stmt.target]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [item.optional_vars for item in stmt.items if item.optional_vars is not None]
    return []


def _may_mutate(node: ast.AST) -> bool:
    """From its syntax alone: a store into a subscript or attribute (`config["relu"] = True`, `del x.y`), or a
    call of a mutating method (`x.append(...)`). Most subscripts and attributes are reads."""
    if type(node) is ast.Call:
        func = node.func  # type: ignore[attr-defined]
        return type(func) is ast.Attribute and func.attr in _MUTATING_METHODS
    return type(node.ctx) is not ast.Load  # type: ignore[attr-defined]


def _stored_names(target: ast.AST) -> list[ast.Name]:
    return [n for n in walk_nodes(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


# Test set-up hooks that run once, before the tests of their module or class.
_ONCE_SETUP_HOOKS = {"setUpModule", "setUpClass", "setup_module", "setup_class"}


class _Globals:
    """Module-level names and how they can change after a function is traced."""

    def __init__(self, model: GlobalChanges) -> None:
        # (a weak reference: `model` holds this object, and a cycle would leave the whole analysis to the cycle
        # collector instead of reference counting, see engine.analyze)
        self.model = weakref.proxy(model)
        self.bindings: dict[str, list[ast.stmt]] = {}
        self.kinds: dict[str, str] = {}  # name -> "value" | "def" | "import"
        self.changes: dict[str, list[Change]] = {}
        self.containers: set[str] = set()
        self.classes: set[str] = set()
        self._initialisers: dict[int, bool] = {}  # id(writer node) -> whether it computes what it writes afresh
        for stmt in _module_level_statements(model.scopes.tree):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.kinds[stmt.name] = "def"
                self.bindings.setdefault(stmt.name, []).append(stmt)
                if isinstance(stmt, ast.ClassDef):
                    self.classes.add(stmt.name)
                    for item in stmt.body:  # class attributes: `scale = 1.0` in the class body
                        for target in _targets(item):
                            if isinstance(target, ast.Name):
                                self.kinds[f"{stmt.name}.{target.id}"] = "value"
                                self.bindings.setdefault(f"{stmt.name}.{target.id}", []).append(item)
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                for alias in stmt.names:
                    self.kinds[(alias.asname or alias.name).split(".")[0]] = "import"
            for target in _targets(stmt):
                for stored in _stored_names(target):
                    self.kinds.setdefault(stored.id, "value")
                    self.bindings.setdefault(stored.id, []).append(stmt)
                    if isinstance(stmt, (ast.For, ast.AsyncFor, ast.AugAssign)):
                        self.bindings[stored.id].append(stmt)  # a loop or `+=` rebinds it again
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None and _is_mutable(stmt.value, model.kinds):
                for target in _targets(stmt):
                    if isinstance(target, ast.Name):
                        self.containers.add(target.id)
        for name, stmts in self.bindings.items():
            if self.kinds.get(name) == "value" and len(stmts) > 1:
                for stmt in stmts[1:]:
                    self.changes.setdefault(name, []).append(Change(stmt.lineno, "reassigned", False))
        for node in model.scopes.nodes(ast.Global):
            fn = model.scopes.enclosing_function(node)
            if fn is not None:
                self._global_writes(fn, set(node.names))  # type: ignore[attr-defined]
        self._mutations()

    def _global_writes(self, fn: FunctionInfo, declared: set[str]) -> None:
        for node in self.model.scopes.own_nodes(fn):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)) and node.id in declared:
                if self.model.effects.is_side_effect(node) or self.model.effects.once_only_init(node, fn):
                    continue  # traced code writing a global: one hazard, reported by side-effect-in-jit; or a
                    # lazy initialisation (`if _CACHE is None: _CACHE = ...`) that sets the value once
                self.changes.setdefault(node.id, []).append(Change(
                    node.lineno, f"written through `global` in `{fn.name}`", True, writer=fn,
                    node=self._statement_of(node)))

    def _statement_of(self, node: ast.AST) -> ast.AST | None:
        """The statement that holds a node (`A, B = ...` for the `B` of its tuple target)."""
        cur: ast.AST | None = node
        while cur is not None and not isinstance(cur, ast.stmt):
            cur = self.model.scopes.parents.get(cur)
        return cur

    def _mutations(self) -> None:
        for node in self.model.scopes.candidates("mutation candidates", (ast.Subscript, ast.Attribute, ast.Call),
                                          _may_mutate):
            base: ast.AST | None = None
            cls = type(node)
            if cls is not ast.Call and isinstance(node.ctx, (ast.Store, ast.Del)):  # type: ignore[attr-defined]
                base = node.value  # type: ignore[attr-defined]  # `config["relu"] = True`, `settings.clip = 10.0`, `MEAN[:] = ...`
                if (isinstance(node, ast.Attribute) and isinstance(base, ast.Name) and base.id in self.classes
                        and f"{base.id}.{node.attr}" in self.kinds):
                    fn = self.model.scopes.enclosing_function(node)
                    if fn is None or not self.model.scopes.is_local(base.id, fn):  # Config.scale = 2.0
                        self.changes.setdefault(f"{base.id}.{node.attr}", []).append(
                            Change(node.lineno, "reassigned", fn is not None))
                    continue
                if not isinstance(base, ast.Name) or self.kinds.get(base.id) != "value":
                    continue
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in _MUTATING_METHODS):
                base = node.func.value
                if not isinstance(base, ast.Name) or base.id not in self.containers:
                    continue
            else:
                continue
            fn = self.model.scopes.enclosing_function(node)
            if fn is not None and self.model.scopes.is_local(base.id, fn):
                continue
            if self.model.effects.is_side_effect(node):
                continue  # traced code storing into a global container: reported by side-effect-in-jit
            if fn is not None and _registers_its_argument(node, fn, self.model.kinds):
                continue
            if fn is not None and _memo_store(node, fn, self.model.kinds):
                continue
            attribute = node.attr if isinstance(node, ast.Attribute) else None
            self.changes.setdefault(base.id, []).append(
                Change(getattr(node, "lineno", 0), "mutated", fn is not None, attribute, writer=fn,
                       node=self._statement_of(node) if fn is not None else None))

    def is_value(self, name: str) -> bool:
        return self.kinds.get(name) == "value" and name in self.changes

    def change_after(self, name: str, fn: FunctionInfo, attribute: str | None = None,
                     ignore: Callable[[Change], bool] | None = None) -> Change | None:
        """A change that can happen after `fn` captured the global. A function that writes it can run at any
        time. Module-level code runs once, in order: its change is stale only when the traced function was
        called (traced) before it and is called again after it; set-up at import time (a registry filled, a
        table built, a flag defined) and scripts that rebind a global after its last traced use are fine."""
        calls: list[int] | None = None
        for change in self.changes.get(name, []):
            if attribute is not None and change.attribute is not None and change.attribute != attribute:
                continue  # another attribute of the object was set: the one read keeps its value
            if ignore is not None and ignore(change):
                continue
            if change.in_function:
                if change.writer is not None and self._before_any_trace(change, fn):
                    continue  # set once before anything is traced: a set-up, not a change
                if (change.writer is not None and change.how.startswith("written through")
                        and self._fills_placeholder(name, change.writer, fn)):
                    continue  # an initialiser rebinding it writes the same value every time it runs (a mutation
                    # such as `.clear()` still changes it)
                return change
            if calls is None:
                calls = self._module_level_calls(fn)
            loop = self._enclosing_loop(change.line)
            in_loop = loop is not None and any(loop[0] <= line <= loop[1] for line in calls)
            if in_loop or (any(line < change.line for line in calls) and any(line > change.line for line in calls)):
                return change
        return None

    def _before_any_trace(self, change: Change, fn: FunctionInfo) -> bool:
        """Whether a function's write of a global happens once, before `fn` can be traced: in a set-up hook that
        runs once before a module's or class's tests (`setUpModule`, `setUpClass`, `setup_module`,
        `setup_class`), or in a program's `main` (a module-level function the module runs once, as
        `if __name__ == "__main__": main()` or `app.run(main)`) at its top level, before any of its statements
        calls a function that reaches `fn`."""
        writer = change.writer
        assert writer is not None
        if writer.parent is not None or isinstance(writer.node, ast.Lambda):
            return False
        if writer.name in _ONCE_SETUP_HOOKS:
            return True
        if not self._run_once_by_module(writer):
            return False
        body = writer.node.body
        top = change.node
        while top is not None and top not in body:
            top = self.model.scopes.parents.get(top)
        if top is None:
            return False
        # a write inside a compound statement of main (a loop over command-line overrides, a branch on an
        # argument) runs before what follows it; the statement itself must trace nothing, or a loop could trace
        # `fn` and then change the value
        checked = body[: body.index(top)] + ([top] if top is not change.node else [])
        # nothing traces fn before main runs, and main calls no function of this module before the write (any of
        # them may run traced code; imported helpers such as argument parsing may not reach this module's)
        use_line = self._module_use_line(writer)
        if any(line < use_line for line in self._module_level_calls(fn)):
            return False
        local = set(self.model.scopes.module_functions) | self._reaching_names(fn)
        for before in checked:
            for node in walk_nodes(before):
                if isinstance(node, ast.Call):
                    func = node.func.args[0] if isinstance(node.func, ast.Call) and node.func.args else node.func
                    if isinstance(func, ast.Name) and func.id in local:
                        return False
        return True

    def _fills_placeholder(self, name: str, writer: FunctionInfo, fn: FunctionInfo) -> bool:
        """Whether a `global` write is an initialiser filling a placeholder: the module binds the name once, to
        `None` (a value meant to be filled in before use), and the writer is a module-level function without
        parameters that computes what it writes afresh each time it runs: it reads none of the globals it writes
        before writing it (no `X = X + 1`, no `+=`), no other global a change can touch, and nothing that differs
        from call to call (the clock, a random generator). Every call writes the same value, so a trace made after
        any call keeps the right one; module code that traces `fn` before it calls the writer still counts
        (clm-ml-jax's `LookupPsihatINI` fills `_psigridM_jax` from a file, called once by the model's set-up)."""
        stmts = self.bindings.get(name, [])
        if len(stmts) != 1 or not isinstance(stmts[0], (ast.Assign, ast.AnnAssign)) or not self._placeholder(
                stmts[0].value):
            return False
        node = writer.node
        if writer.parent is not None or isinstance(node, ast.Lambda) or "." in writer.qualname:
            return False
        a = node.args
        if a.posonlyargs or a.args or a.vararg or a.kwonlyargs or a.kwarg:
            return False
        verdict = self._initialisers.get(id(node))
        if verdict is None:
            verdict = self._initialisers[id(node)] = self._computes_afresh(writer)
        if not verdict:
            return False
        use_line = self._module_use_line(writer)
        return not (use_line and any(line < use_line for line in self._module_level_calls(fn)))

    def _placeholder(self, value: ast.expr | None) -> bool:
        """`None`, an empty literal container, or an empty array (`np.empty(0)`, `jnp.zeros((0,))`): a value that
        stands for "not filled in yet"."""
        if isinstance(value, ast.Constant):
            return value.value is None
        if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
            return not value.elts
        if isinstance(value, ast.Dict):
            return not value.keys
        if isinstance(value, ast.Call) and value.args and not any(k.arg is None for k in value.keywords):
            q = self.model.scopes.qualname(value.func, None) or ""
            shape = value.args[0]
            dims = shape.elts if isinstance(shape, (ast.Tuple, ast.List)) else [shape]
            return any(literal_int(d) == 0 for d in dims) and q.rsplit(".", 1)[-1] in ("empty", "zeros", "ones", "full") and q.split(".")[0] in (
                "numpy", "jax")
        return False

    def _computes_afresh(self, writer: FunctionInfo) -> bool:
        scopes = self.model.scopes
        own = scopes.own_nodes(writer)
        declared = {n for g in own if isinstance(g, ast.Global) for n in g.names}
        if any(isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id in declared for n in own):
            return False  # `X += 1`: each call moves it on
        written: set[str] = set()
        parents = scopes.parents
        body = writer.node.body
        if not isinstance(body, list):
            return False  # a lambda writes no global
        for node in _in_order(body):
            if isinstance(node, ast.Name):
                parent = parents.get(node)
                if (node.id in declared and isinstance(parent, ast.Subscript) and parent.value is node
                        and isinstance(parent.ctx, ast.Store)):
                    written.add(node.id)  # `GRID[:, :] = table`: filled in place, not read
                elif isinstance(node.ctx, ast.Load):
                    if node.id in declared and node.id not in written:
                        return False  # read before this call wrote it: the last call's value feeds the next
                    if (node.id not in declared and not scopes.is_local(node.id, writer)
                            and self.kinds.get(node.id) == "value"
                            and any(c.writer is not writer for c in self.changes.get(node.id, ()))):
                        return False  # reads a global something else changes (it may fill one in place itself)
                elif node.id in declared:
                    written.add(node.id)
            elif isinstance(node, ast.Call):
                q = scopes.qualname(node.func, writer) or ""
                if q.startswith(_CALL_TO_CALL) or q in _DIFFERS_PER_CALL:
                    return False
        return True

    def _module_use_line(self, writer: FunctionInfo) -> int:
        """The first line where module-level code names the function (0 if none does). (`nodes` is not in source
        order: the walk goes through the top-level statements last to first.)"""
        return min((n.lineno for n in self.model.scopes.nodes(ast.Name)  # type: ignore[attr-defined]
                    if isinstance(n, ast.Name) and n.id == writer.name and isinstance(n.ctx, ast.Load)
                    and self.model.scopes.enclosing_function(n) is None), default=0)

    def _run_once_by_module(self, writer: FunctionInfo) -> bool:
        """A module-level function that only module-level code outside loops uses, once: called (`main()`) or
        handed to a runner (`app.run(main)`)."""
        uses = [n for n in self.model.scopes.nodes(ast.Name)
                if isinstance(n, ast.Name) and n.id == writer.name and isinstance(n.ctx, ast.Load)]
        if len(uses) != 1 or self.model.scopes.enclosing_function(uses[0]) is not None:
            return False
        cur = self.model.scopes.parents.get(uses[0])
        while cur is not None:  # a module-level loop (also inside `if __name__ == "__main__":`) repeats it
            if isinstance(cur, (ast.For, ast.AsyncFor, ast.While, ast.comprehension)):
                return False
            cur = self.model.scopes.parents.get(cur)
        return True

    def _reaching_names(self, fn: FunctionInfo) -> set[str]:
        """Names of the module-level functions from which `fn` is reached (itself included), and of their
        module-level `g = jax.jit(f)` aliases."""
        names: set[str] = set()
        seen = {id(fn)}
        work = [fn]
        while work:
            cur = work.pop()
            if cur.parent is None and not isinstance(cur.node, ast.Lambda):
                names.add(cur.name)
            reached_from = [caller for caller, _ in self.model.traced.calls_from_traced(cur)]
            for site in cur.traces:
                runner = self.model.scopes.enclosing_function(site.node) if site.node is not None else None
                if runner is not None:
                    reached_from.append(runner)
            if cur.parent is not None:
                reached_from.append(cur.parent)
            for caller in reached_from:
                if id(caller) not in seen:
                    seen.add(id(caller))
                    work.append(caller)
        for stmt in self.model.scopes.tree.body:
            if (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and stmt.value.args
                    and isinstance(stmt.value.args[0], ast.Name) and stmt.value.args[0].id in names):
                names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        return names

    def _enclosing_loop(self, line: int) -> tuple[int, int] | None:
        """The line span of the module-level loop that holds this line (a loop repeats what comes after)."""
        for stmt in self.model.scopes.tree.body:
            if isinstance(stmt, (ast.For, ast.While, ast.AsyncFor)) and stmt.lineno <= line <= (stmt.end_lineno or 0):
                return stmt.lineno, stmt.end_lineno or stmt.lineno
        return None

    def _module_level_calls(self, fn: FunctionInfo) -> list[int]:
        """Lines of the module-level calls that run `fn`: calls of it, of the functions it is reached from, and
        of module-level `g = jax.jit(f)` aliases of those."""
        model = self.model
        names = self._reaching_names(fn)
        lines = []
        for node in model.scopes.own_nodes(None):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Call) and func.args:  # jax.jit(f)(x)
                func = func.args[0]
            if isinstance(func, ast.Name) and func.id in names:
                lines.append(node.lineno)
        return lines


# calls whose result differs from one call to the next: a function writing what they give writes a new value
_CALL_TO_CALL = ("time.", "random.", "numpy.random.", "datetime.", "uuid.", "secrets.", "itertools.count")
_DIFFERS_PER_CALL = {"os.urandom", "next", "input", "os.getpid"}


def _in_order(body: list[ast.stmt]):
    """The nodes of a block in evaluation order as far as reads and writes go: each statement's value (and
    everything it reads) before its targets, statements in order, a compound statement's test before its body."""
    for stmt in body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            if stmt.value is not None:
                yield from walk_nodes(stmt.value)
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                yield from walk_nodes(target)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            yield from walk_nodes(stmt.iter)
            yield from walk_nodes(stmt.target)
            yield from _in_order(stmt.body)
            yield from _in_order(stmt.orelse)
        elif isinstance(stmt, (ast.If, ast.While)):
            yield from walk_nodes(stmt.test)
            yield from _in_order(stmt.body)
            yield from _in_order(stmt.orelse)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                yield from walk_nodes(item)
            yield from _in_order(stmt.body)
        elif isinstance(stmt, ast.Try):
            yield from _in_order(stmt.body)
            for handler in stmt.handlers:
                yield from _in_order(handler.body)
            yield from _in_order(stmt.orelse)
            yield from _in_order(stmt.finalbody)
        else:
            yield from walk_nodes(stmt)


def _registers_its_argument(node: ast.AST, fn: FunctionInfo, model: ValueKinds) -> bool:
    """The registry idioms: `def decorator(fn): REGISTRY[name] = fn; return fn`, and a factory that makes a new
    object, registers its argument under it and returns it (`p = Primitive(name); RULES[p] = rule; return p`).
    Entries are added once, at import, and never overwritten (the factory's key did not exist before the call);
    read under jit by a static key, that is not a value that goes stale."""
    assign = model.scopes.parents.get(node)
    if not (isinstance(assign, ast.Assign) and isinstance(assign.value, ast.Name) and assign.value.id in fn.params):
        return False
    if isinstance(fn.node, ast.Lambda):
        return False
    returns = [n for n in model.scopes.own_nodes(fn) if isinstance(n, ast.Return)]
    if not returns:
        return False
    returned = {r.value.id if isinstance(r.value, ast.Name) else None for r in returns}
    if returned == {assign.value.id}:
        return True
    key = node.slice if isinstance(node, ast.Subscript) else None
    return isinstance(key, ast.Name) and returned == {key.id} and _made_here(key.id, fn, model)


def _memo_store(node: ast.AST, fn: FunctionInfo, model: ValueKinds) -> bool:
    """The memo idiom: `CACHE[key] = value` only when the key is absent, after `if key in CACHE: return
    CACHE[key]` (or `if (hit := CACHE.get(key)) is not None: return hit`) in the function's body, or inside
    `if key not in CACHE:` (`if CACHE.get(key) is None:`), with the names `key` reads (a name, a tuple of
    arguments) not bound again after that test. Each entry is written once and never overwritten, so a trace that
    read `CACHE[key]` read the one value that key ever has (a trace that found it absent computed the value it
    stores). `CACHE.clear()`, `pop` and `del CACHE[key]` are changes of their own."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name)
            and all(isinstance(n, (ast.Name, ast.Tuple, ast.Load)) for n in walk_nodes(node.slice))) or isinstance(
                fn.node, ast.Lambda):
        return False
    cache, key = node.value.id, ast.dump(node.slice).replace("Store()", "Load()")
    key_names = {n.id for n in walk_nodes(node.slice) if isinstance(n, ast.Name)}

    def tests(test: ast.AST, present: bool) -> bool:
        """`test` holds exactly when the key is in the cache (`present`) or exactly when it is not."""
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
            return False
        op, left, right = test.ops[0], test.left, test.comparators[0]
        if isinstance(op, (ast.In, ast.NotIn)):
            return (isinstance(op, ast.In) is present and ast.dump(left) == key and isinstance(right, ast.Name)
                    and right.id == cache)
        if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(right, ast.Constant) and right.value is None:
            if isinstance(left, ast.NamedExpr):
                left = left.value
            return (isinstance(op, ast.IsNot) is present and isinstance(left, ast.Call) and len(left.args) == 1
                    and not left.keywords and isinstance(left.func, ast.Attribute) and left.func.attr == "get"
                    and isinstance(left.func.value, ast.Name) and left.func.value.id == cache
                    and ast.dump(left.args[0]) == key)
        return False

    guard: ast.If | None = None
    parent = model.scopes.parents.get(node)
    while parent is not None and parent is not fn.node:
        if isinstance(parent, ast.If) and tests(parent.test, False) and _contains(parent.body, node):
            guard = parent
            break
        parent = model.scopes.parents.get(parent)
    if guard is None:
        for stmt in fn.node.body:  # type: ignore[attr-defined]
            if stmt.lineno >= node.lineno:
                break
            if isinstance(stmt, ast.If) and stmt.body and isinstance(stmt.body[-1], ast.Return) and any(
                    tests(part, True) for part in ([stmt.test.values[-1]] if isinstance(stmt.test, ast.BoolOp)
                                                   and isinstance(stmt.test.op, ast.And) else [stmt.test])):
                guard = stmt
        if guard is None:
            return False
    return not any(isinstance(n, ast.Name) and n.id in key_names and isinstance(n.ctx, (ast.Store, ast.Del))
                   and guard.lineno < n.lineno < node.lineno for n in model.scopes.own_nodes(fn))


def _contains(body: list[ast.stmt], node: ast.AST) -> bool:
    return any(n is node for stmt in body for n in walk_nodes(stmt))


def _made_here(name: str, fn: FunctionInfo, model: ValueKinds) -> bool:
    """Whether every binding of the local `name` in `fn` is `name = SomeCall(...)`: an object the call made."""
    stores = [n for n in model.scopes.own_nodes(fn) if isinstance(n, ast.Name) and n.id == name
              and isinstance(n.ctx, ast.Store)]
    if not stores or name in fn.params:
        return False
    for store in stores:
        assign = model.scopes.parents.get(store)
        if not (isinstance(assign, ast.Assign) and assign.targets == [store] and isinstance(assign.value, ast.Call)):
            return False
    return True


def _is_mutable(value: ast.AST, model: ValueKinds) -> bool:
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    if model.kind_of(value, None) is Kind.NUMPY:  # NumPy arrays are filled in place: `MEAN[:] = ...`
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("dict", "list", "set")


class GlobalChanges(Fact):
    """The globals part of ModuleModel (see model.py). A change made as a side effect of traced code is the
    side effect's hazard (side-effect-in-jit), not also a stale global."""

    _globals: _Globals | None = None

    def __init__(self, model: ModuleModel) -> None:
        super().__init__(model)
        self.effects = model.fact(SideEffects)

    def reaches_to_mutate(self, node: ast.Name) -> bool:
        """Whether this read of a name only reaches the object to change it in place (`LOG` in `LOG.append(v)`,
        `CACHE` in `CACHE[k] = v`): the object is used by reference, no value of it is baked into a trace."""
        parent = self.scopes.parents.get(node)
        if isinstance(parent, ast.Attribute) and parent.attr in _MUTATING_METHODS:
            call = self.scopes.parents.get(parent)
            return isinstance(call, ast.Call) and call.func is parent
        return isinstance(parent, ast.Subscript) and isinstance(parent.ctx, (ast.Store, ast.Del))

    def may_change(self, name: str) -> bool:
        """Whether `global_change_after` can find a change of `name` for some function: a module-level value
        (or class attribute) with a change; False for a constant, a function, a class, a module."""
        if self._globals is None:
            self._globals = _Globals(self)
        return self._globals.is_value(name)

    def global_change_after(self, name: str, fn: FunctionInfo, attribute: str | None = None,
                            ignore: Callable[[Change], bool] | None = None) -> Change | None:
        """How the module-level value `name` (or `Class.attr`) can change after `fn` captured it; None if it
        cannot (a constant, a function, a module, or set-up done before the first trace). With `attribute`, the
        question is about `name.attribute` only: setting another attribute of the object does not change it.
        Changes for which `ignore` answers True are passed over."""
        if self._globals is None:
            self._globals = _Globals(self)
        return self._globals.change_after(name, fn, attribute, ignore) if self._globals.is_value(name) else None
