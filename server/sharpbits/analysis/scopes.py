"""Names and scopes of one module: the one walk over the tree (parents, owners, node indexes), the functions
it defines, and what imported names refer to (`jnp.zeros` -> `jax.numpy.zeros`, under any alias)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from sharpbits.analysis.syntax import (
    CHILD_FIELDS,
    SPECIAL_NODES,
    FunctionNode,
    child_fields_of,
    iter_children,
)

if TYPE_CHECKING:
    from sharpbits.analysis.kinds import Kind
    from sharpbits.analysis.reuse import Reusable
    from sharpbits.analysis.traced import TraceSite

T = TypeVar("T")


def imported_names(node: ast.Import | ast.ImportFrom) -> list[tuple[str, str]]:
    """(the name an import binds, what it names): `import jax.numpy` binds `jax`; a relative import keeps its
    dots (`from ..utils import X` -> `..utils.X`); `*` binds nothing known."""
    if isinstance(node, ast.Import):
        return [(a.asname, a.name) if a.asname else (a.name.split(".")[0], a.name.split(".")[0]) for a in node.names]
    base = "." * (node.level or 0) + (node.module or "")
    return [(a.asname or a.name, f"{base}{'' if base.endswith('.') or not base else '.'}{a.name}")
            for a in node.names if a.name != "*"]


@dataclass
class FunctionInfo:
    node: FunctionNode
    name: str
    qualname: str
    parent: FunctionInfo | None
    params: list[str]
    param_nodes: list[ast.arg]
    traces: list[TraceSite] = field(default_factory=list)
    local_names: set[str] = field(default_factory=set)
    outer_names: set[str] = field(default_factory=set)  # declared `global` or `nonlocal`: never local
    static_params: set[str] = field(default_factory=set)
    param_kinds: dict[str, Kind] = field(default_factory=dict)
    compiled: bool = False  # traced by something that compiles it (not only jax.eval_shape / jax.make_jaxpr)
    # traced with abstract values (jit, vmap, scan bodies, eval_shape, ...): a Python `if`, `print` or `float()`
    # on a traced argument sees a tracer with no value. False under grad/jvp alone, which run on concrete values.
    abstract: bool = False
    donated_params: set[str] = field(default_factory=set)  # donated by the decorator's donate_argnums/argnames
    # names its own body binds by `import`/`from ... import` -> what they name (`jr` -> `jax.random`; relative
    # imports keep their dots: `.utils.GenerateRNG`); "" where the name is bound otherwise too (it may be either)
    imports: dict[str, str] = field(default_factory=dict)

    def unfilled_copy(self, parent: FunctionInfo | None) -> FunctionInfo:
        """The same function (node, names, parameters, locals) with nothing the later phases fill in, as the walk
        makes it. The walk's lists and sets are shared: nothing changes them after the walk. (What `FunctionInfo(
        node, name, qualname, parent, params, param_nodes, local_names=..., outer_names=...)` gives, without the
        dataclass constructor's cost: a 5,000-line file copies a thousand of these on every edit.)"""
        new = object.__new__(FunctionInfo)
        new.__dict__.update(
            node=self.node, name=self.name, qualname=self.qualname, parent=parent, params=self.params,
            param_nodes=self.param_nodes, traces=[], local_names=self.local_names, outer_names=self.outer_names,
            static_params=set(), param_kinds={}, compiled=False, abstract=False, donated_params=set(),
            imports=self.imports)
        return new

    @property
    def outermost(self) -> FunctionInfo:
        """The module-level function (or method) this one is defined in; itself when it is one."""
        fn = self
        while fn.parent is not None:
            fn = fn.parent
        return fn

    @property
    def traced(self) -> bool:
        return bool(self.traces)

    @property
    def trace_reason(self) -> str:
        return self.traces[0].reason if self.traces else ""



class Scopes:
    """The scope part of ModuleModel (see model.py): built by `_collect`, queried by every rule."""

    _exits: dict[int, int | None] | None = None  # id(statement list) -> the last line of its first exit (never_runs)
    # id(statement list) -> its `if` statements whose body or else always leaves the list (never_runs)
    _leaving_ifs: dict[int, list[tuple[ast.If, bool, bool]]] | None = None

    tree: ast.Module
    aliases: dict[str, str]
    functions: dict[FunctionNode, FunctionInfo]
    parents: dict[ast.AST, ast.AST]
    module_functions: dict[str, FunctionInfo]
    owner: dict[ast.AST, FunctionNode | None]  # node -> the node of its function (None: module level)
    _by_type: dict[type, list[ast.AST]]  # nodes by type (see `nodes`; when walks are reused, merged per type)
    owned: dict[int, list[ast.AST]]
    _names: set[str] | None
    _module_bindings: dict[str, ast.AST] | None = None
    _module_classes: dict[str, ast.ClassDef] | None = None
    _statement_walks: dict[int, _StatementWalk]  # id(top-level statement) -> its walk (when walks are reused)
    # when walks are reused: the walks `by_type` is merged from, per type on demand, after the top-level statements
    # (`_top_level`, by type), and the types none has
    _merged_from: list[_StatementWalk] | None = None
    _top_level: dict[type, list[ast.AST]]
    _absent: set[type]
    _facts: dict[tuple[object, int], tuple[ast.AST, object]]  # (what, id(node)) -> (node, fact): see syntax_fact
    _own_calls: dict[int, list[ast.Call]]  # id(function info) -> the calls of its own nodes (see `own_calls`)
    reusable: Reusable | None  # what an earlier version of the document left (analysis/reuse.py)
    _imports: frozenset[tuple[str, str]] = frozenset()  # the aliases once all are known (imports_fact's key)

    # Answers of `qualname`, by node, once the imports are all known (the end of `_collect`): id(node) -> (node,
    # the scope's node it was asked for, the answer). Taken from an earlier version when the imports are the same
    # (analysis/reuse.py): the same node means the same statement, so the same names are local.
    _qualnames: dict[int, tuple[ast.AST, ast.AST | None, str | None]] | None = None

    def __init__(self, tree: ast.Module, reusable: Reusable | None = None) -> None:
        """One walk over `tree` (see `_collect`). `reusable`: what the model of an earlier version of the same
        document left (analysis/reuse.py), updated to this one's; the scopes are the same with or without it."""
        self.tree = tree
        self.reusable = reusable
        if reusable is not None:
            # `syntax_fact` is the kept facts' own look-up (one call less per fact: some 11,000 an edit of a
            # 5,000-line module)
            self.syntax_fact = reusable.syntax.get  # type: ignore[method-assign,assignment]
        self.aliases = {}  # local name -> qualified name of a module or attribute
        self.functions = {}
        self.parents = {}
        self.module_functions = {}  # top-level defs by name
        self.owner = {}  # node -> its function's node (None: module level)
        self._by_type = {}
        self.owned = {}
        self._statement_walks = {}
        self._absent = set()
        self._facts = {}
        self._own_calls = {}
        self._names = None
        self._collect(reusable.walks if reusable is not None else None)

    def qualname(self, node: ast.AST, scope: FunctionInfo | None = None) -> str | None:
        """`jnp.zeros` -> `jax.numpy.zeros`; None when the expression is not a dotted module path."""
        memo = self._qualnames
        if memo is not None:
            known = memo.get(id(node))
            if known is not None and known[0] is node and known[1] is (scope.node if scope is not None else None):
                return known[2]
        answer = self._qualname(node, scope)
        if memo is not None:
            memo[id(node)] = (node, scope.node if scope is not None else None, answer)
        return answer

    def _qualname(self, node: ast.AST, scope: FunctionInfo | None) -> str | None:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        if scope is not None and self.is_local(node.id, scope):
            base = self.local_import(node.id, scope)
        else:
            base = self.aliases.get(node.id)
        if base is None:
            return None
        return ".".join([base, *reversed(parts)])

    def spelling_of(self, qualified: str) -> str | None:
        """How this module names e.g. `jax.numpy` (`jnp`), or `jax.numpy` through `import jax`; None if it
        imports neither (a fix that needs it then is not offered, or adds the import itself)."""
        for local, target in self.aliases.items():
            if target == qualified:
                return local
        head, _, rest = qualified.partition(".")
        for local, target in self.aliases.items():
            if target == head:
                return f"{local}.{rest}"
        return None

    def enclosing_function(self, node: ast.AST) -> FunctionInfo | None:
        scope = self.owner.get(node)
        return self.functions.get(scope) if scope is not None else None

    def all_names(self) -> set[str]:
        """Every identifier used in the module (for choosing fresh names)."""
        if self._names is None:
            names: set[str] = set().union(*self.per_statement("names", ast.Name, _names_in))
            self._names = names | set(self.aliases) | {f.name for f in self.functions.values()}
        return self._names

    # ---- collection ------------------------------------------------------------------------------------

    def _collect(self, reusable: StatementWalks | None = None) -> None:
        """One walk over the tree: parents, functions, imports, and indexes the rules use instead of walking
        again (nodes by type, and each node's owning function). The hottest loop of the analysis.

        The walk of each top-level statement is kept in `reusable` (when given) and taken from there when the
        same statement object comes again (IncrementalAnalysis shares the unchanged statements of the previous
        version's tree): the indexes come out exactly as a fresh walk builds them, in the same order."""
        tree = self.tree
        carried = reusable.merged if reusable is not None else None
        if reusable is not None:
            reusable.merged = None  # set again once this walk is complete: a failed one leaves nothing to copy
        if carried is not None:  # the last version's parents and owners: only what changed is taken out and put in
            self.parents, self.owner = dict(carried[0]), dict(carried[1])
        parents, owner, by_type, owned = self.parents, self.owner, self._by_type, self.owned
        new_walks: set[int] = set()  # ids of the walks made for this version (not taken from the last one)
        module_list: list[ast.AST] = []
        owned[id(None)] = module_list
        walks: list[_StatementWalk] = []
        statements: list[tuple[ast.AST, FunctionInfo | None]] = []
        for child in iter_children(tree):
            parents[child] = tree
            owner[child] = None
            cls = type(child)
            by_type.setdefault(cls, []).append(child)
            module_list.append(child)
            top: FunctionInfo | None = None
            if reusable is None:  # walked below, straight into the indexes
                if cls is ast.FunctionDef or cls is ast.AsyncFunctionDef:
                    top = self._function_info(child, None, "")  # type: ignore[arg-type]
                statements.append((child, top))
            else:
                walk = reusable.get(child)
                if walk is None:
                    walk = _StatementWalk.of(self, child)
                    reusable.keep(child, walk)
                    new_walks.add(id(walk))
                else:
                    walk = walk.copy()  # fresh FunctionInfos: the later phases of the analysis fill them in
                walks.append(walk)
                self._statement_walks[id(child)] = walk
                top = walk.top
            if top is not None:
                self.functions[child] = top  # type: ignore[index]
                self.module_functions[top.name] = top
            elif cls is ast.Import or cls is ast.ImportFrom:
                self._note_import(child)  # type: ignore[arg-type]
            elif cls is ast.Assign:
                self._note_module_alias(child)  # type: ignore[arg-type]
        if reusable is None:
            # the statements last to first, as a walk with one stack over the whole tree goes
            for child, top in reversed(statements):
                walk = _StatementWalk.of(self, child, top, into_model=True)
                for info in walk.nested:
                    self.functions[info.node] = info
                for node in walk.imports:
                    self._note_import(node)
            self._qualnames, self._imports = {}, frozenset(self.aliases.items())
            return
        for statement, gone in reusable.forget_all_but(tree):
            if carried is not None:
                for dropped in (statement, *gone.parents):
                    parents.pop(dropped, None)
                    owner.pop(dropped, None)
        # a fresh walk goes through the top-level statements last to first (a stack): so does the merge
        functions = self.functions
        for walk in reversed(walks):
            if carried is None or id(walk) in new_walks:
                parents.update(walk.parents)
                owner.update(walk.owner)
            for scope, nodes in walk.owned:
                if scope is None:
                    module_list.extend(nodes)
                else:
                    owned[id(scope)] = list(nodes)
            for info in walk.nested:
                functions[info.node] = info
            for node in walk.imports:
                self._note_import(node)
        # nodes by type: merged from the walks when a type is first asked for (`nodes`): an edit asks a few of
        # the fifty-odd types the walks index (merging them all was some 2% of an edit of a 5,000-line module)
        self._top_level, self._by_type, self._merged_from = by_type, {}, walks
        self._qualnames, self._imports = reusable.qualnames(self.aliases, len(parents)), frozenset(self.aliases.items())
        reusable.merged = (parents, owner)  # never changed after this: the next version copies them

    def nodes(self, *types: type) -> list[ast.AST]:
        """Every node of these types in the module (from the index built by the one walk)."""
        if len(types) == 1:
            found = self._by_type.get(types[0])
            return found if found is not None else self._merged(types[0])
        return [n for t in types for n in self.nodes(t)]

    def _merged(self, cls: type) -> list[ast.AST]:
        """The nodes of a type not yet in `by_type`: the top-level statements of that type, then the walks' nodes
        of it, statements last to first (what `_collect` merging every type gives); [] when none."""
        walks = self._merged_from
        if walks is None or cls in self._absent:
            return []
        top = self._top_level.get(cls)
        merged = list(top) if top is not None else []
        for walk in reversed(walks):
            part = walk.by_type.get(cls)
            if part:
                merged.extend(part)
        if not merged:
            self._absent.add(cls)
            return []
        self._by_type[cls] = merged
        return merged

    @property
    def by_type(self) -> dict[type, list[ast.AST]]:
        """Every node of the module by type (each list in the order of `nodes`), all types merged."""
        if self._merged_from is not None:
            for cls in {*self._top_level, *(t for walk in self._merged_from for t in walk.by_type)}:
                self.nodes(cls)
        return self._by_type

    def syntax_fact(self, what: object, node: ast.AST, compute: Callable[..., T], *args: object) -> T:
        """`compute(*args)`: a fact that follows from the top-level statement that holds `node` alone (its nodes, their
        types, the names its functions bind; no import resolved, no kind asked), named `what`. Computed once per
        node and kept across versions while IncrementalAnalysis shares the node, which it does only together
        with its whole top-level statement (analysis/reuse.py). `args`: given to `compute` (so that a caller asking
        about every statement builds no closure for the facts that are kept)."""
        facts = self.reusable.syntax if self.reusable is not None else None
        if facts is not None:
            return facts.get(what, node, compute, *args)  # type: ignore[return-value]
        # no earlier version: kept for this analysis alone, as `facts` keeps it within one version (the PRNG-key
        # rule asks for a module-level function's key facts twice)
        key = (what, id(node))
        found = self._facts.get(key)
        if found is None or found[0] is not node:
            found = self._facts[key] = (node, compute(*args))
        return found[1]  # type: ignore[return-value]

    def imports_fact(self, what: str, node: ast.AST, compute: Callable[..., T], *args: object) -> T:
        """`syntax_fact` for a fact that also follows from the imports (what names refer to): kept while the
        imports are the same as well."""
        return self.syntax_fact((what, self._imports), node, compute, *args)

    def per_statement(self, what: str, cls: type, compute: Callable[[list[ast.AST]], T],
                      imports: bool = False) -> list[T]:
        """`compute(nodes)` over the nodes of one type inside each top-level statement, in the order of
        `nodes(cls)` (statements last to first), kept per statement across versions (`syntax_fact`, or
        `imports_fact` when the fact also follows from the imports); one part for the whole module when no
        walks are kept. For types no top-level statement has (calls, names, subscripts)."""
        if self.reusable is None:
            return [compute(self.nodes(cls))]
        fact = self.imports_fact if imports else self.syntax_fact
        part = self._statement_part
        return self.reusable.parts.parts(  # type: ignore[return-value]
            what, self.tree.body[::-1], lambda statement: fact(what, statement, part, compute, statement, cls),
            self._imports if imports else None)

    def _statement_part(self, compute: Callable[[list[ast.AST]], T], statement: ast.AST, cls: type) -> T:
        return compute(self.statement_nodes(statement, cls))

    def _kept_in(self, statement: ast.AST, types: tuple[type, ...], keep: Callable[[ast.AST], bool],
                 ) -> tuple[list[ast.AST], ...]:
        return _kept([self.statement_nodes(statement, t) for t in types], keep)

    def candidates(self, what: str, types: tuple[type, ...], keep: Callable[[ast.AST], bool]) -> list[ast.AST]:
        """`[n for n in self.nodes(*types) if keep(n)]`, where `keep` (a module-level function, named `what`)
        looks at a node's own syntax only: no import, scope or kind. A rule's first filter over the module, kept
        per top-level statement across versions (IncrementalAnalysis), so an edit filters one statement again."""
        if self.reusable is None:
            return [n for n in self.nodes(*types) if keep(n)]
        body = self.tree.body
        fact, kept_in = self.syntax_fact, self._kept_in
        parts: list[tuple[list[ast.AST], ...]] = self.reusable.parts.parts(  # type: ignore[assignment]
            what, body[::-1], lambda statement: fact(what, statement, kept_in, statement, types, keep))
        # the order of nodes(*types): per type, the top-level statements first, then each statement's own nodes,
        # statements last to first
        return [n for i, t in enumerate(types)
                for n in [*(s for s in body if type(s) is t and keep(s)), *(n for part in parts for n in part[i])]]

    def own_candidates(self, what: str, fn: FunctionInfo, keep: Callable[[ast.AST], bool],
                       calls: bool = False) -> list[ast.AST]:
        """`[n for n in self.own_nodes(fn) if keep(n)]` for a `keep` that looks at a node's own syntax only (see
        `candidates`), kept per function across versions. `calls`: `keep` holds only of calls, so only the
        function's calls (`own_calls`) are asked (a function has some ten times more nodes than calls)."""
        if calls:
            return self.syntax_fact(what, fn.node, self._kept_own_calls, fn, keep)
        return self.syntax_fact(what, fn.node, _kept_own, self.owned.get(id(fn), []), keep)

    def _kept_own_calls(self, fn: FunctionInfo, keep: Callable[[ast.AST], bool]) -> list[ast.AST]:
        return [n for n in self.own_calls(fn) if keep(n)]

    def own_calls(self, fn: FunctionInfo | None) -> list[ast.Call]:
        """The calls among `own_nodes(fn)`, in its order (made once per function and analysis)."""
        found = self._own_calls.get(id(fn))
        if found is None:
            Call = ast.Call
            found = self._own_calls[id(fn)] = [n for n in self.owned.get(id(fn), []) if type(n) is Call]
        return found

    def statement_nodes(self, statement: ast.AST, cls: type) -> list[ast.AST]:
        """The nodes of one type inside a top-level statement (not the statement itself), in the order of
        `nodes(cls)`. Known only while walks are reused (IncrementalAnalysis): else empty."""
        walk = self._statement_walks.get(id(statement))
        return walk.by_type.get(cls, []) if walk is not None else []

    def own_nodes(self, fn: FunctionInfo | None) -> list[ast.AST]:
        """The nodes of a function's own body (nested definitions appear, their insides do not); None: module."""
        return self.owned.get(id(fn), [])

    def catches_tracer_errors(self, node: ast.AST) -> bool:
        """Whether `node` runs in the body of a `try:` of its own function whose handler catches what JAX raises
        on a tracer (`ConcretizationTypeError`, `TracerArrayConversionError`, `TracerBoolConversionError`, all
        `TypeError`s): bare `except:`, `Exception`, `BaseException`, `TypeError` or one of those. The code then
        expects the error under a trace and takes its handler's path (`try: same = bool(np.allclose(a, b))
        except Exception: same = False`)."""
        child, parent = node, self.parents.get(node)
        while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                                             ast.ClassDef, ast.Module)):
            if (isinstance(parent, ast.Try) or type(parent).__name__ == "TryStar") and any(
                    child is stmt for stmt in parent.body) and any(  # type: ignore[attr-defined]
                    _catches_tracer_error(h.type) for h in parent.handlers):  # type: ignore[attr-defined]
                return True
            child, parent = parent, self.parents.get(parent)
        return False

    def _function_info(self, node: FunctionNode, parent: FunctionInfo | None, prefix: str) -> FunctionInfo:
        a = node.args
        param_nodes = [*a.posonlyargs, *a.args]
        if a.vararg:
            param_nodes.append(a.vararg)
        param_nodes.extend(a.kwonlyargs)
        if a.kwarg:
            param_nodes.append(a.kwarg)
        name = node.name if not isinstance(node, ast.Lambda) else "<lambda>"
        info = FunctionInfo(node, name, prefix + name, parent, [p.arg for p in param_nodes], param_nodes)
        info.local_names.update(info.params)
        return info

    def _note_local(self, node: ast.AST, fn: FunctionInfo) -> None:
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if node.id not in fn.outer_names:  # the walk is not in source order: the declaration may come later
                if node.id in fn.imports:
                    fn.imports[node.id] = ""  # imported and assigned: either may hold
                fn.local_names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for name, target in imported_names(node):
                if name in fn.local_names and fn.imports.get(name) != target:
                    target = ""  # bound otherwise too (a parameter, an assignment, another import)
                fn.imports[name] = target
                fn.local_names.add(name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            fn.outer_names.update(node.names)
            fn.local_names.difference_update(node.names)

    def _note_import(self, node: ast.Import | ast.ImportFrom) -> None:
        # an import in an `except` handler whose `try` imports the same name from JAX (or NumPy, which JAX needs)
        # is a fallback for when that is missing (`try: import jax.numpy as jnp` / `except ImportError: import
        # numpy as jnp`): the code checked runs with JAX, so the name is what the `try` imports
        if isinstance(node, ast.ImportFrom) and (node.level or not node.module):
            return  # relative: no module path known here
        kept = self._jax_imported_before_fallback(node)
        for name, target in imported_names(node):
            if name not in kept:
                self.aliases[name] = target

    def _jax_imported_before_fallback(self, node: ast.AST) -> set[str]:
        """The names an import in an `except` handler binds that the handler's `try` body imports from JAX or
        NumPy."""
        cur = self.parents.get(node)
        while cur is not None and not isinstance(cur, ast.ExceptHandler):
            if isinstance(cur, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                return set()
            cur = self.parents.get(cur)
        tried = self.parents.get(cur) if cur is not None else None
        if not isinstance(tried, ast.Try):
            return set()
        return {name for statement in tried.body for n in ast.walk(statement)
                if isinstance(n, (ast.Import, ast.ImportFrom)) for name, target in imported_names(n)
                if target.split(".")[0] in ("jax", "numpy")}

    def _note_module_alias(self, node: ast.Assign) -> None:
        # `jnp = jax.numpy`, `jit = jax.jit`: a re-binding of an imported name is an alias too.
        q = self.qualname(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name):
                if q is not None and q.split(".")[0] in ("jax", "numpy", "functools", "equinox", "flax"):
                    self.aliases[target.id] = q
                else:
                    self.aliases.pop(target.id, None)

    def module_classes(self) -> dict[str, ast.ClassDef]:
        """The module's top-level classes by name (the last definition of a name, as at run time)."""
        if self._module_classes is None:
            self._module_classes = {n.name: n for n in self.tree.body if isinstance(n, ast.ClassDef)}
        return self._module_classes

    def module_constant(self, name: str) -> ast.AST | None:
        """The value of a module-level name bound exactly once, by a plain `NAME = value`; None otherwise."""
        if self._module_bindings is None:
            counts: dict[str, list[ast.AST | None]] = {}
            for node in self.own_nodes(None):
                if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                    parent = self.parents.get(node)
                    value = parent.value if isinstance(parent, ast.Assign) and node in parent.targets else None
                    counts.setdefault(node.id, []).append(value)
            for node in self.nodes(ast.Global):
                for declared in node.names:  # type: ignore[attr-defined]
                    counts.setdefault(declared, []).append(None)  # written from a function: not a constant
            self._module_bindings = {k: v[0] for k, v in counts.items() if len(v) == 1 and v[0] is not None}
        return self._module_bindings.get(name)

    def never_runs(self, node: ast.AST) -> bool:
        """Whether `node` sits in code that never runs: a branch a constant test rules out (`if False:`,
        `while 0:`, `x if True else <here>`, `if TYPE_CHECKING:`, which only type checkers read), or a statement
        after a `raise`/`return`/`continue`/`break` or a call of `exit()`/`sys.exit()` in the same block."""
        if self.reusable is not None:
            # the answer inside the node's top-level statement follows from it and the imports: kept per node
            # across versions (asked of every transformation call on every edit, and of every finding)
            inside = self.imports_fact("never runs inside its statement", node, self._never_runs_inside, node)
            if inside is not None:
                top = inside[1]
                return inside[0] or (isinstance(top, ast.stmt) and self._after_an_exit(top, self.tree))
        child, cur = node, self.parents.get(node)
        while cur is not None:
            if isinstance(cur, (ast.If, ast.While, ast.IfExp)) and child is not cur.test:
                test = _constant_truth(cur.test, self, self.enclosing_function(cur))
                in_body = child in cur.body if isinstance(cur.body, list) else child is cur.body
                if test is not None and (in_body != test):
                    return True
            if isinstance(child, ast.stmt):
                for block in _blocks_of(cur):
                    if block[0].lineno <= child.lineno <= (block[-1].end_lineno or block[-1].lineno):
                        exit_line = self._first_exit_line(block)
                        if exit_line is not None and child.lineno > exit_line:
                            return True
                        if self._after_a_constant_exit(child, block) is True:
                            return True
                        break
            child, cur = cur, self.parents.get(cur)
        return False

    def _never_runs_inside(self, node: ast.AST) -> tuple[bool, ast.AST | None] | None:
        """`never_runs` up to the top-level statement holding `node`: (whether it never runs for a reason inside
        that statement, the statement; None for a node outside the tree). None when a test on the way may read
        more than the statement and the imports (a comparison: `"jax" in np.__name__` reads every import)."""
        tree = self.tree
        child, cur = node, self.parents.get(node)
        while cur is not None and cur is not tree:
            if isinstance(cur, (ast.If, ast.While, ast.IfExp)) and child is not cur.test:
                test = cur.test
                while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                    test = test.operand
                if isinstance(test, (ast.Compare, ast.Name, ast.Call)) and not (
                        isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"):
                    return None  # reads more than the statement: a module name, a module constant, a function
                truth = _constant_truth(cur.test, self, self.enclosing_function(cur))
                in_body = child in cur.body if isinstance(cur.body, list) else child is cur.body
                if truth is not None and (in_body != truth):
                    return True, None
            if isinstance(child, ast.stmt):
                if self._after_an_exit(child, cur):
                    return True, None
                after = next((self._after_a_constant_exit(child, block, local_only=True) for block in _blocks_of(cur)
                              if block[0].lineno <= child.lineno <= (block[-1].end_lineno or block[-1].lineno)), False)
                if after is None:
                    return None  # `if JAX_MODE: return ...` before it: the module constant decides
                if after:
                    return True, None
            child, cur = cur, self.parents.get(cur)
        return False, child if cur is tree else None

    def _after_a_constant_exit(self, child: ast.stmt, block: list[ast.stmt], local_only: bool = False) -> bool | None:
        """Whether the statement `child` of `block` comes after an `if` of the block that always leaves it on the
        branch its constant test takes (`if JAX_MODE: return jnp_version(x)` with `JAX_MODE = True`, as
        TensorFlow Probability's JAX substrate is written: the NumPy code below never runs; round 37).
        `local_only`: None when a test before `child` reads a module-level name or function (the answer is then
        not the statement's own)."""
        cache = self._leaving_ifs
        if cache is None:
            cache = self._leaving_ifs = {}
        found = cache.get(id(block))
        if found is None:
            found = cache[id(block)] = [(s, _always_leaves(s.body), bool(s.orelse) and _always_leaves(s.orelse))
                                        for s in block if isinstance(s, ast.If)]
            found = cache[id(block)] = [f for f in found if f[1] or f[2]]
        for stmt, leaves_body, leaves_else in found:
            if stmt.lineno >= child.lineno:
                return False
            test = stmt.test
            while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                test = test.operand
            scope = self.enclosing_function(stmt)
            if local_only and not isinstance(test, ast.Constant):
                # a name (a local bound to `debug()` too), a call or a comparison may read other statements: the
                # answer is not the statement's own (`flag = debug()` then `if flag: return x`: editing `debug`
                # must change it)
                return None
            truth = _constant_truth(stmt.test, self, scope)
            if truth is not None and ((truth and leaves_body) or (not truth and leaves_else)):
                return True
        return False

    def _after_an_exit(self, child: ast.AST, cur: ast.AST) -> bool:
        """Whether the statement `child` of `cur` comes after the first exit of its block (see never_runs)."""
        for block in _blocks_of(cur):
            if block[0].lineno <= child.lineno <= (block[-1].end_lineno or block[-1].lineno):  # type: ignore[attr-defined]
                exit_line = self._first_exit_line(block)
                return exit_line is not None and child.lineno > exit_line  # type: ignore[attr-defined]
        return False

    def _first_exit_line(self, block: list[ast.stmt]) -> int | None:
        """The last line of the first `raise`/`return`/`continue`/`break`/`sys.exit()` of a statement list (kept per list:
        asked once per finding, a module's body can be long)."""
        cache = self._exits
        if cache is None:
            cache = self._exits = {}
        key = id(block)
        if key not in cache:
            cache[key] = next((s.end_lineno or s.lineno for s in block
                               if isinstance(s, (ast.Raise, ast.Return, ast.Continue, ast.Break))
                               or (type(s) is ast.Expr and self._ends_the_process(s.value))), None)
        return cache[key]

    def _ends_the_process(self, call: ast.expr) -> bool:
        """`exit()`, `quit()`, `sys.exit(...)`, `os._exit(...)`, `os.abort()`: nothing after the call in its block
        runs (SystemExit is raised, or the process ends)."""
        if type(call) is not ast.Call:
            return False
        func = call.func
        if type(func) is ast.Name:
            return func.id in ("exit", "quit") and func.id not in self.aliases  # the builtins, not an import
        return type(func) is ast.Attribute and self.qualname(func, self.enclosing_function(call)) in (
            "sys.exit", "os._exit", "os.abort")

    def local_import(self, name: str, scope: FunctionInfo) -> str | None:
        """What a name local to `scope` (or to a function around it) names when that function binds it only by
        an absolute import (`def f(): import jax.numpy as jnp`); None otherwise."""
        cur: FunctionInfo | None = scope
        while cur is not None:
            if name in cur.local_names:
                target = cur.imports.get(name)
                return target if target and target[0] != "." else None
            cur = cur.parent
        return None

    def import_targets(self) -> set[str]:
        """Everything the module imports, at module level or inside its functions (`jax.random`, `time`)."""
        found = set(self.aliases.values())
        for info in self.functions.values():
            if info.imports:
                found.update(t for t in info.imports.values() if t)
        return found

    def is_local(self, name: str, scope: FunctionInfo) -> bool:
        cur: FunctionInfo | None = scope
        while cur is not None:
            if name in cur.local_names:
                return True
            cur = cur.parent
        return False
    def resolve_function(self, expr: ast.AST, scope: FunctionInfo | None) -> FunctionInfo | None:
        if isinstance(expr, ast.Lambda):
            return self.functions.get(expr)
        if not isinstance(expr, ast.Name):
            return None
        # A nested function visible from `scope`, else a module-level one.
        cur = scope
        while cur is not None:
            if not isinstance(cur.node, ast.Lambda):
                # the defs of the function's own body by name, in order: kept per function node (a 5,000-line
                # module resolves some 800 names an edit, each of which walked its function's body)
                for node in self.syntax_fact("defs by name", cur.node, _defs_by_name, cur.node).get(expr.id, ()):
                    found = self.functions.get(node)
                    if found is not None:
                        return found
            if expr.id in cur.local_names:
                return None
            cur = cur.parent
        return self.module_functions.get(expr.id)


_TRACER_ERROR_CATCHERS = {"Exception", "BaseException", "TypeError", "JAXTypeError", "ConcretizationTypeError",
                          "TracerArrayConversionError", "TracerBoolConversionError", "TracerIntegerConversionError"}


def _catches_tracer_error(handled: ast.expr | None) -> bool:
    if handled is None:
        return True
    if isinstance(handled, ast.Tuple):
        return any(_catches_tracer_error(element) for element in handled.elts)
    name = handled.attr if isinstance(handled, ast.Attribute) else handled.id if isinstance(handled, ast.Name) else ""
    return name in _TRACER_ERROR_CATCHERS


def _constant_truth(test: ast.AST, scopes: Scopes, scope: FunctionInfo | None, depth: int = 0) -> bool | None:
    """The truth value of a test known without running anything: a constant (`False`, `0`, `None`), `not` of one,
    `typing.TYPE_CHECKING` (False when the program runs), a module test of its `__name__`, a module-level name bound
    once to a literal, a call of a module function that only returns one, or a local bound once to either."""
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _constant_truth(test.operand, scopes, scope, depth)
        return None if inner is None else not inner
    if isinstance(test, (ast.Name, ast.Attribute)) and (
            scopes.qualname(test, scope) in ("typing.TYPE_CHECKING", "typing_extensions.TYPE_CHECKING")
            or (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")):
        return False
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        return _module_name_test(test, scopes, scope)
    if isinstance(test, ast.Name) and scope is not None and scopes.is_local(test.id, scope) and depth < 2:
        # `in_debug_mode = is_debug_enabled()` bound once in the function, then `if in_debug_mode:` (eigh)
        stores = [n for n in scopes.own_nodes(scope) if isinstance(n, ast.Name) and n.id == test.id
                  and not isinstance(n.ctx, ast.Load)]
        assign = scopes.parents.get(stores[0]) if len(stores) == 1 and test.id not in scope.params else None
        if isinstance(assign, ast.Assign) and assign.targets == [stores[0]]:
            return _constant_truth(assign.value, scopes, scope, depth + 1)
        return None
    if isinstance(test, ast.Name) and not (scope is not None and scopes.is_local(test.id, scope)):
        # a module-level flag bound once to a literal and written by no function (`DEBUG = False`): as written,
        # its branch never runs
        value = scopes.module_constant(test.id)
        if isinstance(value, ast.Constant) and (value.value is None or type(value.value) in (bool, int)):
            return bool(value.value)
    if (isinstance(test, ast.Call) and not test.args and not test.keywords and isinstance(test.func, ast.Name)
            and not (scope is not None and scopes.is_local(test.func.id, scope))):
        return _constant_flag_function(test.func.id, scopes)
    return None


def _constant_flag_function(name: str, scopes: Scopes) -> bool | None:
    """The truth of what a module-level function of no parameters returns when its body (past a docstring) is
    one `return <literal>` (`def is_debug_enabled(): return False`) and nothing else binds its name."""
    defs = [n for n in scopes.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
    if len(defs) != 1 or isinstance(defs[0], ast.AsyncFunctionDef) or defs[0].decorator_list:
        return None
    fn = defs[0]
    a = fn.args
    if a.posonlyargs or a.args or a.kwonlyargs or a.vararg or a.kwarg or name in scopes.aliases or any(
            isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) for n in scopes.own_nodes(None)):
        return None
    body = fn.body[1:] if (fn.body and isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant)
                           and isinstance(fn.body[0].value.value, str)) else fn.body
    if len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Constant) and (
            body[0].value.value is None or type(body[0].value.value) in (bool, int)):
        return bool(body[0].value.value)
    return None


def _module_name_test(test: ast.Compare, scopes: Scopes, scope: FunctionInfo | None) -> bool | None:
    """`"jax" in np.__name__`, `xp.__name__ == "jax.numpy"` (the array-namespace switch): known when the module
    is bound by a module-level `import` statement, whose module's `__name__` is the dotted path imported."""
    left, right, op = test.left, test.comparators[0], test.ops[0]
    name = _imported_module_name(right if isinstance(op, (ast.In, ast.NotIn)) else left, scopes, scope)
    text = left if isinstance(op, (ast.In, ast.NotIn)) else right
    if name is None or not isinstance(text, ast.Constant) or not isinstance(text.value, str):
        return None
    if isinstance(op, (ast.In, ast.NotIn)):
        return (text.value in name) == isinstance(op, ast.In)
    if isinstance(op, (ast.Eq, ast.NotEq)):
        return (text.value == name) == isinstance(op, ast.Eq)
    return None


def _imported_module_name(node: ast.AST, scopes: Scopes, scope: FunctionInfo | None) -> str | None:
    """The `__name__` of `M.__name__` where M is a module name bound only by module-level `import` statements
    (`import numpy as np`, `import jax`), and not rebound in `scope`."""
    if not (isinstance(node, ast.Attribute) and node.attr == "__name__" and isinstance(node.value, ast.Name)):
        return None
    local = node.value.id
    if scope is not None and scopes.is_local(local, scope):
        return None
    target = scopes.aliases.get(local)
    if target is None:
        return None
    bound = [(alias.asname or alias.name.split(".")[0], alias.name if alias.asname else alias.name.split(".")[0])
             for imp in scopes.nodes(ast.Import) for alias in imp.names]  # type: ignore[attr-defined]
    mine = [path for local_name, path in bound if local_name == local]
    if not mine or any(path != target for path in mine) or scopes.module_constant(local) is not None:
        return None
    return target


def _always_leaves(block: list[ast.stmt]) -> bool:
    """A statement list whose last statement leaves it: `return`, `raise`, `continue`, `break`."""
    return isinstance(block[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _blocks_of(node: ast.AST) -> list[list[ast.stmt]]:
    """The statement lists a compound statement (or a function, module, handler, case) holds."""
    blocks = []
    for name in ("body", "orelse", "finalbody", "handlers"):
        value = getattr(node, name, None)
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            blocks.append(value)
    return blocks


def _kept(by_type: list[list[ast.AST]], keep: Callable[[ast.AST], bool]) -> tuple[list[ast.AST], ...]:
    return tuple([n for n in nodes if keep(n)] for nodes in by_type)


def _kept_own(nodes: list[ast.AST], keep: Callable[[ast.AST], bool]) -> list[ast.AST]:
    return [n for n in nodes if keep(n)]


def _names_in(names: list[ast.AST]) -> frozenset[str]:
    return frozenset(n.id for n in names)  # type: ignore[attr-defined]


def _defs_by_name(function: ast.AST) -> dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]:
    """name -> the defs of that name among the children of `function`, in the order of a depth-first search that
    looks into `if`/`with`/`try`/`for`/`while` statements (not into defs, `except` handlers nor other statements):
    the defs a name read in the function may call. Syntax alone."""
    out: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    # (a stack, not a recursive closure: a closure that calls itself is a reference cycle, which left the defs it
    # found to the cycle collector)
    stack = list(ast.iter_child_nodes(function))[::-1]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.setdefault(node.name, []).append(node)
        elif isinstance(node, (ast.If, ast.With, ast.Try, ast.For, ast.While)):
            stack.extend(list(ast.iter_child_nodes(node))[::-1])
    return out



class _StatementWalk:
    """What the walk of one top-level statement adds to a module's indexes (see Scopes._collect)."""

    __slots__ = ("by_type", "imports", "nested", "owned", "owner", "parents", "top")

    def __init__(self) -> None:
        self.parents: dict[ast.AST, ast.AST] = {}
        self.owner: dict[ast.AST, FunctionNode | None] = {}  # node -> the node of the function whose it is
        self.by_type: dict[type, list[ast.AST]] = {}
        self.owned: list[tuple[FunctionInfo | None, list[ast.AST]]] = []  # (scope, its nodes), in walk order
        self.top: FunctionInfo | None = None  # the statement itself when it is a `def`
        self.nested: list[FunctionInfo] = []  # the functions defined inside it, in walk order
        self.imports: list[ast.Import | ast.ImportFrom] = []  # module-scope imports inside it (`try: import`)

    @staticmethod
    def of(scopes: Scopes, statement: ast.AST, top: FunctionInfo | None = None,
           into_model: bool = False) -> _StatementWalk:
        """The walk of one top-level statement (`top`: its FunctionInfo when it is a `def` and one was made).
        `into_model`: parents, owners and nodes go straight into the model's indexes (a walk kept for no
        later version); `nested` and `imports` are then for the caller to add."""
        walk = _StatementWalk()
        nested, imports = walk.nested, walk.imports
        special = SPECIAL_NODES
        lists: dict[int, list[ast.AST]] = {}  # id(scope) -> its nodes
        if into_model:
            walk.parents, walk.by_type, walk.owner, lists = scopes.parents, scopes._by_type, scopes.owner, scopes.owned
        parents, by_type, owner = walk.parents, walk.by_type, walk.owner

        def scope_list(scope: FunctionInfo | None) -> list[ast.AST]:
            found = lists.get(id(scope))
            if found is None:
                found = lists[id(scope)] = []
                walk.owned.append((scope, found))
            return found

        scope_list(None)
        cls = type(statement)
        if cls is ast.FunctionDef or cls is ast.AsyncFunctionDef:
            walk.top = top or scopes._function_info(statement, None, "")  # type: ignore[arg-type]
            stack: list[tuple[ast.AST, FunctionInfo | None, FunctionInfo | None, str, list[ast.AST]]] = [
                (statement, walk.top, None, walk.top.qualname + ".", scope_list(walk.top))]
        elif cls is ast.ClassDef:
            stack = [(statement, None, None, f"{statement.name}.", lists[id(None)])]  # type: ignore[attr-defined]
        else:
            stack = [(statement, None, None, "", lists[id(None)])]
        # iter_children (syntax.py) inlined, and a node with no child fields (a name, a constant, an import) never
        # goes on the stack: the walk visits the same nodes in the same order, in a third less time
        child_fields, AST, function_types = CHILD_FIELDS, ast.AST, (ast.FunctionDef, ast.AsyncFunctionDef)
        FunctionDef, AsyncFunctionDef, Lambda, ClassDef = ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef
        Import, ImportFrom, Name, Load = ast.Import, ast.ImportFrom, ast.Name, ast.Load
        while stack:
            node, fn, outer, prefix, fn_list = stack.pop()
            ncls = type(node)
            fields = child_fields.get(ncls)
            if fields is None:
                fields = child_fields_of(ncls)
            body_ids = None
            if ncls in function_types:
                body_ids = {id(b) for b in node.body}  # type: ignore[attr-defined]
            elif ncls is Lambda:
                body_ids = {id(node.body)}  # type: ignore[attr-defined]
            fn_node = fn.node if fn is not None else None
            for name in fields:
                value = getattr(node, name, None)
                if type(value) is not list:
                    if not isinstance(value, AST):
                        continue
                    value = (value,)
                for child in value:
                    if not isinstance(child, AST):
                        continue
                    parents[child] = node
                    # decorators, defaults and annotations run in the enclosing scope; the body in the function
                    if body_ids is None or id(child) in body_ids:
                        scope, nodes = fn, fn_list
                        owner[child] = fn_node
                    else:
                        scope, nodes = outer, scope_list(outer)
                        owner[child] = outer.node if outer is not None else None
                    cls = type(child)
                    bucket = by_type.get(cls)
                    if bucket is None:
                        bucket = by_type[cls] = []
                    bucket.append(child)
                    nodes.append(child)
                    if cls not in special:
                        has_children = child_fields.get(cls)
                        if has_children is None:
                            has_children = child_fields_of(cls)
                        if has_children:
                            stack.append((child, scope, scope, prefix, nodes))
                        continue
                    if cls is Name:  # no child to walk; only a store or delete binds a local (_note_local)
                        if scope is not None and type(child.ctx) is not Load:  # type: ignore[attr-defined]
                            scopes._note_local(child, scope)
                        continue
                    if cls is FunctionDef or cls is AsyncFunctionDef or cls is Lambda:
                        info = scopes._function_info(child, scope, prefix)  # type: ignore[arg-type]
                        nested.append(info)
                        if scope is not None:
                            scope.local_names.add(info.name)
                        stack.append((child, info, scope, info.qualname + ".", scope_list(info)))
                        continue
                    if cls is ClassDef:
                        if scope is not None:
                            scope.local_names.add(child.name)  # type: ignore[attr-defined]
                        stack.append((child, scope, scope, f"{prefix}{child.name}.", nodes))  # type: ignore[attr-defined]
                        continue
                    if scope is not None:
                        scopes._note_local(child, scope)
                    elif cls is Import or cls is ImportFrom:
                        imports.append(child)  # type: ignore[arg-type]
                    has_children = child_fields.get(cls)
                    if has_children is None:
                        has_children = child_fields_of(cls)
                    if has_children:
                        stack.append((child, scope, scope, prefix, nodes))
        return walk

    def copy(self) -> _StatementWalk:
        """The same walk with new FunctionInfos (same nodes and names; nothing the later phases fill in)."""
        # Every function of the walk is its `top` or in `nested`, made after the function it is defined in (the
        # walk makes a function's info before it walks its body): one pass copies each after its parent.
        # (A `def` at the top has no parent; a method's parent is None: a class body is no function scope.)
        fresh: dict[int, FunctionInfo] = {}
        other = _StatementWalk()
        other.parents, other.by_type, other.imports, other.owner = self.parents, self.by_type, self.imports, self.owner
        top = self.top
        if top is not None:
            other.top = fresh[id(top)] = top.unfilled_copy(None)
        nested = other.nested
        for info in self.nested:
            parent = info.parent
            new = fresh[id(info)] = info.unfilled_copy(fresh[id(parent)] if parent is not None else None)
            nested.append(new)
        other.owned = [(fresh[id(scope)] if scope is not None else None, nodes) for scope, nodes in self.owned]
        return other


class StatementWalks:
    """The walks of the last tree's top-level statements, by statement object (see Scopes._collect): kept by
    IncrementalAnalysis from one version to the next. Never changed by an analysis but through keep()."""

    def __init__(self) -> None:
        self._walks: dict[int, tuple[ast.AST, _StatementWalk]] = {}  # id(statement) -> (statement, its walk)
        self._qualnames: dict[int, tuple[ast.AST, ast.AST | None, str | None]] = {}  # see Scopes.qualname
        self._aliases: dict[str, str] | None = None  # the imports those answers were given under
        # the last version's parents and owners (node -> parent, node -> its function's node), for the next to copy
        self.merged: tuple[dict[ast.AST, ast.AST], dict[ast.AST, FunctionNode | None]] | None = None
        self.reused = 0  # statements whose walk was reused (for tests and benchmarks)

    def get(self, statement: ast.AST) -> _StatementWalk | None:
        found = self._walks.get(id(statement))
        if found is None or found[0] is not statement:
            return None
        self.reused += 1
        return found[1]

    def keep(self, statement: ast.AST, walk: _StatementWalk) -> None:
        self._walks[id(statement)] = (statement, walk)

    def qualnames(self, aliases: dict[str, str], nodes: int) -> dict[int, tuple[ast.AST, ast.AST | None, str | None]]:
        """The `qualname` answers of the last version, when its imports were these (else none); dropped once they
        hold more than a few times the answers one version of `nodes` nodes asks, so the nodes of statements
        gone long ago are not kept."""
        if aliases != self._aliases or len(self._qualnames) > 2 * nodes + 1000:
            self._qualnames = {}
            self._aliases = dict(aliases)
        return self._qualnames

    def forget_all_but(self, tree: ast.Module) -> list[tuple[ast.AST, _StatementWalk]]:
        """Drops the walks of statements that are not in `tree` (the version just analysed); returns them."""
        current = {id(s) for s in iter_children(tree)}
        return [self._walks.pop(key) for key in [k for k in self._walks if k not in current]]
