"""Donated buffers and what runs after a statement: which calls of this module donate which arguments
(`donate_argnums`/`donate_argnames` of `jax.jit`/`pmap`, in decorator, `functools.partial`, `g = jax.jit(f, ...)`,
`self.g = jax.jit(...)` or `jax.jit(f, ...)(x)` form), and the reads of a name that may run after a given point
of a function on some path before the name is rebound (following loop back-edges)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from sharpbits.analysis.facts import Fact
from sharpbits.analysis.flow import statement_lists
from sharpbits.analysis.kinds import ARRAYS, Kind
from sharpbits.analysis.project_index import dotted
from sharpbits.analysis.scopes import FunctionInfo
from sharpbits.analysis.syntax import expected_to_raise, walk_nodes
from sharpbits.analysis.traced import TraceSite, _with_static

# Libraries whose functions are never another module's donating function of the project (their own donations, if
# any, are the rules' business by name): calls through them are not looked up in the project index.
_KNOWN_LIBRARIES = frozenset({"jax", "jaxlib", "numpy", "scipy", "flax", "equinox", "optax", "haiku", "chex", "torch",
                              "tensorflow", "functools", "typing", "dataclasses", "math", "os", "sys", "time",
                              "collections", "itertools", "pytest", "unittest", "logging", "absl", "matplotlib",
                              "pandas"})
# Transformations that hand donated objects back updated rather than deleting them (see _Donor.arrays_only).
_WRITES_BACK_DONATED = {"flax.nnx.jit"}
_SCOPE_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass(frozen=True)
class DonatedCall:
    """A call that deletes the buffers of some of its arguments: `call` in `scope` (None: module level) passes
    each expression of `arguments` in a donated position of `callee` (the name the call uses)."""

    call: ast.Call
    scope: FunctionInfo | None
    callee: str
    arguments: tuple[ast.expr, ...]
    # for each argument: whether XLA surely uses the donation (the function visibly returns a value of the
    # donated parameter's shape and dtype); where not, XLA may decline it and keep the buffer
    used: tuple[bool, ...] = ()


@dataclass(frozen=True)
class _Donor:
    """What a callable donates: positions of the call's arguments, and keyword names."""

    positions: frozenset[int]
    names: frozenset[str]
    # flax's nnx.jit writes the new values of donated nnx objects (modules, Variables, optimizers, Rngs) back into
    # them, so only plain arrays passed in a donated position are deleted
    arrays_only: bool = False
    # donated parameters (by name) some returned value visibly has the shape and dtype of: XLA reuses their buffers
    reused: frozenset[str] = frozenset()
    offset: int = 0  # 1 for a method called through self: the call's argument i is parameter i + 1
    parameters: tuple[str, ...] = ()  # the wrapped function's positional parameters (empty: not visible)


class Donations(Fact):
    """The donation part of ModuleModel (see model.py)."""

    _donated_calls: list[DonatedCall] | None = None

    def donated_calls(self) -> list[DonatedCall]:
        """Every call of this module that passes arguments in donated positions (computed once)."""
        if self._donated_calls is None:
            self._donated_calls = self._find_donated_calls()
        return self._donated_calls

    def _donor(self, site: TraceSite, wrapped: FunctionInfo | None, method_call: bool) -> _Donor | None:
        if not site.donate_argnums and not site.donate_argnames:
            return None
        positional = [p.arg for p in [*wrapped.node.args.posonlyargs, *wrapped.node.args.args]] if (
            wrapped is not None and not isinstance(wrapped.node, ast.Lambda)) else []
        positions = {i for i in site.donate_argnums if i >= 0}
        positions.update(positional.index(n) for n in site.donate_argnames if n in positional)
        # jax infers each from the other through the signature: f(a=x) donates x under donate_argnums=0
        names = set(site.donate_argnames) | {positional[i] for i in positions if i < len(positional)}
        reused = _returned_like(wrapped, frozenset(names)) if wrapped is not None and not isinstance(wrapped.node, ast.Lambda) \
            else frozenset()
        if method_call:  # self.f(x): the call's first argument is the function's second parameter
            positions = {i - 1 for i in positions if i >= 1}
        return _Donor(frozenset(positions), frozenset(names), site.transform in _WRITES_BACK_DONATED, reused,
                      1 if method_call else 0, tuple(positional))

    def _find_donated_calls(self) -> list[DonatedCall]:
        by_name: dict[tuple[int, str], _Donor] = {}  # (id of the scope whose calls it covers, name) -> donor
        by_attribute: dict[tuple[str, str], _Donor] = {}  # (class qualname, attribute) -> donor (self.g = ...)
        direct: dict[int, _Donor] = {}  # id(call) -> donor, for jax.jit(f, donate_argnums=...)(x)
        for info in self.scopes.functions.values():  # decorated functions
            if not info.donated_params or isinstance(info.node, ast.Lambda):
                continue
            for site in info.traces:
                if site.node in info.node.decorator_list:
                    is_method = info.parent is None and "." in info.qualname
                    donor = self._donor(site, info, is_method)
                    if donor is None:
                        continue
                    if is_method:
                        by_attribute[(info.qualname.rsplit(".", 1)[0], info.name)] = donor
                    else:
                        by_name[(id(info.parent), info.name)] = donor
        # g = jax.jit(f, donate_argnums=...), jax.jit(f, ...)(x): among the calls that may apply a transformation
        # (asking transform_of of every call of a 5,000-line module was most of this rule's time on each edit)
        for call in self.traced.transform_calls():
            scope = self.scopes.enclosing_function(call)
            found_site = self.traced.transform_of(call.func, scope)
            if found_site is None or not call.args:
                continue
            site = _with_static(found_site, call.keywords)
            wrapped = self.scopes.resolve_function(call.args[0], scope)
            donor = self._donor(site, wrapped, False)
            if donor is None:
                continue
            parent = self.scopes.parents.get(call)
            if isinstance(parent, ast.Call) and parent.func is call:
                direct[id(parent)] = donor
            elif isinstance(parent, ast.Assign) and len(parent.targets) == 1:
                target = parent.targets[0]
                if isinstance(target, ast.Name):
                    by_name[(id(scope), target.id)] = donor
                elif (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                      and target.value.id == "self" and scope is not None and "." in scope.outermost.qualname):
                    by_attribute[(scope.outermost.qualname.rsplit(".", 1)[0], target.attr)] = donor
        found: list[DonatedCall] = []
        project = self.model.project
        imported: dict[str, _Donor | None] = {}
        # the names this module imports from packages other than the libraries the rules know (a project's own
        # modules, another package the index reads): only calls through them may donate in another module
        heads = {alias for alias, q in self.scopes.aliases.items()
                 if q.split(".", 1)[0] not in _KNOWN_LIBRARIES} if project is not None else set()
        if not heads:
            project = None
        if not (by_name or by_attribute or direct or project is not None):
            return found
        local_donors = bool(by_name or by_attribute or direct)
        for node in self.scopes.nodes(ast.Call):
            assert isinstance(node, ast.Call)
            if not local_donors:  # only calls through an imported name may donate: the others cost nothing
                root = node.func
                while isinstance(root, ast.Attribute):
                    root = root.value
                if not (isinstance(root, ast.Name) and root.id in heads and node.args):
                    continue
            scope = self.scopes.enclosing_function(node)
            donor = direct.get(id(node))
            callee = "jax.jit(...)"
            func = node.func
            if donor is None and isinstance(func, ast.Name):
                callee = func.id
                donor = self._donor_of_name(func.id, scope, by_name)
            elif (donor is None and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                  and func.value.id == "self" and scope is not None):
                callee = f"self.{func.attr}"
                owner = scope.outermost.qualname.rsplit(".", 1)[0]
                donor = by_attribute.get((owner, func.attr))
            if donor is None and project is not None and node.args and isinstance(func, (ast.Name, ast.Attribute)):
                spelled = dotted(func)
                head = spelled.split(".", 1)[0] if spelled is not None else ""
                if spelled is not None and head in heads and not (
                        scope is not None and self.scopes.is_local(head, scope)):
                    if spelled not in imported:  # (asked once per spelling: most calls are of a few functions)
                        imported[spelled] = self._imported_donor(func, scope)
                    donor, callee = imported[spelled], spelled
            if donor is None or expected_to_raise(node, self.scopes.parents):
                continue  # (`with pytest.raises(ValueError): update(x, cache)`: it raises before it runs, x is kept)
            arguments: list[ast.expr] = []
            used: list[bool] = []
            for i, arg in enumerate(node.args):
                if isinstance(arg, ast.Starred):
                    break
                if i in donor.positions:
                    arguments.append(arg)
                    at = i + donor.offset
                    used.append(at < len(donor.parameters) and donor.parameters[at] in donor.reused)
            for kw in node.keywords:
                if kw.arg in donor.names:
                    arguments.append(kw.value)
                    used.append(kw.arg in donor.reused)
            if donor.arrays_only:
                kept = [(a, u) for a, u in zip(arguments, used, strict=True)
                        if self.kinds.kind_of(a, scope) in (*ARRAYS, Kind.KEY)]
                arguments, used = [a for a, _ in kept], [u for _, u in kept]
            if arguments:
                found.append(DonatedCall(node, scope, callee, tuple(arguments), tuple(used)))
        found.sort(key=lambda d: (d.call.lineno, d.call.col_offset))
        return found

    def _imported_donor(self, func: ast.Name | ast.Attribute, scope: FunctionInfo | None) -> _Donor | None:
        """A function of another module of the project (or an installed package the index reads) decorated
        `@partial(jax.jit, donate_argnums=...)`, called by the name this module imports (`apply_grads(params, g)`,
        `steps.apply_grads(...)`): what its summary says it donates. Whether XLA uses each donation is not read
        there, so the reads after it say "may be invalid"."""
        head: ast.expr = func
        while isinstance(head, ast.Attribute):
            head = head.value
        project = self.model.project
        if project is None or not isinstance(head, ast.Name) or (
                scope is not None and self.scopes.is_local(head.id, scope)):
            return None
        qualified = project.qualified(func)
        if qualified is None or qualified.split(".")[0] in ("jax", "jaxlib", "numpy", "flax", "equinox", "optax"):
            return None
        found = project.donated_positions(qualified)
        if found is None:
            return None
        donated, positional = found
        names = frozenset(positional[i] for i in donated if i < len(positional))
        return _Donor(frozenset(donated), names, False, frozenset(), 0, positional)

    def _donor_of_name(self, name: str, scope: FunctionInfo | None, by_name: dict[tuple[int, str], _Donor]) -> _Donor | None:
        cur = scope
        while cur is not None:
            if (id(cur), name) in by_name:
                return by_name[(id(cur), name)]
            if name in cur.local_names:
                return None  # a local of the same name hides the outer donor
            cur = cur.parent
        return by_name.get((id(None), name))

    # ---- what runs after a point -------------------------------------------------------------------------

    def reads_after(self, node: ast.AST, name: str) -> list[ast.Name]:
        """The reads (`ast.Name` loads) of `name` that may run after `node` (an expression) is evaluated, on
        some path through its function (or module), before `name` is rebound: later in the same statement,
        in the statements after it, after the blocks that enclose it, and in the next iteration of an enclosing
        loop. Bodies of nested functions and lambdas are not followed (they run when called)."""
        return self._reads_after(node, name)  # type: ignore[return-value]

    def attribute_reads_after(self, node: ast.AST, attribute: ast.Attribute, scope: FunctionInfo) -> list[ast.Attribute]:
        """`reads_after` for `self.ATTR` in a method (`new = step(self.params, x)` then `self.params.sum()`):
        the reads of `self.ATTR` that may run after `node` before it is rebound (`self.ATTR = ...`). A statement
        that may rebind it otherwise ends the search there: a call of a method of the class that stores it (or a
        method the class does not define: inherited, unseen), a call handed `self`, `setattr`."""
        return self._reads_after(node, _SelfAttribute(attribute.attr, self._may_rebind(scope, attribute.attr)))  # type: ignore[return-value]

    def _may_rebind(self, scope: FunctionInfo, attr: str) -> _MayRebind:
        """Whether a call in a method of the class may store `self.attr` (see `attribute_reads_after`)."""
        owner = scope.outermost.qualname.rsplit(".", 1)[0]
        methods = {f.name: f.node for f in self.scopes.functions.values()
                   if f.parent is None and f.qualname == f"{owner}.{f.name}" and not isinstance(f.node, ast.Lambda)}
        attributes = {t.attr for node in methods.values() for n in walk_nodes(node)
                      if isinstance(n, (ast.Assign, ast.AnnAssign)) for t in (
                          n.targets if isinstance(n, ast.Assign) else [n.target])
                      if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
        return _MayRebind(attr, methods, frozenset(attributes))  # type: ignore[arg-type]

    def _reads_after(self, node: ast.AST, name: str | _SelfAttribute) -> list[ast.expr]:
        stmt: ast.AST = node
        while not isinstance(stmt, ast.stmt):
            parent = self.scopes.parents.get(stmt)
            if parent is None or isinstance(parent, (*_SCOPE_NODES, *_COMPREHENSIONS)):
                return []  # inside a lambda or comprehension: not followed
            stmt = parent
        end = (getattr(node, "end_lineno", 0), getattr(node, "end_col_offset", 0))
        inside = {id(n) for n in walk_nodes(node)}
        reads: list[ast.expr] = []
        header: list[ast.AST] = _header(stmt)
        for part in header:
            reads.extend(n for n in _loads(part, name) if id(n) not in inside and (n.lineno, n.col_offset) >= end)
        if _binds_on_every_path(stmt, name) and not isinstance(stmt, ast.AugAssign):
            return reads
        if isinstance(stmt, (ast.If, ast.While, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
            r, killed = self._walk_block(stmt.body, name)
            reads.extend(r)
            if isinstance(stmt, ast.If):
                r2, killed2 = self._walk_block(stmt.orelse, name)
                reads.extend(r2)
                killed = killed and killed2
            elif not isinstance(stmt, (ast.With, ast.AsyncWith)):
                killed = False
            if killed:
                return reads
        self._climb(stmt, name, reads)
        return reads

    def _climb(self, stmt: ast.AST, name: str | _SelfAttribute, reads: list[ast.expr]) -> None:
        """Adds the reads after `stmt` in its block, then after each enclosing block, up to its function."""
        current = stmt
        while True:
            parent = self.scopes.parents.get(current)
            if parent is None:
                return
            block = next((b for b in statement_lists(parent) if current in b), None)
            if block is None:  # an expression part of a compound statement: its blocks were walked already
                current = parent
                continue
            index = block.index(current)  # type: ignore[arg-type]
            r, killed = self._walk_block(block[index + 1:], name)
            reads.extend(r)
            if killed or isinstance(parent, (*_SCOPE_NODES, ast.Module)):
                return
            if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and block is parent.body:
                # the next iteration: the loop test, then the body again up to this statement
                if isinstance(parent, ast.While):
                    reads.extend(_loads(parent.test, name))
                if not (isinstance(parent, (ast.For, ast.AsyncFor)) and _binds_target(parent.target, name)):
                    r, _ = self._walk_block(parent.body[: index + 1], name)
                    reads.extend(r)
                r, killed = self._walk_block(parent.orelse, name)
                reads.extend(r)
                if killed:
                    return
            current = parent

    def _walk_block(self, body: list[ast.stmt], name: str | _SelfAttribute) -> tuple[list[ast.expr], bool]:
        """Reads of `name` in these statements until it is rebound on every path; and whether it is."""
        reads: list[ast.expr] = []
        for stmt in body:
            r, killed = self._walk_stmt(stmt, name)
            reads.extend(r)
            if killed:
                return reads, True
        return reads, False

    def _walk_stmt(self, stmt: ast.stmt, name: str | _SelfAttribute) -> tuple[list[ast.expr], bool]:
        reads: list[ast.expr] = []
        for part in _header(stmt):
            reads.extend(_loads(part, name))
        if isinstance(stmt, ast.If):
            r1, k1 = self._walk_block(stmt.body, name)
            r2, k2 = self._walk_block(stmt.orelse, name)
            return reads + r1 + r2, k1 and k2
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            if isinstance(stmt, (ast.For, ast.AsyncFor)) and _binds_target(stmt.target, name):
                return reads, False
            r1, _ = self._walk_block(stmt.body, name)
            r2, k2 = self._walk_block(stmt.orelse, name)
            return reads + r1 + r2, False
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            r1, k1 = self._walk_block(stmt.body, name)
            return reads + r1, k1
        if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            r1, k1 = self._walk_block(stmt.body, name)  # type: ignore[attr-defined]
            for handler in stmt.handlers:  # type: ignore[attr-defined]
                r, _ = self._walk_block(handler.body, name)
                r1 += r
            r2, k2 = self._walk_block(stmt.orelse, name)  # type: ignore[attr-defined]
            r3, k3 = self._walk_block(stmt.finalbody, name)  # type: ignore[attr-defined]
            return reads + r1 + r2 + r3, (k1 and not stmt.handlers) or k3  # type: ignore[attr-defined]
        if isinstance(stmt, ast.Match):
            killed_all = bool(stmt.cases)
            for case in stmt.cases:
                r, k = self._walk_block(case.body, name)
                reads += r
                killed_all = killed_all and k
            return reads, killed_all
        if isinstance(stmt, (ast.Return, ast.Raise)):
            return reads, True  # the path ends here
        return reads, _binds_on_every_path(stmt, name)



def _header(stmt: ast.AST) -> list[ast.AST]:
    """The parts of a statement evaluated before (or instead of) its blocks."""
    if isinstance(stmt, (ast.If, ast.While)):
        return [stmt.test]
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [stmt.iter]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [item.context_expr for item in stmt.items]
    if isinstance(stmt, ast.Match):
        return [stmt.subject]
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return list(stmt.decorator_list)
    if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
        return []
    return [stmt]


@dataclass(frozen=True)
class _SelfAttribute:
    """`self.attr` followed in place of a name (see `Donations.attribute_reads_after`)."""

    attr: str
    may_rebind: Callable[[ast.Call], bool]  # a call that may store `self.attr` by other means

    def held(self, node: ast.AST) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr == self.attr and isinstance(node.value, ast.Name)
                and node.value.id == "self")


class _MayRebind:
    """Whether a call in a method may store `self.attr` (see `Donations.attribute_reads_after`): `self.m(...)` of a
    method of the class that stores it (itself or through the methods it calls so), or of a method the class does
    not define (inherited, unseen); a call handed `self`; `setattr`."""

    def __init__(self, attr: str, methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
                 attributes: frozenset[str]) -> None:
        self.attr, self.methods, self.attributes = attr, methods, attributes
        self.storing: dict[str, bool] = {}

    def __call__(self, call: ast.Call) -> bool:
        return _rebinds_by_call(call, self.stores, frozenset())

    def stores(self, name: str, seen: frozenset[str]) -> bool:
        if name in self.storing:
            return self.storing[name]
        method = self.methods.get(name)
        if method is None:
            return name not in self.attributes  # unseen (inherited) may store it; `self.step = jax.jit(...)`: no
        if name in seen:
            return False
        found = any(
            (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
             and n.attr == self.attr and not isinstance(n.ctx, ast.Load))
            or (isinstance(n, ast.Call) and _rebinds_by_call(n, self.stores, seen | {name}))
            for n in walk_nodes(method))
        self.storing[name] = found
        return found


def _rebinds_by_call(call: ast.Call, stores: Callable[[str, frozenset[str]], bool], seen: frozenset[str]) -> bool:
    """A call that may store an attribute of `self` by other means than an assignment: `self.m(...)` with
    `stores(m)`, a call handed `self`, `setattr`/`delattr`, `vars(self).update`/`self.__dict__` writes."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in ("setattr", "delattr"):
        return True
    if any(isinstance(a, ast.Name) and a.id == "self" for a in [*call.args, *(k.value for k in call.keywords)]):
        return True
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" and (
        stores(func.attr, seen))


def _loads(node: ast.AST, name: str | _SelfAttribute) -> list[ast.expr]:
    """Loads of `name` (or of `self.attr`) in an expression or simple statement, in source order, not inside lambdas
    or nested definitions; the target of `name += v` counts (it reads before it writes)."""
    held = name.held if isinstance(name, _SelfAttribute) else _NameHeld(name)
    out: list[ast.expr] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        if held(cur):
            if isinstance(cur.ctx, ast.Load):  # type: ignore[attr-defined]
                out.append(cur)  # type: ignore[arg-type]
            continue
        if isinstance(cur, ast.AugAssign) and held(cur.target):
            out.append(cur.target)
        if isinstance(cur, _SCOPE_NODES) and cur is not node:
            continue
        stack.extend(ast.iter_child_nodes(cur))
    out.sort(key=lambda n: (n.lineno, n.col_offset))
    return out


@dataclass(frozen=True)
class _NameHeld:
    """`_SelfAttribute.held` for a plain name."""

    name: str

    def __call__(self, node: ast.AST) -> bool:
        return type(node) is ast.Name and node.id == self.name  # type: ignore[attr-defined]


def _binds_target(target: ast.AST, name: str | _SelfAttribute) -> bool:
    if isinstance(name, _SelfAttribute):
        return any(name.held(n) and isinstance(n.ctx, (ast.Store, ast.Del)) for n in walk_nodes(target))  # type: ignore[attr-defined]
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in walk_nodes(target))


def _binds_on_every_path(stmt: ast.AST, name: str | _SelfAttribute) -> bool:
    """Whether a simple statement rebinds (or deletes) `name` on every path through it (for `self.attr`: or may
    rebind it through a call, see `_rebinds_by_call`)."""
    if isinstance(name, _SelfAttribute):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return False
        if isinstance(stmt, ast.Delete):
            return any(_binds_target(t, name) for t in stmt.targets)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and any(
                _binds_target(t, name) for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])):
            return stmt.value is not None
        return any(isinstance(n, ast.Call) and name.may_rebind(n) for n in walk_nodes(stmt))
    if isinstance(stmt, ast.Assign):
        return any(_binds_target(t, name) for t in stmt.targets)
    if isinstance(stmt, ast.AnnAssign):
        return stmt.value is not None and _binds_target(stmt.target, name)
    if isinstance(stmt, ast.AugAssign):
        return _binds_target(stmt.target, name)
    if isinstance(stmt, ast.Delete):
        return any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return stmt.name == name
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return any((a.asname or a.name).split(".")[0] == name for a in stmt.names)
    return False


_AT_UPDATES = {"set", "add", "multiply", "mul", "divide", "power", "min", "max", "apply"}


def _returned_like(fn: FunctionInfo, names: frozenset[str]) -> frozenset[str]:
    """The donated parameters some value the function returns visibly has the shape and dtype of: the parameter
    itself, arithmetic on it with no call inside (`x + 1`, `p - lr * g`), `p.at[i].set(v)`, a tree map over it
    (`jax.tree.map(f, params, grads)`), or a local bound once to one of these. XLA then reuses the donated
    buffer for that output and deletes the input; otherwise it may decline the donation (a warning) and keep
    the input's buffer."""
    node = fn.node
    if isinstance(node, ast.Lambda):
        return frozenset()
    bound: dict[str, list[ast.expr]] = {}
    for n in walk_nodes(node):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            bound.setdefault(n.targets[0].id, []).append(n.value)
    out: set[str] = set()
    for n in walk_nodes(node):
        if isinstance(n, ast.Return) and n.value is not None:
            values = n.value.elts if isinstance(n.value, (ast.Tuple, ast.List)) else [n.value]
            for value in values:
                out |= _like(value, names, bound)
    return frozenset(out)


_IMPORTS_FREE = {"tree", "tree_util", "optax"}


def _like(expr: ast.expr, names: frozenset[str], bound: dict[str, list[ast.expr]], depth: int = 0) -> set[str]:
    """The donated parameters `expr` visibly has the shape and dtype of (see `_returned_like`; a function of the
    module, not a closure that calls itself: that is a reference cycle, left to the cycle collector)."""
    if isinstance(expr, ast.Name):
        if expr.id in names:
            return {expr.id}
        values = bound.get(expr.id, [])
        return _like(values[0], names, bound, depth + 1) if len(values) == 1 and depth < 4 else set()
    if isinstance(expr, (ast.BinOp, ast.UnaryOp)):
        if any(isinstance(n, ast.Call) for n in walk_nodes(expr)):
            return set()
        return {n.id for n in walk_nodes(expr) if isinstance(n, ast.Name) and n.id in names}
    if isinstance(expr, ast.Call):
        func = expr.func
        if (isinstance(func, ast.Attribute) and func.attr in _AT_UPDATES and isinstance(func.value, ast.Subscript)
                and isinstance(func.value.value, ast.Attribute) and func.value.value.attr == "at"):
            return _like(func.value.value.value, names, bound, depth + 1)
        text = ast.unparse(func)
        if text.rsplit(".", 1)[-1] in ("map", "tree_map", "apply_updates") and (
                "." not in text or text.split(".")[-2] in _IMPORTS_FREE or text.startswith("jax.")):
            return {a.id for a in expr.args if isinstance(a, ast.Name) and a.id in names}
    return set()
