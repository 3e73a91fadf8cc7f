"""How eager code runs: which statements repeat (loops, functions called from loops), which calls dispatch JAX
work (asynchronously: the call returns before the device has finished), and which wait for it on the host."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from sharpbits.analysis.facts import Fact
from sharpbits.analysis.flow import COMPOUND, statement_lists
from sharpbits.analysis.kinds import ARRAYS, Kind
from sharpbits.analysis.scopes import FunctionInfo
from sharpbits.analysis.syntax import walk_nodes
from sharpbits.analysis.traced import TRANSFORMS

if TYPE_CHECKING:
    from sharpbits.analysis.model import ModuleModel

# Transformations whose result is compiled code, cached per wrapped function object.
COMPILING = frozenset({"jax.jit", "jax.pmap", "equinox.filter_jit", "flax.nnx.jit"})
# Compiling transformations whose calls return only once the device is done: equinox's filter_jit blocks on a
# marker output of the compiled call (`marker.block_until_ready()` in equinox/_jit.py, equinox 0.13.8, so that its
# runtime errors raise at the call; checked: the result of `eqx.filter_jit(f)(a)` is_ready() at once, jax.jit's not)
_WAITING_COMPILERS = frozenset({"equinox.filter_jit"})
LOOPS = (ast.For, ast.AsyncFor, ast.While)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
# Calls that wait for device values: the host needs the numbers.
_SYNC_BUILTINS = {"float", "int", "bool", "complex", "print", "str", "repr", "format", "list", "tuple"}
_SYNC_METHODS = {"block_until_ready", "item", "tolist", "tobytes", "__array__", "copy_to_host_async"}
_SYNC_FUNCS = {"jax.block_until_ready", "jax.device_get", "jax.effects_barrier"}
# JAX functions whose result is a tuple, list or pytree of arrays (no `.block_until_ready()` method on it).
PYTREE_RESULTS = frozenset({
    *(f"jax.numpy.linalg.{n}" for n in ("svd", "eig", "eigh", "qr", "slogdet", "lstsq")),
    *(f"jax.numpy.{n}" for n in ("unique", "unique_all", "unique_counts", "unique_inverse", "histogram",
                                 "histogram2d", "histogramdd", "meshgrid", "divmod", "frexp", "modf", "split",
                                 "array_split", "hsplit", "vsplit", "dsplit", "nonzero", "unravel_index",
                                 "broadcast_arrays", "atleast_1d", "atleast_2d", "atleast_3d")),
    *(f"jax.scipy.linalg.{n}" for n in ("lu", "qr", "eigh", "svd", "schur", "hessenberg", "lu_factor", "polar")),
    *(f"jax.lax.{n}" for n in ("scan", "while_loop", "fori_loop", "cond", "switch", "map", "top_k", "sort",
                               "sort_key_val", "associative_scan", "linalg.eigh", "linalg.qr", "linalg.svd")),
})
_CACHING_DECORATORS = {"functools.cache", "functools.lru_cache", "functools.cached_property"}
# Calls that run no JAX work and cannot wait for it.
_PURE_BUILTINS = {"range", "len", "enumerate", "zip", "isinstance", "id", "type", "iter", "next", "min", "max",
                  "sum", "abs", "round", "sorted", "reversed", "dict", "set", "getattr", "hasattr"}


class Execution(Fact):
    """The execution part of ModuleModel (see model.py)."""

    _loop_calls: dict[str, list[ast.Call]] | None = None
    _unreached: set[str] | None = None
    _spelled: set[str] | None = None  # every name and attribute the module spells (see `uncallable`)
    _strings: list[str] = []

    def unreached_functions(self) -> set[str]:
        """Module-level functions that nothing in this module runs: not called or named by its top-level code
        (the `__main__` block included), by a class, or by a function that is run, and neither decorated (a CLI
        command, a fixture) nor a test. In a program module they are its library part, called from other
        modules."""
        if self._unreached is None:
            functions = {name: fn.node for name, fn in self.scopes.module_functions.items()
                         if isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef))}
            run = {name for name, node in functions.items() if node.decorator_list or name.startswith("test")}
            work: list[ast.AST] = [s for s in self.scopes.tree.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
            work += [functions[name] for name in run]
            # the names of these functions read anywhere, by the top-level statement they are in (from the
            # walk's indexes: a walk of every statement cost a tenth of a real-code analysis)
            named: dict[int, set[str]] = {}
            parents, tree = self.scopes.parents, self.scopes.tree
            for name in self.scopes.nodes(ast.Name):
                if name.id in functions:  # type: ignore[attr-defined]
                    top: ast.AST = name
                    while (up := parents[top]) is not tree:
                        top = up
                    named.setdefault(id(top), set()).add(name.id)  # type: ignore[attr-defined]
            while work:
                for found in named.get(id(work.pop()), ()):
                    if found not in run:
                        run.add(found)
                        work.append(functions[found])
            self._unreached = set(functions) - run
        return self._unreached

    def uncallable(self, fn: FunctionInfo) -> bool:
        """A private module-level function (`_helper`, not a method) that nothing can call: its name is spelled
        nowhere else in the module (no read, no attribute, no string: `__all__`, `getattr(mod, "_helper")`) nor in
        any other file of the project, and it has no decorator but JAX transformations (a registering decorator,
        `@app.command`, `@pytest.fixture`, runs it from elsewhere). Its code never runs, so nothing in it is a
        hazard (round 39: ngclearn's `_run_varfilter`, chencrafts' `_prop_eigendecomp_jax`, checkatlas'
        `_jax_rankdata`). Unknown without a project index (the file alone cannot say who imports it): callable."""
        project = self.model.project
        node = fn.node
        name = getattr(node, "name", "")
        if (project is None or fn.parent is not None or "." in fn.qualname or not name.startswith("_")
                or name.startswith("__") or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))):
            return False
        if self._spelled is None:
            self._spelled = {n.id for n in self.scopes.nodes(ast.Name)}  # type: ignore[attr-defined]
            self._spelled.update(n.attr for n in self.scopes.nodes(ast.Attribute))  # type: ignore[attr-defined]
            self._strings = [c.value for c in self.scopes.nodes(ast.Constant)
                             if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        if name in self._spelled or any(name in text for text in self._strings):
            return False
        if not all(self._transform_decorator(d) for d in node.decorator_list):
            return False
        return not project.named_elsewhere(name, definitions=False)  # (a file defining its own `_helper` calls no other)

    def uncallable_at(self, where: ast.AST, fn: FunctionInfo) -> bool:
        """`uncallable(fn)` for a finding at `where`, inside `fn`: asked through `Fact.across`, since the answer
        reads the other statements of the module (a string naming the function in another function's body), so a
        function-local rule's findings kept per statement are asked again of each version."""
        name = getattr(fn.node, "name", "")
        if self.model.project is None or fn.parent is not None or not name.startswith("_") or name.startswith("__"):
            return False
        return self.across(where, _uncallable, name)

    def _transform_decorator(self, decorator: ast.expr) -> bool:
        """`@jax.jit`, `@partial(jax.jit, static_argnums=0)`, `@jax.vmap`: a JAX transformation, nothing else."""
        func = decorator.func if isinstance(decorator, ast.Call) else decorator
        q = self.scopes.qualname(func, None)
        if q == "functools.partial" and isinstance(decorator, ast.Call) and decorator.args:
            q = self.scopes.qualname(decorator.args[0], None)
        return q in TRANSFORMS

    def enclosing_loop(self, node: ast.AST) -> ast.AST | None:
        """The innermost loop of the same scope that runs `node` once per iteration: a `for`/`while` whose body
        holds it, or a comprehension whose element holds it. None outside loops (or in a loop's iterable)."""
        child, cur = node, self.scopes.parents.get(node)
        while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)):
            if isinstance(cur, LOOPS) and (child in cur.body or (isinstance(cur, ast.While) and child is cur.test)):
                return cur
            if isinstance(cur, _COMPREHENSIONS) and child is not cur.generators[0]:
                return cur
            child, cur = cur, self.scopes.parents.get(cur)
        return None

    def single_pass(self, loop: ast.AST, scope: FunctionInfo | None) -> bool:
        """A `for` that runs its body once: over a one-element list or tuple display, or over a call of a
        generator function of this module (`self._generate_x(n)` of a method of the class) whose every path yields
        exactly once (`if ...: yield a` / `else: yield b`)."""
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            return False
        it = loop.iter
        if isinstance(it, (ast.List, ast.Tuple)):
            return len(it.elts) == 1 and not isinstance(it.elts[0], ast.Starred)
        if not isinstance(it, ast.Call):
            return False
        generator = self.scopes.resolve_function(it.func, scope) or self.traced.bound_method(it.func, scope)
        if generator is None or isinstance(generator.node, ast.Lambda):
            return False
        return _yields(generator.node.body) == {1}

    def binding_before(self, read: ast.Name, region: ast.AST) -> ast.stmt | None:
        """The statement of `region` (a loop or a function) that last binds the name `read` reads before the read,
        on the way from the start of the region's body to it: the binding whose value this run of the region
        sees (a compound statement that binds it in a branch counts). None when the region binds it only later
        (the read then sees the value of an earlier iteration, or from before the region)."""
        cur: ast.AST = read
        while cur is not region:
            parent = self.scopes.parents.get(cur)
            if parent is None:
                return None
            if isinstance(cur, ast.stmt):
                for block in statement_lists(parent):
                    if any(s is cur for s in block):
                        index = next(i for i, s in enumerate(block) if s is cur)
                        for earlier in reversed(block[:index]):
                            if _may_bind(earlier, read.id):
                                return earlier
            cur = parent
        return None

    def called_in_loop(self, fn: FunctionInfo) -> ast.Call | None:
        """A call of `fn` made once per iteration of a loop somewhere in the module (see `loop_calls`); None when
        there is none or `fn` caches its results (`functools.cache`/`lru_cache`)."""
        calls = self.loop_calls(fn)
        return calls[0] if calls else None

    def loop_calls(self, fn: FunctionInfo) -> list[ast.Call]:
        """The calls of `fn` made once per iteration of a loop in the module: by name, `self.name(...)` in a method
        of the same class, or `obj.name(...)` where every binding of `obj` in the caller's scope is an instance
        made there (`obj = Cls(...)`) of the method's class. Empty when `fn` caches its results."""
        if isinstance(fn.node, ast.Lambda) or any(
                self.scopes.qualname(d.func if isinstance(d, ast.Call) else d, fn.parent) in _CACHING_DECORATORS
                for d in fn.node.decorator_list):
            return []
        if self._loop_calls is None:
            self._loop_calls = {}
            for call in self.scopes.nodes(ast.Call):
                assert isinstance(call, ast.Call)
                func = call.func
                name = func.id if isinstance(func, ast.Name) else func.attr if (
                    isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)) else None
                if name is not None and self.enclosing_loop(call) is not None:
                    self._loop_calls.setdefault(name, []).append(call)
        is_method = fn.parent is None and "." in fn.qualname and fn.params[:1] in (["self"], ["cls"])
        owner = fn.qualname.rsplit(".", 1)[0]
        found = []
        for call in self._loop_calls.get(fn.name, []):
            scope = self.scopes.enclosing_function(call)
            if isinstance(call.func, ast.Attribute):
                receiver = call.func.value
                assert isinstance(receiver, ast.Name)
                if not is_method:
                    continue
                if receiver.id in ("self", "cls"):
                    if scope is not None and scope.qualname.rsplit(".", 1)[0] == owner:
                        found.append(call)
                elif "." not in owner and self._instance_of(receiver, owner, scope):
                    found.append(call)
            elif not is_method and self.scopes.resolve_function(call.func, scope) is fn:
                found.append(call)
        return found

    def _instance_of(self, name: ast.Name, cls: str, scope: FunctionInfo | None) -> bool:
        """Whether every binding of `name` in `scope` (the module when None) is `cls(...)`, a module-level class."""
        if cls not in self.scopes.module_classes():
            return False
        values = []
        for node in self.scopes.own_nodes(scope):
            if isinstance(node, ast.Name) and node.id == name.id and isinstance(node.ctx, (ast.Store, ast.Del)):
                stmt = self.scopes.parents.get(node)
                if not (isinstance(stmt, ast.Assign) and stmt.targets == [node]):
                    return False
                values.append(stmt.value)
        return bool(values) and all(isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == cls
                                    and (scope is None or not self.scopes.is_local(cls, scope)) for v in values)

    def compiled_callee(self, func: ast.AST, scope: FunctionInfo | None, by: frozenset[str] = COMPILING) -> bool:
        """Whether calling `func` runs compiled JAX code: a function decorated with `jax.jit` (or pmap,
        `eqx.filter_jit`, `nnx.jit`), a name bound to `jax.jit(...)`, or `jax.jit(f)` itself (`by`: the
        compiling transformations that count)."""
        if isinstance(func, ast.Call):
            site = self.traced.transform_of(func.func, scope)
            return site is not None and site.transform in by and bool(func.args)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            return self._compiled_attribute(func.attr, scope, by)
        if not isinstance(func, ast.Name):
            return False
        target = self.scopes.resolve_function(func, scope)
        if target is not None and not isinstance(target.node, ast.Lambda):
            return any(t.transform in by and t.node in target.node.decorator_list for t in target.traces)
        owner: FunctionInfo | None = scope
        while owner is not None and func.id not in owner.local_names:
            owner = owner.parent
        values = []
        for node in self.scopes.own_nodes(owner):
            if isinstance(node, ast.Name) and node.id == func.id and isinstance(node.ctx, ast.Store):
                stmt = self.scopes.parents.get(node)
                if not isinstance(stmt, ast.Assign) or node not in stmt.targets:
                    return False
                values.append(stmt.value)
        return bool(values) and all(isinstance(v, ast.Call) and self.compiled_callee(v, owner, by) for v in values)

    def _compiled_attribute(self, attr: str, scope: FunctionInfo | None, by: frozenset[str]) -> bool:
        """`self.attr` read in a method, where every `self.attr = value` of the class's methods stores a compiled
        function (`self.step = nnx.jit(self._step)` in `__init__`, `self.f = jax.jit(f)`): calling it runs compiled
        code, dispatched asynchronously like a call of `jax.jit(f)` itself. False when any store is another value
        (a chosen function, an augmented or unpacking assignment) or there is none."""
        if scope is None:
            return False
        method = scope.outermost
        if "." not in method.qualname or not method.params or method.params[0] != "self":
            return False
        owner = method.qualname.rsplit(".", 1)[0]
        found = False
        for fn in self.scopes.functions.values():
            if fn.parent is not None or not fn.qualname.startswith(owner + ".") or "." in fn.qualname[len(owner) + 1:]:
                continue
            for node in self.scopes.own_nodes(fn):
                if not (isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name)
                        and node.value.id == "self" and isinstance(node.ctx, (ast.Store, ast.Del))):
                    continue
                stmt = self.scopes.parents.get(node)
                if not (isinstance(stmt, ast.Assign) and stmt.targets == [node] and isinstance(stmt.value, ast.Call)
                        and self.compiled_callee(stmt.value, fn, by)):
                    return False
                found = True
        return found

    def _attribute_wrapped(self, attr: str, scope: FunctionInfo | None) -> list[FunctionInfo]:
        """The functions of this module that the stores `self.attr = jax.jit(f, ...)` of the class of `scope`
        compile (those that resolve)."""
        if scope is None or "." not in scope.outermost.qualname:
            return []
        owner = scope.outermost.qualname.rsplit(".", 1)[0]
        found: list[FunctionInfo] = []
        for fn in self.scopes.functions.values():
            if fn.parent is not None or not fn.qualname.startswith(owner + ".") or "." in fn.qualname[len(owner) + 1:]:
                continue
            for node in self.scopes.own_nodes(fn):
                if (isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name)
                        and node.value.id == "self" and isinstance(node.ctx, ast.Store)):
                    stmt = self.scopes.parents.get(node)
                    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and stmt.value.args:
                        target = self.scopes.resolve_function(stmt.value.args[0], fn)
                        if target is not None:
                            found.append(target)
        return found

    def dispatch_kind(self, call: ast.Call, scope: FunctionInfo | None) -> Kind | None:
        """The kind of what a call returns when it starts JAX work on the device (asynchronously): JAX (or a
        mask or key) for one array, UNKNOWN for a pytree from compiled code; None when it starts none that is
        known (NumPy, Python, calls of unknown functions, helpers that wait for their own results, functions
        compiled by `eqx.filter_jit`, which waits for its outputs before it returns)."""
        if self.compiled_callee(call.func, scope, _WAITING_COMPILERS):
            return None
        kind = self.kinds.kind_of(call, scope)
        if kind in (*ARRAYS, Kind.KEY) and self.scopes.qualname(call.func, scope) in PYTREE_RESULTS:
            return Kind.UNKNOWN  # `jnp.linalg.svd(m)`: a tuple of arrays
        if kind in (*ARRAYS, Kind.KEY):
            if isinstance(call.func, ast.Name) and self.scopes.module_functions.get(call.func.id) is not None:
                helper = self.scopes.module_functions[call.func.id]
                if any(self.host_sync(n, helper) for n in self.scopes.own_nodes(helper) if isinstance(n, ast.Call)):
                    return None  # a helper that waits for its own result before returning
            return kind
        if self.compiled_callee(call.func, scope):
            wrapped = self.scopes.resolve_function(call.func.args[0] if isinstance(call.func, ast.Call) else call.func, scope)
            if wrapped is not None and computes_nothing(wrapped):
                return None  # an empty step, or one handing its arguments back: no computation to wait for
            if isinstance(call.func, ast.Attribute) and any(
                    computes_nothing(w) for w in self._attribute_wrapped(call.func.attr, scope)):
                return None  # self._replicate = jax.jit(lambda s: s, out_shardings=...): a copy, no computation
            return Kind.UNKNOWN
        if isinstance(call.func, ast.Name) and self.scopes.resolve_function(call.func, scope) is None:
            return self._chosen_callee_dispatch(call, scope)
        return None

    def _chosen_callee_dispatch(self, call: ast.Call, scope: FunctionInfo | None) -> Kind | None:
        """`f(x)` where `f` is chosen by a branch (`f = jax.jit(fn)` in one arm, `f = fn` in the other): it starts
        JAX work when every function `f` may be does (a compiled one, or a function of this module that returns
        an array for these arguments, computed eagerly: dispatched just as asynchronously)."""
        assert isinstance(call.func, ast.Name)
        owner: FunctionInfo | None = scope
        while owner is not None and call.func.id not in owner.local_names:
            owner = owner.parent
        kinds: set[Kind] = set()
        for node in self.scopes.own_nodes(owner):
            if not (isinstance(node, ast.Name) and node.id == call.func.id and isinstance(node.ctx, ast.Store)):
                continue
            stmt = self.scopes.parents.get(node)
            if not isinstance(stmt, ast.Assign) or stmt.targets != [node]:
                return None
            value = stmt.value
            if isinstance(value, ast.Call) and self.compiled_callee(value, owner):
                wrapped = self.scopes.resolve_function(value.args[0], owner)
                if wrapped is not None and computes_nothing(wrapped):
                    return None
                kinds.add(Kind.UNKNOWN)
            elif isinstance(value, ast.Name) and (fn := self.scopes.resolve_function(value, owner)) is not None and (
                    not isinstance(fn.node, ast.Lambda) and fn.parent is None):
                direct = ast.Call(func=value, args=call.args, keywords=call.keywords)
                kind = self.dispatch_kind(direct, scope)
                if kind is None:
                    return None
                kinds.add(kind)
            else:
                return None
        if len(kinds) < 1:
            return None
        return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN

    def host_sync(self, call: ast.Call, scope: FunctionInfo | None) -> bool:
        """Whether a call waits for device values on the host: `.block_until_ready()`,
        `jax.block_until_ready(...)`, `jax.device_get`, `float(...)`/`int(...)`/`print(...)` of a value, `.item()`,
        `.tolist()`, `np.asarray(...)` and other NumPy functions given a value."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _SYNC_METHODS:
            return True
        if isinstance(func, ast.Name) and func.id in _SYNC_BUILTINS and call.args and (
                scope is None or not self.scopes.is_local(func.id, scope)):
            return not self._reads_only_python(call)  # print(f"step {i}") with `i` an int waits for nothing
        q = self.scopes.qualname(func, scope)
        if q in _SYNC_FUNCS:
            return True
        return q is not None and q.split(".")[0] in ("numpy", "onp") and bool(call.args)

    def _reads_only_python(self, call: ast.Call) -> bool:
        """Whether every argument is built from literals, f-strings and operators over names known to hold Python
        values (`f"batch {i}"` with `i` from `enumerate`): nothing in it is an array to wait for. A call, an
        attribute or a subscript inside may read one, and so may a name of unknown kind."""
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            for node in walk_nodes(arg):
                if isinstance(node, (ast.Call, ast.Attribute, ast.Subscript, ast.Starred, ast.Lambda, ast.NamedExpr,
                                     ast.Await, ast.Yield, ast.YieldFrom, ast.comprehension)):
                    return False
                if isinstance(node, ast.Name) and self.kinds.kind_at(node) is not Kind.PYTHON:
                    return False
        return True

    def pure_python_call(self, call: ast.Call, scope: FunctionInfo | None) -> bool:
        """A call that neither starts JAX work nor waits for it: `range`, `len`, `list.append`, ..."""
        func = call.func
        if isinstance(func, ast.Name):
            return func.id in _PURE_BUILTINS and (scope is None or not self.scopes.is_local(func.id, scope))
        if isinstance(func, ast.Attribute) and func.attr in ("append", "extend", "insert", "update", "add",
                                                              "format", "join", "items", "keys", "values"):
            return self.kinds.kind_of(func.value, scope) in (Kind.CONTAINER, Kind.PYTHON)
        return False


def _yields(body: list[ast.stmt]) -> set[int] | None:
    """How many times a block yields, for each path through it (None: a yield in a loop, `yield from`, or a
    statement this does not follow). Paths that return or raise stop counting there."""
    counts = {0}
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(stmt, ast.If):
            a, b = _yields(stmt.body), _yields(stmt.orelse)
            if a is None or b is None:
                return None
            step = a | b
        elif isinstance(stmt, COMPOUND):
            if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in walk_nodes(stmt)):
                return None
            step = {0}
        else:
            found = [n for n in walk_nodes(stmt) if isinstance(n, (ast.Yield, ast.YieldFrom))]
            if any(isinstance(n, ast.YieldFrom) for n in found):
                return None
            step = {len(found)}
        counts = {c + d for c in counts for d in step}
        if isinstance(stmt, (ast.Return, ast.Raise)):
            break
    return counts


def computes_nothing(fn: FunctionInfo) -> bool:
    """Whether a function does no array work: its body is only `pass`, a docstring, or a `return` of nothing, a
    constant, its parameters unchanged (or a tuple of them). Compiled, it starts no computation on the device
    (returning an argument only copies its buffer), so there is nothing for a clock to wait for."""
    params = set(fn.params)
    node = fn.node
    if isinstance(node, ast.Lambda):
        return _passes_through(node.body, params)
    for stmt in node.body:
        if isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            continue
        if isinstance(stmt, ast.Return) and _passes_through(stmt.value, params):
            continue
        return False
    return True


def _passes_through(value: ast.AST | None, params: set[str]) -> bool:
    """(A function of the module, not a closure that calls itself: that is a reference cycle, left to the
    cycle collector.)"""
    if value is None or isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.Name):
        return value.id in params
    return isinstance(value, ast.Tuple) and all(_passes_through(e, params) for e in value.elts)


def _may_bind(stmt: ast.stmt, name: str) -> bool:
    """Whether running `stmt` may bind `name` (not counting the bodies of functions and classes it defines)."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                return True
            if node is not stmt:
                continue
            stack.extend(node.decorator_list)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, ast.alias) and (node.asname or node.name).split(".")[0] == name:
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def _uncallable(model: ModuleModel, name: str) -> bool:
    """Execution.uncallable of the module-level function `name` (Execution.uncallable_at's question)."""
    fn = model.scopes.module_functions.get(name)
    if fn is None:  # a def under a module-level `if`/`try` (`if HAS_JAX: def _rankdata(...)`)
        fn = next((f for f in model.scopes.functions.values() if f.parent is None and f.qualname == name), None)
    return fn is not None and model.fact(Execution).uncallable(fn)
