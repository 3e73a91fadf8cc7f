"""The shared analysis model of one module: what every rule asks before it says anything.

Built once per analysis from the standard library's `ast` (fast enough for every keystroke; libcst is kept for
rewriting), it answers three questions:

1. Names: what does a name or dotted expression refer to (`jnp.zeros` -> `jax.numpy.zeros`, under any alias,
   also `import jax.numpy as np`, `from jax import random as jr`, and module-level re-bindings)?
2. Traced code: which functions run under a JAX transformation (jit, grad, vmap, ... in decorator or call
   form, with `functools.partial`, bodies passed to `lax.scan/fori_loop/...`, nested definitions, and helpers
   called from traced code), and which of their parameters are static?
3. Value kinds: at each use of a name, is the value a JAX array, a NumPy array, a PRNG key, a Python container,
   a plain Python value, or unknown? Found by a small forward dataflow over each scope. Rules only warn on
   kinds they know: UNKNOWN never produces a finding.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Iterator
from dataclasses import dataclass, field

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


class Kind(enum.Enum):
    JAX = "jax array"
    NUMPY = "numpy array"
    KEY = "prng key"
    CONTAINER = "python container"
    PYTHON = "python value"
    FUNCTION = "function"
    MODULE = "module"
    JAX_AT = "jax .at indexer"
    UNKNOWN = "unknown"


# --- what JAX names mean ------------------------------------------------------------------------------------

# Transformations whose function argument is traced. Values: does it take static_argnums/static_argnames?
TRANSFORMS: dict[str, bool] = {
    "jax.jit": True,
    "jax.pmap": True,
    "jax.grad": False,
    "jax.value_and_grad": False,
    "jax.vmap": False,
    "jax.jacfwd": False,
    "jax.jacrev": False,
    "jax.jacobian": False,
    "jax.hessian": False,
    "jax.checkpoint": True,
    "jax.remat": True,
    "jax.ad_checkpoint.checkpoint": True,
    "jax.linearize": False,
    "jax.jvp": False,
    "jax.vjp": False,
    "jax.eval_shape": False,
    "jax.make_jaxpr": True,
    "jax.shard_map": False,
    "jax.experimental.shard_map.shard_map": False,
    "jax.named_call": False,
    "jax.custom_jvp": False,
    "jax.custom_vjp": False,
    "equinox.filter_jit": False,
    "equinox.filter_grad": False,
    "equinox.filter_value_and_grad": False,
    "equinox.filter_vmap": False,
    "flax.nnx.jit": True,
    "flax.nnx.grad": False,
    "flax.nnx.value_and_grad": False,
    "flax.nnx.vmap": False,
}

# Control-flow primitives whose function arguments are traced bodies: qualified name -> argument positions.
LAX_BODIES: dict[str, tuple[int, ...]] = {
    "jax.lax.fori_loop": (2,),
    "jax.lax.while_loop": (0, 1),
    "jax.lax.scan": (0,),
    "jax.lax.cond": (1, 2),
    "jax.lax.switch": (1,),
    "jax.lax.map": (0,),
    "jax.lax.associative_scan": (0,),
    "jax.lax.custom_root": (0, 1, 2),
    "jax.lax.reduce": (2,),
}
LAX_BODY_KEYWORDS = {"body_fun", "cond_fun", "f", "true_fun", "false_fun", "branches", "fn"}

# Functions under jax.numpy that return Python values (static under jit), not arrays.
_JNP_STATIC = {"shape", "ndim", "size", "dtype", "result_type", "issubdtype", "iinfo", "finfo", "isdtype",
               "can_cast", "promote_types", "broadcast_shapes"}
# Array attributes and methods that give Python values.
ARRAY_STATIC_ATTRS = {"shape", "ndim", "dtype", "size", "itemsize", "nbytes", "sharding", "weak_type"}
_ARRAY_PY_METHODS = {"item", "tolist", "tobytes", "__len__", "devices"}
_KEY_MAKERS = {"jax.random.key", "jax.random.PRNGKey", "jax.random.split", "jax.random.fold_in",
               "jax.random.wrap_key_data", "jax.random.clone"}
_JAX_ARRAY_MODULES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.", "jax.image.",
                      "jax.ops.", "jax.numpy.linalg.", "jax.numpy.fft.")
_JAX_ARRAY_FUNCS = {"jax.device_put", "jax.block_until_ready", "jax.pure_callback"}
_PY_BUILTINS_PYTHON = {"len", "int", "float", "bool", "str", "range", "isinstance", "hash", "id", "repr",
                       "enumerate", "zip", "reversed", "min", "max", "sum", "abs", "round"}
_PY_BUILTINS_CONTAINER = {"list", "dict", "tuple", "set", "frozenset", "sorted"}
# Methods that show a parameter is a Python container (dict/list pytree), not an array.
_CONTAINER_METHODS = {"items", "keys", "values", "append", "extend", "get", "update", "pop", "setdefault",
                      "insert", "remove", "popitem", "copy_from"}


# Fields that never hold a node worth visiting: contexts and operators (Load, Add, ...), and plain values
# (identifiers, numbers). Skipping them halves the nodes a walk visits.
_SKIPPED_FIELDS = frozenset({"ctx", "op", "ops", "type_comment", "id", "attr", "arg", "name", "module", "level",
                             "kind", "asname", "is_async", "conversion", "simple", "tag"})
_AST = ast.AST
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    fields = tuple(f for f in cls._fields if f not in _SKIPPED_FIELDS)  # type: ignore[attr-defined]
    if cls in (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.Constant):
        fields = ()  # names/aliases and constant values
    _CHILD_FIELDS[cls] = fields
    return fields


def iter_children(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.iter_child_nodes` without the leaves no rule looks at (see _SKIPPED_FIELDS)."""
    cls = type(node)
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:
        fields = _child_fields(cls)
    for name in fields:
        value = getattr(node, name, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, _AST):
                    yield item
        elif isinstance(value, _AST):
            yield value


# node types _collect does more with than index them
_SPECIAL_NODES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Name, ast.Import,
                            ast.ImportFrom, ast.Global, ast.Nonlocal, ast.Assign})


def literal_int(node: ast.AST) -> int | None:
    """`3`, `-3` -> the int; anything else (bools included) -> None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = literal_int(node.operand)
        return None if inner is None else -inner
    return None


def literal_value(node: ast.AST | None) -> object:
    try:
        return ast.literal_eval(node) if node is not None else None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


@dataclass
class TraceSite:
    """Why a function is traced: the transformation and its static arguments."""

    transform: str  # e.g. "jax.jit", "jax.lax.scan body", "called from traced `f`"
    static_argnums: tuple[int, ...] = ()
    static_argnames: tuple[str, ...] = ()
    node: ast.AST | None = None  # the decorator or call that made it traced


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
    static_params: set[str] = field(default_factory=set)
    param_kinds: dict[str, Kind] = field(default_factory=dict)

    @property
    def traced(self) -> bool:
        return bool(self.traces)

    @property
    def trace_reason(self) -> str:
        return self.traces[0].transform if self.traces else ""


class ModuleModel:
    """Names, traced functions and value kinds of one parsed module."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.aliases: dict[str, str] = {}  # local name -> qualified name of a module or attribute
        self.functions: dict[FunctionNode, FunctionInfo] = {}
        self.parents: dict[ast.AST, ast.AST] = {}
        self.module_functions: dict[str, FunctionInfo] = {}  # top-level defs by name
        self.name_kinds: dict[int, Kind] = {}  # id(ast.Name load) -> kind at that point
        self.module_env: dict[str, Kind] = {}
        self._calls_from_traced: dict[str, list[tuple[FunctionInfo, ast.Call]]] = {}
        self.owner: dict[ast.AST, FunctionInfo | None] = {}
        self.by_type: dict[type, list[ast.AST]] = {}
        self.owned: dict[int, list[ast.AST]] = {}
        self._names: set[str] | None = None
        self._collect()
        self._find_traced()
        self._run_dataflow()

    # ---- public queries --------------------------------------------------------------------------------

    def qualname(self, node: ast.AST, scope: FunctionInfo | None = None) -> str | None:
        """`jnp.zeros` -> `jax.numpy.zeros`; None when the expression is not a dotted module path."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        if scope is not None and self.is_local(node.id, scope):
            return None
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

    def kind_of(self, node: ast.AST, scope: FunctionInfo | None) -> Kind:
        """The kind of an expression, using the recorded kinds of the names it reads."""
        return _KindEvaluator(self, scope, None).eval(node)

    def kind_at(self, name: ast.Name) -> Kind:
        return self.name_kinds.get(id(name), Kind.UNKNOWN)

    def enclosing_function(self, node: ast.AST) -> FunctionInfo | None:
        return self.owner.get(node)

    def all_names(self) -> set[str]:
        """Every identifier used in the module (for choosing fresh names)."""
        if self._names is None:
            self._names = {n.id for n in self.nodes(ast.Name)} | set(self.aliases)  # type: ignore[attr-defined]
            self._names |= {f.name for f in self.functions.values()}
        return self._names

    def traced_functions(self) -> Iterator[FunctionInfo]:
        return (f for f in self.functions.values() if f.traced)

    # ---- collection ------------------------------------------------------------------------------------

    def _collect(self) -> None:
        """One walk over the tree: parents, functions, imports, and indexes the rules use instead of walking
        again (nodes by type, and each node's owning function). The hottest loop of the analysis."""
        parents, owner, by_type, owned = self.parents, self.owner, self.by_type, self.owned
        functions, special = self.functions, _SPECIAL_NODES
        stack: list[tuple[ast.AST, FunctionInfo | None, FunctionInfo | None, str]] = [(self.tree, None, None, "")]
        owned[id(None)] = []
        while stack:
            node, fn, outer, prefix = stack.pop()
            body_ids = None
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                body_ids = {id(b) for b in node.body}
            elif isinstance(node, ast.Lambda):
                body_ids = {id(node.body)}
            fn_list = owned.setdefault(id(fn), [])
            for child in iter_children(node):
                parents[child] = node
                # decorators, defaults and annotations run in the enclosing scope; the body in the function
                if body_ids is None or id(child) in body_ids:
                    scope, scope_list = fn, fn_list
                else:
                    scope, scope_list = outer, owned.setdefault(id(outer), [])
                owner[child] = scope
                cls = type(child)
                bucket = by_type.get(cls)
                if bucket is None:
                    bucket = by_type[cls] = []
                bucket.append(child)
                scope_list.append(child)
                if cls not in special:
                    stack.append((child, scope, scope, prefix))
                    continue
                if cls is ast.FunctionDef or cls is ast.AsyncFunctionDef or cls is ast.Lambda:
                    info = self._function_info(child, scope, prefix)  # type: ignore[arg-type]
                    functions[child] = info  # type: ignore[index]
                    owned[id(info)] = []
                    if scope is not None:
                        scope.local_names.add(info.name)
                    elif isinstance(node, ast.Module):
                        self.module_functions[info.name] = info
                    stack.append((child, info, scope, info.qualname + "."))
                    continue
                if cls is ast.ClassDef:
                    if scope is not None:
                        scope.local_names.add(child.name)  # type: ignore[attr-defined]
                    stack.append((child, scope, scope, f"{prefix}{child.name}."))  # type: ignore[attr-defined]
                    continue
                if scope is not None:
                    self._note_local(child, scope)
                elif cls is ast.Import or cls is ast.ImportFrom:
                    self._note_import(child)  # type: ignore[arg-type]
                elif cls is ast.Assign and isinstance(node, ast.Module):
                    self._note_module_alias(child)  # type: ignore[arg-type]
                stack.append((child, scope, scope, prefix))

    def nodes(self, *types: type) -> list[ast.AST]:
        """Every node of these types in the module (from the index built by the one walk)."""
        if len(types) == 1:
            return self.by_type.get(types[0], [])
        return [n for t in types for n in self.by_type.get(t, [])]

    def own_nodes(self, fn: FunctionInfo | None) -> list[ast.AST]:
        """The nodes of a function's own body (nested definitions appear, their insides do not); None: module."""
        return self.owned.get(id(fn), [])

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
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            fn.local_names.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                fn.local_names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.Global | ast.Nonlocal):
            fn.local_names.difference_update(node.names)

    def _note_import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.aliases[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    self.aliases[top] = top
        elif node.module and not node.level:
            for alias in node.names:
                if alias.name != "*":
                    self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _note_module_alias(self, node: ast.Assign) -> None:
        # `jnp = jax.numpy`, `jit = jax.jit`: a re-binding of an imported name is an alias too.
        q = self.qualname(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name):
                if q is not None and q.split(".")[0] in ("jax", "numpy", "functools", "equinox", "flax"):
                    self.aliases[target.id] = q
                else:
                    self.aliases.pop(target.id, None)

    def is_local(self, name: str, scope: FunctionInfo) -> bool:
        cur: FunctionInfo | None = scope
        while cur is not None:
            if name in cur.local_names:
                return True
            cur = cur.parent
        return False

    # ---- traced contexts -------------------------------------------------------------------------------

    def transform_of(self, expr: ast.AST, scope: FunctionInfo | None) -> TraceSite | None:
        """If `expr` (a decorator, or the callee of a call) is a JAX transformation, describe it."""
        keywords: list[ast.keyword] = []
        if isinstance(expr, ast.Call):
            q = self.qualname(expr.func, scope)
            if q == "functools.partial" and expr.args:
                inner = self.transform_of(expr.args[0], scope)
                if inner is None:
                    return None
                return _with_static(inner, expr.keywords)
            if q in TRANSFORMS:  # e.g. @jax.jit(static_argnames=...) or @jax.checkpoint(policy=...)
                return _with_static(TraceSite(q, node=expr), expr.keywords)
            return None
        q = self.qualname(expr, scope)
        if q in TRANSFORMS:
            return _with_static(TraceSite(q, node=expr), keywords)
        return None

    def _resolve_function(self, expr: ast.AST, scope: FunctionInfo | None) -> FunctionInfo | None:
        if isinstance(expr, ast.Lambda):
            return self.functions.get(expr)
        if not isinstance(expr, ast.Name):
            return None
        # A nested function visible from `scope`, else a module-level one.
        cur = scope
        while cur is not None:
            for child in ast.iter_child_nodes(cur.node) if not isinstance(cur.node, ast.Lambda) else ():
                found = _find_def(child, expr.id, self)
                if found is not None:
                    return found
            if expr.id in cur.local_names:
                return None
            cur = cur.parent
        return self.module_functions.get(expr.id)

    def _find_traced(self) -> None:
        for info in list(self.functions.values()):
            if isinstance(info.node, ast.Lambda):
                continue
            for deco in info.node.decorator_list:
                site = self.transform_of(deco, info.parent)
                if site is not None:
                    site.node = deco
                    info.traces.append(site)
        for node in self.nodes(ast.Call):
            assert isinstance(node, ast.Call)
            scope = self.enclosing_function(node)
            site = self.transform_of(node.func, scope)
            if site is not None and node.args:
                target = self._resolve_function(node.args[0], scope)
                if target is not None:
                    site = _with_static(site, node.keywords)
                    site.node = node
                    target.traces.append(site)
                continue
            q = self.qualname(node.func, scope)
            if q in LAX_BODIES:
                bodies = [node.args[i] for i in LAX_BODIES[q] if i < len(node.args)]
                bodies += [kw.value for kw in node.keywords if kw.arg in LAX_BODY_KEYWORDS]
                for body in bodies:
                    elts = body.elts if isinstance(body, ast.List | ast.Tuple) else [body]
                    for elt in elts:
                        target = self._resolve_function(elt, scope)
                        if target is not None:
                            target.traces.append(TraceSite(f"{q.rsplit('.', 1)[1]} body", node=node))
        # Nested definitions inside traced functions, and helpers they call, run under the same trace.
        work = [f for f in self.functions.values() if f.traced]
        seen = {id(f) for f in work}
        while work:
            fn = work.pop()
            for child in self.own_nodes(fn):
                callee: FunctionInfo | None = None
                reason = ""
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                    callee = self.functions.get(child)
                    reason = f"defined inside traced `{fn.name}`"
                elif isinstance(child, ast.Call) and isinstance(child.func, ast.Name):
                    callee = self._resolve_function(child.func, fn)
                    reason = f"called from traced `{fn.name}`"
                    if callee is not None:
                        self._calls_from_traced.setdefault(callee.qualname, []).append((fn, child))
                if callee is None or callee is fn:
                    continue
                if id(callee) not in seen:
                    if not callee.traced:
                        callee.traces.append(TraceSite(reason, node=child))
                    seen.add(id(callee))
                    work.append(callee)
        for info in self.functions.values():
            if info.traced:
                info.static_params = self._static_params(info)

    def _static_params(self, info: FunctionInfo) -> set[str]:
        static: set[str] = set()
        positional = [p.arg for p in [*info.node.args.posonlyargs, *info.node.args.args]]
        for site in info.traces:
            static.update(site.static_argnames)
            for i in site.static_argnums:
                if -len(positional) <= i < len(positional):
                    static.add(positional[i])
        if positional and positional[0] in ("self", "cls") and info.parent is None:
            static.add(positional[0])
        return static

    # ---- value kinds -----------------------------------------------------------------------------------

    def _run_dataflow(self) -> None:
        module_flow = _Flow(self, None, {})
        module_flow.run_block(self.tree.body)
        self.module_env = module_flow.env
        # Functions in definition order; nested functions see their parent's environment at the end of the
        # parent (closures read the latest binding), helpers see the kinds their traced callers pass.
        ordered = sorted(self.functions.values(), key=lambda f: (_depth(f), _helper_rank(f)))
        final_envs: dict[int, dict[str, Kind]] = {}
        for info in ordered:
            info.param_kinds = self._param_kinds(info)
            closure = final_envs.get(id(info.parent), {}) if info.parent is not None else {}
            flow = _Flow(self, info, {**closure, **info.param_kinds})
            if isinstance(info.node, ast.Lambda):
                flow.visit_expr(info.node.body)
            else:
                flow.run_block(info.node.body)
            final_envs[id(info)] = flow.env

    def _param_kinds(self, info: FunctionInfo) -> dict[str, Kind]:
        kinds: dict[str, Kind] = {}
        a = info.node.args
        defaults = dict(zip([p.arg for p in [*a.posonlyargs, *a.args]][::-1], a.defaults[::-1], strict=False))
        defaults.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None})
        evidence = _container_evidence(model=self, info=info)
        helper_calls = self._calls_from_traced.get(info.qualname, [])
        directly_traced = any(not t.transform.startswith(("called from", "defined inside")) for t in info.traces)
        for p in info.param_nodes:
            name = p.arg
            kind = Kind.UNKNOWN
            if p is a.vararg or p is a.kwarg or name in ("self", "cls"):
                kind = Kind.CONTAINER if (p is a.vararg or p is a.kwarg) else Kind.UNKNOWN
            elif name in info.static_params:
                kind = Kind.PYTHON
            elif name in evidence:
                kind = Kind.CONTAINER
            elif _annotation_kind(p.annotation) is not None:
                kind = _annotation_kind(p.annotation) or Kind.UNKNOWN
            elif name in defaults and not _is_none(defaults[name]):
                kind = Kind.PYTHON if isinstance(defaults[name], ast.Constant) else Kind.UNKNOWN
            elif directly_traced:
                kind = Kind.JAX
            elif info.traced and helper_calls:
                kind = self._helper_param_kind(info, name, helper_calls)
            kinds[name] = kind
        return kinds

    def _helper_param_kind(self, info: FunctionInfo, name: str, calls: list[tuple[FunctionInfo, ast.Call]]) -> Kind:
        """A helper's parameter is a JAX array when every traced call site passes one there."""
        positional = [p.arg for p in [*info.node.args.posonlyargs, *info.node.args.args]]
        seen: set[Kind] = set()
        for caller, call in calls:
            arg: ast.AST | None = None
            if name in positional and positional.index(name) < len(call.args):
                arg = call.args[positional.index(name)]
                if any(isinstance(a, ast.Starred) for a in call.args[: positional.index(name) + 1]):
                    return Kind.UNKNOWN
            for kw in call.keywords:
                if kw.arg == name:
                    arg = kw.value
            if arg is None:
                return Kind.UNKNOWN
            seen.add(self.kind_of(arg, caller))
        return seen.pop() if len(seen) == 1 else Kind.UNKNOWN


def _with_static(site: TraceSite, keywords: list[ast.keyword]) -> TraceSite:
    nums, names = list(site.static_argnums), list(site.static_argnames)
    for kw in keywords:
        value = literal_value(kw.value)
        if kw.arg == "static_argnums":
            nums.extend([value] if isinstance(value, int) else [v for v in value or () if isinstance(v, int)]
                        if isinstance(value, tuple | list) else [])
        elif kw.arg == "static_argnames":
            names.extend([value] if isinstance(value, str) else [v for v in value or () if isinstance(v, str)]
                         if isinstance(value, tuple | list) else [])
    return TraceSite(site.transform, tuple(nums), tuple(names), site.node)


def _find_def(node: ast.AST, name: str, model: ModuleModel) -> FunctionInfo | None:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
        return model.functions.get(node)
    if isinstance(node, ast.If | ast.With | ast.Try | ast.For | ast.While):
        for child in ast.iter_child_nodes(node):
            found = _find_def(child, name, model)
            if found is not None:
                return found
    return None


def _depth(info: FunctionInfo) -> int:
    d, cur = 0, info.parent
    while cur is not None:
        d, cur = d + 1, cur.parent
    return d


def _helper_rank(info: FunctionInfo) -> int:
    # Directly traced functions first, so helpers see the kinds their callers pass.
    if not info.traced:
        return 0
    return 1 if any(t.transform.startswith("called from") for t in info.traces) else 0


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _annotation_kind(annotation: ast.AST | None) -> Kind | None:
    if annotation is None:
        return None
    head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    name = head.attr if isinstance(head, ast.Attribute) else head.id if isinstance(head, ast.Name) else None
    if name in {"dict", "Dict", "list", "List", "tuple", "Tuple", "Sequence", "Mapping", "MutableMapping",
                "Iterable", "set", "Set"}:
        return Kind.CONTAINER
    if name in {"str", "Callable", "type"}:
        return Kind.PYTHON
    return None


def _container_evidence(model: ModuleModel, info: FunctionInfo) -> set[str]:
    """Parameters used like Python containers: `p.items()`, `p["w"]`, `**p`, `for k, v in p`."""
    params = set(info.params)
    found: set[str] = set()
    for node in model.own_nodes(info):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in params:
            if node.attr in _CONTAINER_METHODS:
                found.add(node.value.id)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in params:
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                found.add(node.value.id)
        elif isinstance(node, ast.keyword) and node.arg is None and isinstance(node.value, ast.Name):
            found.add(node.value.id)
        elif isinstance(node, ast.Dict):
            found.update(v.id for k, v in zip(node.keys, node.values, strict=True)
                         if k is None and isinstance(v, ast.Name))
    return found & params


class _KindEvaluator:
    def __init__(self, model: ModuleModel, scope: FunctionInfo | None, env: dict[str, Kind] | None) -> None:
        self.model = model
        self.scope = scope
        self.env = env

    def name(self, node: ast.Name) -> Kind:
        if self.env is None:
            return self.model.name_kinds.get(id(node), Kind.UNKNOWN)
        if node.id in self.env:
            return self.env[node.id]
        if self.scope is not None and self.model.is_local(node.id, self.scope):
            return Kind.UNKNOWN
        if node.id in self.model.aliases:
            return Kind.MODULE
        return self.model.module_env.get(node.id, Kind.UNKNOWN)

    def eval(self, node: ast.AST) -> Kind:
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Constant | ast.JoinedStr):
            return Kind.PYTHON
        if isinstance(node, ast.List | ast.Tuple | ast.Dict | ast.Set | ast.ListComp | ast.DictComp | ast.SetComp):
            return Kind.CONTAINER
        if isinstance(node, ast.BinOp):
            return arith(self.eval(node.left), self.eval(node.right))
        if isinstance(node, ast.UnaryOp):
            k = self.eval(node.operand)
            return Kind.PYTHON if isinstance(node.op, ast.Not) and k is Kind.PYTHON else k
        if isinstance(node, ast.Compare):
            kinds = [self.eval(node.left), *(self.eval(c) for c in node.comparators)]
            if Kind.JAX in kinds:
                return Kind.JAX
            if Kind.NUMPY in kinds:
                return Kind.NUMPY
            return Kind.PYTHON if all(k is Kind.PYTHON for k in kinds) else Kind.UNKNOWN
        if isinstance(node, ast.IfExp):
            return merge(self.eval(node.body), self.eval(node.orelse))
        if isinstance(node, ast.NamedExpr):
            return self.eval(node.value)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Subscript):
            base = self.eval(node.value)
            if base in (Kind.JAX, Kind.NUMPY, Kind.KEY, Kind.JAX_AT):
                return base
            return Kind.UNKNOWN
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Lambda):
            return Kind.FUNCTION
        return Kind.UNKNOWN

    def attribute(self, node: ast.Attribute) -> Kind:
        if self.model.qualname(node, self.scope) is not None:
            return Kind.UNKNOWN  # e.g. jnp.pi, jnp.float32: module attributes
        base = self.eval(node.value)
        if base in (Kind.JAX, Kind.NUMPY):
            if node.attr in ARRAY_STATIC_ATTRS:
                return Kind.PYTHON
            if node.attr == "at":
                return Kind.JAX_AT if base is Kind.JAX else Kind.UNKNOWN
            if node.attr in ("T", "mT", "real", "imag"):
                return base
        return Kind.UNKNOWN

    def call(self, node: ast.Call) -> Kind:
        q = self.model.qualname(node.func, self.scope)
        if q is not None:
            return qualified_call_kind(q)
        func = node.func
        if isinstance(func, ast.Name):
            if func.id in _PY_BUILTINS_CONTAINER and not self._shadowed(func.id):
                return Kind.CONTAINER
            if func.id in _PY_BUILTINS_PYTHON and not self._shadowed(func.id):
                args = [self.eval(a) for a in node.args]
                if func.id in ("min", "max", "abs", "sum", "round") and Kind.JAX in args:
                    return Kind.JAX
                return Kind.PYTHON
            return Kind.UNKNOWN
        if isinstance(func, ast.Attribute):
            recv = self.eval(func.value)
            if recv is Kind.JAX_AT:  # x.at[i].set(v)
                return Kind.JAX if func.attr in ("set", "add", "multiply", "mul", "divide", "min", "max",
                                                 "power", "subtract", "apply", "get") else Kind.UNKNOWN
            if recv in (Kind.JAX, Kind.NUMPY):
                return Kind.PYTHON if func.attr in _ARRAY_PY_METHODS else recv
        return Kind.UNKNOWN

    def _shadowed(self, name: str) -> bool:
        if self.env is not None and name in self.env:
            return True
        return name in self.model.module_env


def qualified_call_kind(q: str) -> Kind:
    if q in _KEY_MAKERS:
        return Kind.KEY
    if q.startswith("jax.numpy.") and q.rsplit(".", 1)[1] in _JNP_STATIC:
        return Kind.PYTHON
    if q.startswith(_JAX_ARRAY_MODULES) or q in _JAX_ARRAY_FUNCS:
        return Kind.JAX
    if q.startswith("numpy."):
        tail = q.rsplit(".", 1)[1]
        if q.startswith("numpy.random.") and tail in ("default_rng", "RandomState", "Generator", "seed"):
            return Kind.UNKNOWN
        if tail in ("shape", "ndim", "size", "dtype", "isscalar", "iinfo", "finfo", "result_type"):
            return Kind.PYTHON
        return Kind.NUMPY
    return Kind.UNKNOWN


def arith(a: Kind, b: Kind) -> Kind:
    if Kind.JAX in (a, b):
        return Kind.JAX if Kind.CONTAINER not in (a, b) else Kind.UNKNOWN
    if Kind.NUMPY in (a, b):
        return Kind.NUMPY if {a, b} <= {Kind.NUMPY, Kind.PYTHON} else Kind.UNKNOWN
    if a is b and a in (Kind.PYTHON, Kind.CONTAINER):
        return a
    return Kind.UNKNOWN


def merge(a: Kind, b: Kind) -> Kind:
    return a if a is b else Kind.UNKNOWN


def merge_envs(a: dict[str, Kind], b: dict[str, Kind]) -> dict[str, Kind]:
    out = dict(a)
    for name, kind in b.items():
        out[name] = merge(out[name], kind) if name in out else kind
    return out


class _Flow:
    """Forward dataflow of value kinds through one scope's statements, recording the kind at each name read."""

    def __init__(self, model: ModuleModel, scope: FunctionInfo | None, env: dict[str, Kind]) -> None:
        self.model = model
        self.scope = scope
        self.env = env

    def kind(self, node: ast.AST) -> Kind:
        return _KindEvaluator(self.model, self.scope, self.env).eval(node)

    def visit_expr(self, node: ast.AST | None) -> None:
        """Records the kind of every name read in an expression (not inside nested lambdas/comprehensions'
        own variables, which get their own handling)."""
        if node is None:
            return
        stack = [node]
        record = self.model.name_kinds
        evaluator = _KindEvaluator(self.model, self.scope, self.env)
        while stack:
            cur = stack.pop()
            if isinstance(cur, ast.Name):
                if isinstance(cur.ctx, ast.Load):
                    record[id(cur)] = evaluator.name(cur)
                continue
            if isinstance(cur, ast.Lambda):
                continue  # analysed as its own function
            if isinstance(cur, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
                self._comprehension(cur)
                continue
            stack.extend(iter_children(cur))

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        saved = dict(self.env)
        for gen in node.generators:
            self.visit_expr(gen.iter)
            self.bind(gen.target, self._iter_kind(gen.iter))
            for cond in gen.ifs:
                self.visit_expr(cond)
        if isinstance(node, ast.DictComp):
            self.visit_expr(node.key)
            self.visit_expr(node.value)
        else:
            self.visit_expr(node.elt)
        self.env.clear()
        self.env.update(saved)

    def _iter_kind(self, iterable: ast.AST) -> Kind:
        k = self.kind(iterable)
        if k in (Kind.JAX, Kind.NUMPY, Kind.KEY):
            return k  # rows of an array, keys of a split
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range":
            return Kind.PYTHON
        return Kind.UNKNOWN

    def bind(self, target: ast.AST, kind: Kind, value: ast.AST | None = None) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = kind
        elif isinstance(target, ast.Tuple | ast.List):
            values = value.elts if isinstance(value, ast.Tuple | ast.List) else None
            if values is not None and len(values) == len(target.elts) and not any(
                isinstance(e, ast.Starred) for e in target.elts
            ):
                for t, v in zip(target.elts, values, strict=True):
                    self.bind(t, self.kind(v), v)
            else:
                elt_kind = Kind.KEY if kind is Kind.KEY else Kind.UNKNOWN
                for t in target.elts:
                    self.bind(t, elt_kind)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, Kind.CONTAINER)
        else:  # attribute or subscript store: reads its base
            self.visit_expr(target)

    def run_block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.run(stmt)

    def run(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Assign):
            self.visit_expr(stmt.value)
            kind = self.kind(stmt.value)
            for target in stmt.targets:
                if not isinstance(target, ast.Name):
                    self.visit_expr(target)
            for target in stmt.targets:
                self.bind(target, kind, stmt.value)
        elif isinstance(stmt, ast.AnnAssign):
            self.visit_expr(stmt.value)
            if stmt.value is not None:
                self.bind(stmt.target, self.kind(stmt.value), stmt.value)
            elif not isinstance(stmt.target, ast.Name):
                self.visit_expr(stmt.target)
        elif isinstance(stmt, ast.AugAssign):
            self.visit_expr(stmt.value)
            self.visit_expr(stmt.target if not isinstance(stmt.target, ast.Name) else None)
            if isinstance(stmt.target, ast.Name):
                load = ast.Name(id=stmt.target.id, ctx=ast.Load())
                self.env[stmt.target.id] = arith(self.kind(load), self.kind(stmt.value))
        elif isinstance(stmt, ast.For | ast.AsyncFor):
            self.visit_expr(stmt.iter)
            item = self._iter_kind(stmt.iter)
            before = dict(self.env)
            for _ in range(2):  # a second pass sees the kinds the body gives its names in later iterations
                self.env = dict(before) if _ == 0 else merge_envs(before, self.env)
                self.bind(stmt.target, item)
                self.run_block(stmt.body)
            self.env = merge_envs(before, self.env)
            self.run_block(stmt.orelse)
        elif isinstance(stmt, ast.While):
            before = dict(self.env)
            for _ in range(2):
                self.env = dict(before) if _ == 0 else merge_envs(before, self.env)
                self.visit_expr(stmt.test)
                self.run_block(stmt.body)
            self.env = merge_envs(before, self.env)
            self.run_block(stmt.orelse)
        elif isinstance(stmt, ast.If):
            self.visit_expr(stmt.test)
            before = dict(self.env)
            self.run_block(stmt.body)
            after_body = self.env
            self.env = dict(before)
            self.run_block(stmt.orelse)
            self.env = merge_envs(after_body, self.env)
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            for with_item in stmt.items:
                self.visit_expr(with_item.context_expr)
                if with_item.optional_vars is not None:
                    self.bind(with_item.optional_vars, Kind.UNKNOWN)
            self.run_block(stmt.body)
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            before = dict(self.env)
            self.run_block(stmt.body)  # type: ignore[attr-defined]
            self.run_block(stmt.orelse)  # type: ignore[attr-defined]
            merged = self.env
            for handler in stmt.handlers:  # type: ignore[attr-defined]
                self.env = merge_envs(before, merged)
                if handler.name:
                    self.env[handler.name] = Kind.UNKNOWN
                self.run_block(handler.body)
                merged = merge_envs(merged, self.env)
            self.env = merged
            self.run_block(stmt.finalbody)  # type: ignore[attr-defined]
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            for deco in stmt.decorator_list:
                self.visit_expr(deco)
            for default in [*stmt.args.defaults, *(d for d in stmt.args.kw_defaults if d is not None)]:
                self.visit_expr(default)
            self.env[stmt.name] = Kind.FUNCTION
        elif isinstance(stmt, ast.ClassDef):
            for deco in stmt.decorator_list:
                self.visit_expr(deco)
            self.env[stmt.name] = Kind.UNKNOWN
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            for alias in stmt.names:
                self.env[(alias.asname or alias.name).split(".")[0]] = Kind.MODULE
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    self.env.pop(target.id, None)
                else:
                    self.visit_expr(target)
        elif isinstance(stmt, ast.Match):
            self.visit_expr(stmt.subject)
            before = dict(self.env)
            cases_env: dict[str, Kind] | None = None
            for case in stmt.cases:
                self.env = dict(before)
                self.visit_expr(case.guard)
                self.run_block(case.body)
                cases_env = self.env if cases_env is None else merge_envs(cases_env, self.env)
            self.env = merge_envs(before, cases_env or {})
        else:  # Expr, Return, Raise, Assert, ...: only reads
            for child in iter_children(stmt):
                self.visit_expr(child)
