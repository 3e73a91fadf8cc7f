"""What is traced: the JAX transformations in every spelling (decorator or call, `functools.partial`,
`lax.scan`/`fori_loop`/... bodies, nested definitions, helpers called from traced code), and which parameters of
a traced function are static."""

from __future__ import annotations

import ast
import dataclasses
import enum
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from sharpbits.analysis.scopes import FunctionInfo, Scopes
from sharpbits.analysis.syntax import FunctionNode, literal_value, parameter_defaults, walk_nodes

if TYPE_CHECKING:
    from sharpbits.analysis.project_index import ProjectView

T = TypeVar("T")

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

# Transformations that differentiate with respect to `argnums` (default 0) and pass the other arguments through
# as the caller gave them (a Python int stays an int inside `jax.grad(f)(t, i)`).
_DIFFERENTIATING = {"jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian",
                    "flax.nnx.grad", "flax.nnx.value_and_grad"}


# Transformations whose result has the signature of the function they transform and that hand the arguments they do
# not transform through as given: the static arguments of a jit around them are the function's
_SIGNATURE_KEEPING = _DIFFERENTIATING | {"jax.checkpoint", "jax.remat", "jax.ad_checkpoint.checkpoint"}


def _argnums(node: ast.AST | None) -> tuple[int, ...]:
    """The `argnums` of a `jax.grad(...)`-style call site (literal values; 0 when absent)."""
    keywords = node.keywords if isinstance(node, ast.Call) else []
    for kw in keywords:
        if kw.arg == "argnums":
            value = literal_value(kw.value)
            if isinstance(value, int):
                return (value,)
            if isinstance(value, (tuple, list)) and all(isinstance(v, int) for v in value):
                return tuple(value)
            return tuple(range(-64, 64))  # not a literal: any parameter may be differentiated
    return (0,)


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
# Host callbacks: the function argument runs on the host with concrete values (NumPy arrays), not under the
# trace, even when it is defined inside a traced function. Qualified name -> position of the callback.
HOST_CALLBACKS: dict[str, int] = {
    "jax.debug.callback": 0,
    "jax.pure_callback": 0,
    "jax.experimental.io_callback": 0,
    "jax.experimental.pure_callback": 0,
    "jax.experimental.host_callback.id_tap": 0,
    "jax.experimental.host_callback.call": 0,
}
_HOST_CALLBACK_TAILS = tuple({name.rsplit(".", 1)[1] for name in HOST_CALLBACKS})
# Transformations that trace a function without compiling it: only its shapes are computed.
NOT_COMPILED = {"jax.eval_shape", "jax.make_jaxpr"}
# Transformations that trace with concrete values when not also under jit: `jax.grad(f)(x)` runs `f` eagerly on
# tracers that carry their values, so a Python `if x > 0` works there (but `float(x)` does not).
# `jax.shard_map` called eagerly (not under jit) runs its body once per device on that device's concrete block.
SHARD_MAPS = {"jax.shard_map", "jax.experimental.shard_map.shard_map"}
# Transformations that differentiate no argument: they pass every argument through as the caller gave it.
NOT_DIFFERENTIATING = {"jax.named_call", *SHARD_MAPS}
CONCRETE_TRANSFORMS = {*SHARD_MAPS, "jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian",
                       "jax.linearize", "jax.jvp", "jax.vjp", "jax.named_call", "jax.custom_jvp", "jax.custom_vjp",
                       "equinox.filter_grad", "equinox.filter_value_and_grad", "flax.nnx.grad",
                       "flax.nnx.value_and_grad"}
LAX_BODY_KEYWORDS = {"body_fun", "cond_fun", "f", "true_fun", "false_fun", "branches", "fn"}
# Transformations that keep no trace: called eagerly, they run the Python function again on every call (globals
# are read afresh each time). Every other one caches its trace by function: jit, pmap, checkpoint/remat, eval_shape,
# make_jaxpr, and lax.scan/fori_loop/while_loop/cond/switch bodies (checked on jax 0.10.2).
PALLAS_KERNEL = "pallas_call kernel"  # the transform of a Pallas kernel's trace site (see _pallas_kernel_sites)
RETRACING = {*SHARD_MAPS, PALLAS_KERNEL, "jax.grad", "jax.value_and_grad", "jax.vmap", "jax.jacfwd", "jax.jacrev", "jax.jacobian",
             "jax.hessian", "jax.linearize", "jax.jvp", "jax.vjp", "jax.named_call", "jax.custom_jvp",
             "jax.custom_vjp", "equinox.filter_grad", "equinox.filter_value_and_grad", "equinox.filter_vmap",
             "flax.nnx.grad", "flax.nnx.value_and_grad", "flax.nnx.vmap", "map", "associative_scan"}


class Provenance(enum.Enum):
    """How a function came to be traced."""

    DIRECT = "direct"  # a transformation applied to it, as a decorator or a call: `@jax.jit`, `jax.vmap(f)`
    LAX_BODY = "body of a lax primitive"  # passed as the body of `lax.scan`, `lax.fori_loop`, `lax.cond`, ...
    CALLED_FROM = "called from"  # called by name from a traced function
    DEFINED_INSIDE = "defined inside"  # defined inside a traced function


INDIRECT = (Provenance.CALLED_FROM, Provenance.DEFINED_INSIDE)  # traced because of the traced function `via`


@dataclass
class TraceSite:
    """Why a function is traced: how (`provenance`), by what, and the transformation's static arguments."""

    # DIRECT: the transformation's qualified name ("jax.jit"); LAX_BODY: the primitive's name ("scan");
    # CALLED_FROM / DEFINED_INSIDE: "" (the traced function is `via`)
    transform: str
    static_argnums: tuple[int, ...] = ()
    static_argnames: tuple[str, ...] = ()
    node: ast.AST | None = None  # the decorator or call that made it traced
    donate_argnums: tuple[int, ...] = ()  # jax.jit's donate_argnums / donate_argnames: buffers the call deletes
    donate_argnames: tuple[str, ...] = ()
    statics_unknown: bool = False  # static_argnums/static_argnames given by a non-literal (a variable, a call)
    # vmap's in_axes=None positions: passed through unbatched, as the caller gave them (concrete from eager code)
    unmapped_argnums: tuple[int, ...] = ()
    provenance: Provenance = Provenance.DIRECT
    via: str = ""  # CALLED_FROM / DEFINED_INSIDE: the name of the traced function that calls or defines it
    # the transformed callable takes other arguments first (`jax.jit(model.apply)` of `hk.transform(f)`: params,
    # state, key, then f's): its calls' argument positions are not f's parameters
    foreign_positions: bool = False

    @property
    def indirect(self) -> bool:
        """Traced because a traced function calls it or defines it, not by a transformation of its own."""
        return self.provenance in INDIRECT

    @property
    def reason(self) -> str:
        """Why it is traced, in words: "jax.jit", "scan body", "called from traced `f`"."""
        if self.provenance is Provenance.LAX_BODY:
            return f"{self.transform} body"
        if self.provenance is Provenance.CALLED_FROM:
            return f"called from traced `{self.via}`"
        if self.provenance is Provenance.DEFINED_INSIDE:
            return f"defined inside traced `{self.via}`"
        return self.transform



class TracedCode:
    """The traced-code part of ModuleModel (see model.py). Built anew for each version of a document; what it works
    out per top-level statement and per traced function is taken from the last version's (TracedParts) where all
    it read is the same."""

    _calls_from_traced: dict[str, list[tuple[FunctionInfo, ast.Call]]]
    _partial_calls: list[ast.Call] | None = None
    _calls_by_callee: dict[tuple[str, str], list[ast.Call]] | None = None  # ("", f) / (".", attr) -> calls
    _call_positions: dict[int, int] | None = None  # id(call) -> its position in nodes(ast.Call)
    _transformed: dict[str, list[str]] | None = None
    _pallas_kernels: set[int] | None = None
    _shows_values: frozenset[int] = frozenset()  # set by _mark_abstract
    _kernel_code: frozenset[int] = frozenset()  # set by _find_traced: Pallas kernels and what they call or define
    _rule_groups: dict[int, tuple[FunctionInfo, ...]] = {}  # replaced per instance by _find_traced
    _residual_sources: dict[int, tuple[FunctionInfo, int]] = {}  # id(bwd) -> (its fwd, leading nondiff args)
    _cached: set[int] | None = None
    _calls: list[_CallIndex]  # set by _find_traced
    _methods: dict[str, FunctionInfo] | None = None  # "Class.method" -> the method (bound_method)
    _calls_only: dict[str, bool] | None = None  # module-level function name -> every use of the name calls it
    _optax_hooked: set[int]  # set by _find_traced: id of functions an optax update calls in traced code
    _name_counts: Counter[str] | None = None  # the module's names, counted (see _spelled_in_module)
    _strings: list[str]  # the module's string constants (see _spelled_in_module)
    _traced: list[FunctionInfo]  # set by _find_traced: the traced functions, in the order of `functions`
    _candidate_calls: dict[str, list[ast.Call]] | None = None  # see _statements
    # while a kept part is worked out (`_kept`): the questions it asked outside its own top-level statement, each
    # with its answer (see TracedParts); None otherwise
    _reads: list[tuple[object, ...]] | None = None

    def __init__(self, scopes: Scopes, project: ProjectView | None = None) -> None:
        self.scopes = scopes
        self.project = project  # None: other modules unknown (a transform alias may be called from any of them)
        self._calls_from_traced = {}
        # what the last version of the document worked out (analysis/reuse.py); None: nothing kept
        self._memory = scopes.reusable.traced if scopes.reusable is not None else None
        self._module = self._module_key() if self._memory is not None else None
        if self._memory is not None:
            self._memory.begin(self._module)  # type: ignore[arg-type]
        self._find_traced()
        # (only _find_traced adds trace sites: which functions are traced is fixed from here on)

    def traced_functions(self) -> Iterator[FunctionInfo]:
        return iter(self._traced)

    def cached(self, fn: FunctionInfo) -> bool:
        """Whether `fn` runs under a trace that is kept and reused (what it reads at trace time is frozen): traced
        by a caching transformation (`jit`, `pmap`, `checkpoint`, `eval_shape`, a lax loop/cond body), inside one
        (`jax.jit(jax.grad(f))`, `jax.vmap(f)` in a jitted function), or called from / defined in such code. Not
        `jax.grad(f)(x)`/`jax.vmap(f)(x)`/`jax.jacrev(f)(x)` run eagerly: they retrace on every call (RETRACING).
        A lax body defined inside a function is made anew on each call: it shares its definer's answer when the
        definer is traced here, and is taken as kept when it is not (lax runs under jit in practice)."""
        if self._cached is None:
            self._cached = self._find_cached()
        return id(fn) in self._cached

    def _find_cached(self) -> set[int]:
        cached: set[int] = set()
        feeds: dict[int, list[FunctionInfo]] = {}  # id(f) -> functions cached when f is
        for fn in self.traced_functions():
            for site in fn.traces:
                if site.indirect:
                    continue
                runner = self.scopes.enclosing_function(site.node) if site.node is not None else None
                if site.provenance is Provenance.LAX_BODY:
                    kept = site.transform not in RETRACING  # lax keeps the trace of a body it is given again
                    if runner is not None and runner.traced and not (kept and fn.parent is None):
                        feeds.setdefault(id(runner), []).append(fn)
                    elif kept or runner is not None:
                        cached.add(id(fn))
                elif site.transform not in RETRACING or self._under_caching_transform(site.node):
                    cached.add(id(fn))
                elif runner is not None:
                    feeds.setdefault(id(runner), []).append(fn)
            for caller, _ in self.calls_from_traced(fn):
                feeds.setdefault(id(caller), []).append(fn)
            if fn.parent is not None:
                feeds.setdefault(id(fn.parent), []).append(fn)
        work = [fn for fn in self.traced_functions() if id(fn) in cached]
        while work:
            for callee in feeds.get(id(work.pop()), ()):
                if id(callee) not in cached:
                    cached.add(id(callee))
                    work.append(callee)
        return cached

    def _under_caching_transform(self, node: ast.AST | None) -> bool:
        """`jax.jit(jax.grad(f))`: the site is an argument of a caching transformation, however deeply nested."""
        while node is not None and self._inside_transform(node):
            parent = self.scopes.parents[node]
            assert isinstance(parent, ast.Call)
            if self.scopes.qualname(parent.func, self.scopes.enclosing_function(parent)) not in RETRACING:
                return True
            node = parent
        return False
    def argument_values(self, fn: FunctionInfo, param: str) -> list[ast.AST]:
        """Every expression this module passes to `fn`'s parameter `param`: at its call sites (by name, through
        a module-level `g = jax.jit(fn, ...)`, or `self.fn(...)` for a method), and its default value."""
        node = fn.node
        if isinstance(node, ast.Lambda) or param not in fn.params:
            return []
        positional = [p.arg for p in [*node.args.posonlyargs, *node.args.args]]
        is_method = fn.parent is None and "." in fn.qualname and positional[:1] in (["self"], ["cls"])
        if is_method:
            positional = positional[1:]
        names = {fn.name} if fn.parent is None and not is_method else set()
        names.update(self._transformed_names().get(fn.name, ()))  # g = jax.jit(fn, ...): calls of g are calls of fn
        values: list[ast.AST] = []
        defaults = parameter_defaults(node.args)
        if param in defaults:
            values.append(defaults[param])
        for call in self._calls_named(names, fn.name if is_method else None):
            func = call.func
            if isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name)
                                                        and func.value.id in ("self", "cls")):
                continue
            if any(isinstance(a, ast.Starred) for a in call.args):
                continue
            for kw in call.keywords:
                if kw.arg == param:
                    values.append(kw.value)
            if param in positional and positional.index(param) < len(call.args):
                values.append(call.args[positional.index(param)])
        return values

    def _alias_nothing_calls(self, node: ast.Call) -> bool:
        """`vmapped_f = jax.vmap(f, in_axes=(0, 0, 0))` at module level in a private module (`pkg._impl`), the
        name never spelled again in the module (no read, no string naming it) nor in any other file of the project:
        a transformation traces its function when the transformed callable is called, and nothing can call this
        one (jaxhps's adaptive down passes, copied from the uniform ones, where the alias is called). Unknown
        (no project index, a public module, files that cannot all be read): the alias may be called."""
        if self.project is None or not self.project.private():
            return False  # (asked first: most modules are public, and the rest reads the whole module)
        stmt = self.scopes.parents.get(node)
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or not isinstance(self.scopes.parents.get(stmt), ast.Module):
            return False
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if len(targets) != 1 or not isinstance(targets[0], ast.Name):
            return False
        alias = targets[0].id
        answer = not self._spelled_in_module(alias) and not self.project.named_elsewhere(alias)
        if self._reads is not None:  # (the whole module and the other files: asked again of every version)
            self._reads.append((_ALIAS_NOTHING_CALLS, node, answer))
        return answer

    def _spelled_in_module(self, alias: str) -> bool:
        """Whether the module reads the name anywhere (or binds it again), or names it in a string (`__all__`,
        `getattr(module, "alias")`). The module's names are counted once per analysis."""
        if self._name_counts is None:
            self._name_counts = Counter(n.id for n in self.scopes.nodes(ast.Name))  # type: ignore[attr-defined]
            self._strings = [c.value for c in self.scopes.nodes(ast.Constant)
                             if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        if self._name_counts[alias] != 1:
            return True
        return any(alias in text for text in self._strings)

    def _under_disable_jit(self, node: ast.AST) -> bool:
        """Whether a call sits in the body of `with jax.disable_jit():` (in the same function): there jit,
        vmap and the lax loops run their functions eagerly, on concrete values."""
        parent = self.scopes.parents.get(node)
        while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if isinstance(parent, (ast.With, ast.AsyncWith)) and any(
                    isinstance(item.context_expr, ast.Call) and self.scopes.qualname(
                        item.context_expr.func, self.scopes.enclosing_function(parent)) == "jax.disable_jit"
                    for item in parent.items):
                return True
            parent = self.scopes.parents.get(parent)
        return False

    def _inside_transform(self, node: ast.AST | None) -> bool:
        """`jax.jit(jax.value_and_grad(f))`: the site is itself an argument of another transformation, which
        traces every argument."""
        parent = self.scopes.parents.get(node) if node is not None else None
        return isinstance(parent, ast.Call) and node in parent.args and (
            self.scopes.qualname(parent.func, self.scopes.enclosing_function(parent)) in TRANSFORMS)

    def passed_through_params(self, fn: FunctionInfo) -> set[str]:
        """Parameters of a directly traced function that its transformations pass through as they are (so they
        keep whatever kind the caller gives them): `in_axes=None` positions of every `vmap`/`pmap` site, every
        parameter of an `equinox.filter_jit`/`filter_vmap`/... function (they trace arrays only; a Python value
        stays static), and parameters bound by `functools.partial(fn, ...)` in this module before the function
        is transformed."""
        positional = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]]
        direct = [t for t in fn.traces if not t.indirect]
        unmapped: set[str] | None = None
        for site in direct:
            if site.transform.startswith("equinox.filter_") or site.transform == "jax.named_call":
                # equinox: non-array arguments are static, arrays traced; named_call only names the function's
                # equations in the trace it is called from: it transforms nothing, its arguments are the caller's
                here = set(fn.params)
                unmapped = here if unmapped is None else unmapped & here
                continue
            if site.transform in _DIFFERENTIATING and not self._inside_transform(site.node):
                # jax.grad(f)(t, i) run eagerly: only argnums become tracers
                here = set(positional) - {positional[i] for i in _argnums(site.node) if -len(positional) <= i < len(positional)}
                unmapped = here if unmapped is None else unmapped & here
                continue
            if site.transform not in ("jax.vmap", "jax.pmap", "flax.nnx.vmap"):
                unmapped = set()
                break
            node = site.node
            in_axes: object = 0
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if kw.arg == "in_axes":
                        in_axes = literal_value(kw.value) if not _is_none(kw.value) else None
                if self.scopes.qualname(node.func, self.scopes.enclosing_function(node)) == site.transform and len(node.args) > 1:
                    in_axes = literal_value(node.args[1]) if not _is_none(node.args[1]) else None
            if isinstance(in_axes, (tuple, list)):
                here = {positional[i] for i, axis in enumerate(in_axes) if axis is None and i < len(positional)}
                # vmap takes exactly len(in_axes) positional arguments (more or fewer raise ValueError, checked on
                # jax 0.10.2): a parameter past them holds its default, or a keyword the caller batches
                defaulted = parameter_defaults(fn.node.args)  # type: ignore[arg-type]
                here |= {p for p in positional[len(in_axes):] if p in defaulted}
            else:
                here = set(positional) if in_axes is None else set()
            unmapped = here if unmapped is None else unmapped & here
        bound = set(unmapped or ())
        if self._partial_calls is None:
            # per top-level statement, kept across versions while the imports are the same (a statement's own
            # names decide what is local to its functions): filtering every call of the module by its callee's
            # qualified name was some 2% of an edit of a 5,000-line module
            self._partial_calls = [c for part in self.scopes.per_statement(
                "functools.partial calls of a name", ast.Call, self._partial_calls_in, imports=True) for c in part]
        for call in self._partial_calls:
            if call.args[0].id != fn.name:  # type: ignore[attr-defined]
                continue
            if self.scopes.resolve_function(call.args[0], self.scopes.enclosing_function(call)) is not fn:
                continue
            bound.update(positional[: len(call.args) - 1])
            bound.update(kw.arg for kw in call.keywords if kw.arg is not None)
        return bound

    def _partial_calls_in(self, calls: list[ast.AST]) -> list[ast.Call]:
        """The calls `functools.partial(NAME, ...)` among these, in their order (under any alias of the module)."""
        scopes = self.scopes
        return [c for c in calls if _first_argument_a_name(c)  # type: ignore[misc]
                and scopes.qualname(c.func, scopes.enclosing_function(c)) == "functools.partial"]  # type: ignore[attr-defined]

    def untaken_in_traces(self, node: ast.AST, fn: FunctionInfo) -> bool:
        """Whether `node`, in `fn`'s own code, sits in a branch no trace of `fn` takes. `fn` is traced only as a
        helper its traced callers call by name (no transformation of its own), every other use of its name is a
        call too (eager ones run it on values: only traced runs are asked about), and the branch's test reads
        only parameters the function never rebinds, which each traced call gives a literal or leaves at a
        literal default, deciding the test the same way for every call: jaxincell's
        `energy_gamma_from_output(out, for_jit=True)` under `jax.jit` never runs its `if not for_jit:` prints."""
        if isinstance(fn.node, ast.Lambda) or not fn.traces:
            return False
        branches: list[tuple[ast.expr, bool]] = []  # (test, whether node is in the branch taken when it is true)
        child, cur = node, self.scopes.parents.get(node)
        while cur is not None and cur is not fn.node:
            if isinstance(cur, ast.If) and child is not cur.test:
                branches.append((cur.test, child in cur.body))
            elif isinstance(cur, ast.IfExp) and child is not cur.test:
                branches.append((cur.test, child is cur.body))
            elif isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                return False  # code of a function defined inside: its parameters are its own
            child, cur = cur, self.scopes.parents.get(cur)
        if cur is None or not branches:
            return False
        rebound = {n.id for n in self.scopes.own_nodes(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        if any(t.provenance is not Provenance.CALLED_FROM for t in fn.traces):
            return self._untaken_at_loop_sites(fn, branches, rebound)
        calls = [call for _, call in self.calls_from_traced(fn)]
        if not calls or not self._only_called(fn):
            return False
        for test, taken_when in branches:
            names = {n.id for n in walk_nodes(test) if isinstance(n, ast.Name)}
            if not names or not names <= set(fn.params) - rebound:
                continue
            truths = {_decided(test, values) if (values := _literal_arguments(fn, call, names)) is not None else None
                      for call in calls}
            if len(truths) == 1 and (truth := truths.pop()) is not None and truth != taken_when:
                return True
        return False

    def _untaken_at_loop_sites(self, fn: FunctionInfo, branches: list[tuple[ast.expr, bool]],
                               rebound: set[str]) -> bool:
        """`untaken_in_traces` for a function every trace of which is a `lax.while_loop`/`fori_loop`/`scan`/`map`
        body: the loop passes it a known number of arguments, so a parameter past them holds its literal default
        (qpax's `pdip_newton_step(inputs, verbose=False)` under `lax.while_loop(cond, pdip_newton_step, init)`
        never prints); and a name of the function that defines it and holds the loop keeps, inside, what the
        branches around the loop say of it (`if verbose: <Python loop> else: lax.while_loop(cond, step, init)`:
        `step`'s `if verbose:` is not taken in that trace). A name either function binds again decides nothing."""
        for test, taken_when in branches:
            names = {n.id for n in walk_nodes(test) if isinstance(n, ast.Name)}
            if not names or names & rebound:
                continue
            if all(self._decided_at_loop(fn, site, test, names) is (not taken_when) for site in fn.traces):
                return True
        return False

    def _decided_at_loop(self, fn: FunctionInfo, site: TraceSite, test: ast.expr, names: set[str]) -> bool | None:
        call = site.node
        if site.provenance is not Provenance.LAX_BODY or not isinstance(call, ast.Call):
            return None
        node = fn.node
        assert not isinstance(node, ast.Lambda)
        values: dict[str, object] = {}
        arity = _LOOP_BODY_ARITY.get(site.transform)
        passed_by_name = any(self.scopes.resolve_function(a, self.scopes.enclosing_function(call)) is fn
                             for a in [*call.args, *(kw.value for kw in call.keywords)])
        if arity is not None and passed_by_name and not (node.args.vararg or node.args.kwarg):
            positional = [*node.args.posonlyargs, *node.args.args]
            defaults = dict(zip([p.arg for p in positional][::-1], node.args.defaults[::-1], strict=False))
            defaults.update({p.arg: d for p, d in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True)
                             if d is not None})
            for index, param in enumerate([*positional, *node.args.kwonlyargs]):
                default = defaults.get(param.arg)
                if (index >= arity or param in node.args.kwonlyargs) and isinstance(default, ast.Constant):
                    values[param.arg] = default.value
        facts: dict[str, bool] = {}
        outer = fn.parent
        free = names - set(fn.params)
        if free and outer is not None and self.scopes.enclosing_function(call) is outer:
            bound = Counter(n.id for n in self.scopes.own_nodes(outer)
                            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
            if all(bound[name] + (name in outer.params) <= 1 for name in free):
                facts = _branch_facts(call, outer.node, self.scopes.parents)
        return _decided_with(test, values, facts)

    def _only_called(self, fn: FunctionInfo) -> bool:
        """Every use of a module-level function's name in the module calls it (`f(...)`): it is never passed on,
        bound to another name or transformed, so the calls are all the ways it runs."""
        if fn.parent is not None or "." in fn.qualname or self.scopes.module_functions.get(fn.name) is not fn:
            return False
        if self._calls_only is None:
            used: dict[str, bool] = {}
            for name in self.scopes.nodes(ast.Name):
                assert isinstance(name, ast.Name)
                if name.id not in self.scopes.module_functions:
                    continue
                parent = self.scopes.parents.get(name)
                called = isinstance(parent, ast.Call) and parent.func is name and isinstance(name.ctx, ast.Load)
                used[name.id] = used.get(name.id, True) and called
            self._calls_only = used
        return self._calls_only.get(fn.name, True)

    def calls_from_traced(self, fn: FunctionInfo) -> list[tuple[FunctionInfo, ast.Call]]:
        """The calls of `fn` made from traced functions (caller, call): how a helper is reached."""
        return self._calls_from_traced.get(fn.qualname, [])

    def _transformed_names(self) -> dict[str, list[str]]:
        """Module-level `g = jax.jit(f, ...)`: f's name -> the names its transformed versions are bound to."""
        if self._transformed is None:
            self._transformed = {}
            for assign in self.scopes.tree.body:
                if (isinstance(assign, ast.Assign) and isinstance(assign.value, ast.Call) and assign.value.args
                        and isinstance(assign.value.args[0], ast.Name)
                        and self.transform_of(assign.value.func, None) is not None):
                    self._transformed.setdefault(assign.value.args[0].id, []).extend(
                        t.id for t in assign.targets if isinstance(t, ast.Name))
        return self._transformed

    def _calls_named(self, names: set[str], attribute: str | None) -> list[ast.Call]:
        """The calls `NAME(...)` for these names and `X.attribute(...)`, in the order of `nodes(ast.Call)`."""
        index = self._calls_by_callee
        if index is None:
            index = self._calls_by_callee = {}
            for part in self._callee_indexes():  # in the order of nodes(ast.Call)
                for key, calls in part.items():
                    index.setdefault(key, []).extend(calls)
        lists = [index[key] for key in [*(("", name) for name in names), *((".", attribute),) * (attribute is not None)]
                 if key in index]
        if len(lists) <= 1:
            return list(lists[0]) if lists else []
        if self._call_positions is None:
            self._call_positions = {id(call): i for i, call in enumerate(self.scopes.nodes(ast.Call))}
        positions = self._call_positions
        return sorted((call for calls in lists for call in calls), key=lambda call: positions[id(call)])

    def _callee_indexes(self) -> list[dict[tuple[str, str], list[ast.Call]]]:
        """The calls `NAME(...)` by ("", NAME) and `X.attr(...)` by (".", attr), one index per top-level statement
        (the whole module when walks are not reused), in the order of `nodes(ast.Call)`."""
        return self.scopes.per_statement("calls by callee", ast.Call, _callee_index)  # type: ignore[arg-type]

    # ---- traced contexts -------------------------------------------------------------------------------

    def pallas_kernels(self) -> set[int]:
        """ids of the functions passed as kernels to `pl.pallas_call` and its variants (`plgpu.kernel`,
        `pl.run_scoped`, `emit_pipeline`, `pl.core_map`; directly or through `functools.partial`): their
        parameters are references to memory, which the kernel reads and stores through `ref[...]`."""
        if self._pallas_kernels is None:
            self._pallas_kernels = {id(target) for target, _, _, _ in self._pallas_kernel_sites()}
        return self._pallas_kernels

    def _pallas_kernel_sites(self) -> list[tuple[FunctionInfo, ast.Call, int, tuple[str, ...]]]:
        """Each kernel passed to a Pallas entry point: (the kernel, the call, how many leading positional
        parameters `functools.partial` binds, the parameters it binds by keyword)."""
        sites: list[tuple[FunctionInfo, ast.Call, int, tuple[str, ...]]] = []
        for node in self._candidates("pallas kernel calls", _names_a_kernel_taker):
            assert isinstance(node, ast.Call)
            scope = self.scopes.enclosing_function(node)
            q = self.scopes.qualname(node.func, scope) or ""
            if not q.startswith("jax.experimental.pallas") or q.rsplit(".", 1)[1] not in _KERNEL_TAKERS:
                continue
            arg: ast.AST | None = node.args[0] if node.args else next(
                (kw.value for kw in node.keywords if kw.arg in ("kernel", "body", "f")), None)
            bound_positional = 0
            bound_keywords: tuple[str, ...] = ()
            if isinstance(arg, ast.Name) and isinstance(partial_call := self.bound_once(arg.id, scope), ast.Call) and (
                    self.scopes.qualname(partial_call.func, scope) == "functools.partial"):
                arg = partial_call  # `call = partial(kernel, rows=2)`, then `pl.pallas_call(call, ...)` (flywheel-tpu)
            if isinstance(arg, ast.Call) and self.scopes.qualname(arg.func, scope) == "functools.partial" and arg.args:
                bound_positional = len(arg.args) - 1
                bound_keywords = tuple(kw.arg for kw in arg.keywords if kw.arg is not None)
                for kw in arg.keywords:  # `partial(kernel, **opts)`, `opts = {"trans_rhs": trans_rhs}`: its keys
                    spelled = self.bound_once(kw.value.id, scope) if (
                        kw.arg is None and isinstance(kw.value, ast.Name)) else None
                    if isinstance(spelled, ast.Dict) and all(
                            isinstance(k, ast.Constant) and isinstance(k.value, str) for k in spelled.keys):
                        bound_keywords += tuple(k.value for k in spelled.keys)  # type: ignore[union-attr]
                arg = arg.args[0]
            target = self.scopes.resolve_function(arg, scope) if arg is not None else None
            if target is not None:
                sites.append((target, node, bound_positional, bound_keywords))
        return sites

    def transform_of(self, expr: ast.AST, scope: FunctionInfo | None) -> TraceSite | None:
        """If `expr` (a decorator, or the callee of a call) is a JAX transformation, describe it."""
        keywords: list[ast.keyword] = []
        if isinstance(expr, ast.Call):
            q = self.scopes.qualname(expr.func, scope)
            if q == "functools.partial" and expr.args:
                inner = self.transform_of(expr.args[0], scope)
                if inner is None:
                    return None
                return _with_static(inner, expr.keywords)
            if q in TRANSFORMS:  # e.g. @jax.jit(static_argnames=...) or @jax.checkpoint(policy=...)
                return _with_static(TraceSite(q, node=expr), expr.keywords)
            return None
        q = self.scopes.qualname(expr, scope)
        if q in TRANSFORMS:
            return _with_static(TraceSite(q, node=expr), keywords)
        return None

    def _with_outer_statics(self, site: TraceSite, node: ast.Call, scope: FunctionInfo | None) -> TraceSite:
        """The site of `jax.value_and_grad(f)` in `jax.jit(jax.value_and_grad(f), static_argnames="joint")`, with
        the static arguments of the transformations around it. A differentiating transformation (and `checkpoint`)
        keeps `f`'s signature (functools.wraps, which jit reads to place `static_argnames`) and passes the arguments
        it does not differentiate on as the caller gave them, so the outer jit's static arguments reach `f` as
        Python values (checked on jax 0.10.2: `if joint:` in `f` traces, and raises TracerBoolConversionError
        without `static_argnames`). Climbs only through such transformations: a `vmap` between maps its arguments."""
        inner: ast.expr = node
        transform = site.transform
        while transform in _SIGNATURE_KEEPING:
            parent = self.scopes.parents.get(inner)
            if not (isinstance(parent, ast.Call) and parent.args and parent.args[0] is inner):
                break
            outer = self.transform_of(parent.func, scope)
            if outer is None:
                break
            outer = _with_static(outer, parent.keywords)
            site = dataclasses.replace(site, static_argnums=site.static_argnums + outer.static_argnums,
                                       static_argnames=site.static_argnames + outer.static_argnames,
                                       statics_unknown=site.statics_unknown or outer.statics_unknown)
            inner, transform = parent, outer.transform
        return site

    def _find_traced(self) -> None:
        functions = self.scopes.functions
        registrations: list[tuple[FunctionInfo, ast.expr]] = []  # decorators that may register a custom rule
        statements = self._statements()
        decorated = statements is not None and not any(statement.ordered for statement in statements)
        if decorated:
            # each function's transformation decorators, and nothing else: the sites go to the functions they
            # decorate, in the order of their decorators, which is all the loop below does then
            for statement in statements:  # type: ignore[union-attr]
                for decorated_node, decorator_sites in statement.decorated:
                    functions[decorated_node].traces.extend(decorator_sites)
        for info in () if decorated else list(functions.values()):
            if isinstance(info.node, ast.Lambda):
                continue
            for deco in info.node.decorator_list:
                if isinstance(deco, ast.Attribute) and deco.attr in _RULE_REGISTRARS:
                    registrations.append((info, deco))  # (see _custom_rules)
                # what a decorator applies follows from it and the imports (names local to the function around it
                # are its statement's): kept per decorator node across versions. The site is shared by the
                # versions that keep the node, and is never changed after this (its `node` is the decorator)
                site = self.scopes.imports_fact("decorator trace site", deco, self.transform_of, deco, info.parent)
                if site is not None:
                    site.node = deco
                    below = info.node.decorator_list[info.node.decorator_list.index(deco) + 1:]
                    if not any(self._runs_on_host(inner, info.parent) for inner in below):
                        info.traces.append(site)
                    # `@jax.jit` over `@log_calls("step")`: jit traces what the decorators below it return, the
                    # wrapper a decorator (or a decorator factory's decorator) of this module defines and returns
                    for inner in below:
                        wrapper = self.decorator_wrapper(inner, info.parent)
                        if wrapper is not None and wrapper is not info:
                            wrapper.traces.append(dataclasses.replace(site))
        calls = self._calls = [s.calls for s in statements] if statements is not None else self._call_index()
        # the transformations applied by calls, and the lax bodies, and the functions `jax.jit(jax.grad(f))`
        # traces abstractly: kept per top-level statement (`_kept`)
        nested: list[tuple[str, FunctionNode]] = []
        for call_sites, nested_here in self._statement_parts(calls):
            for transformed, call_site in call_sites:
                functions[transformed].traces.append(call_site)
            nested.extend(nested_here)
        # A Pallas kernel is traced like a jitted function (jax 0.10.2, also with `interpret=True`: `if` on a value
        # read from a ref raises TracerBoolConversionError, `print` shows `JitTracer(float32[8])`): its parameters
        # are refs, but what `functools.partial` binds, and every keyword-only parameter, is a Python value.
        kernel_sites = self._pallas_kernel_sites()
        self._pallas_kernels = {id(target) for target, _, _, _ in kernel_sites}  # (as pallas_kernels finds them)
        for target, node, bound_positional, bound_keywords in kernel_sites:
            if isinstance(target.node, ast.Lambda) or self.scopes.never_runs(node):
                continue
            keyword_only = tuple(p.arg for p in target.node.args.kwonlyargs)
            target.traces.append(TraceSite(PALLAS_KERNEL, static_argnums=tuple(range(bound_positional)),
                                           static_argnames=(*keyword_only, *bound_keywords), node=node))
        rules = self._custom_rules(registrations)
        groups: dict[int, list[FunctionInfo]] = {}
        for primal, rule, rule_site, _registration in rules:
            rule.traces.append(rule_site)
            groups.setdefault(id(primal), [primal]).append(rule)
        self._rule_groups = {id(f): tuple(g) for g in groups.values() for f in g}
        self._residual_sources = {}
        for _primal, rule, rule_site, registration in rules:
            if (isinstance(registration, ast.Call) and isinstance(registration.func, ast.Attribute)
                    and registration.func.attr == "defvjp" and len(registration.args) >= 2
                    and not rule_site.statics_unknown):
                scope = self.scopes.enclosing_function(registration)
                fwd = self.scopes.resolve_function(registration.args[0], scope)
                if fwd is not None and rule is self.scopes.resolve_function(registration.args[1], scope):
                    self._residual_sources[id(rule)] = (fwd, len(rule_site.static_argnums))
        host = self._host_callbacks(calls)
        self._optax_hooked = set()
        # Nested definitions inside traced functions, and helpers they call, run under the same trace (host
        # callbacks excepted: they run later, on the host, with concrete values). What each function's own code
        # reaches is kept per function (`_reaches`); which of them are traced, and why, is found here each version.
        work = [f for f in functions.values() if f.traces]
        seen = {id(f) for f in work}
        edges: list[tuple[FunctionInfo, FunctionInfo]] = []
        while work:
            fn = work.pop()
            for child, reached, how, hooks in self._kept("reaches", fn.node, self._reaches, fn):
                if hooks is not None:
                    # `opt.update(grads, state)` of an optax optimizer built here: it calls the schedule or the
                    # `update_fn` it was given, inside this trace
                    for hook_node in hooks:
                        hook = functions[hook_node]
                        self._optax_hooked.add(id(hook))
                        if hook is not fn and id(hook) not in host:
                            edges.append((fn, hook))
                            if id(hook) not in seen:
                                if not hook.traces:
                                    hook.traces.append(TraceSite("", node=child, provenance=Provenance.CALLED_FROM,
                                                                 via=fn.name))
                                seen.add(id(hook))
                                work.append(hook)
                    continue
                callee = functions[reached]  # type: ignore[index]
                if how is Provenance.CALLED_FROM:
                    self._calls_from_traced.setdefault(callee.qualname, []).append((fn, child))  # type: ignore[arg-type]
                if callee is fn or id(callee) in host:
                    continue
                edges.append((fn, callee))
                if id(callee) not in seen:
                    if not callee.traces:
                        callee.traces.append(TraceSite("", node=child, provenance=how, via=fn.name))
                    seen.add(id(callee))
                    work.append(callee)
        # a custom rule runs whenever its function is differentiated, under the same trace (abstract under jit)
        edges.extend((primal, rule) for primal, rule, _, _ in rules)
        # (no trace site is added from here on: which functions are traced is fixed)
        traced = self._traced = [f for f in functions.values() if f.traces]
        own = [self._own_facts(info) for info in traced]
        for info, facts in zip(traced, own, strict=True):
            info.static_params, info.donated_params, info.compiled = facts.static, facts.donated, facts.compiled
        callees = _callees(edges)
        self._mark_abstract(callees, [(transform, functions[node]) for transform, node in nested], own)
        self._kernel_code = frozenset(_reached({id(f) for f, facts in zip(traced, own, strict=True) if facts.kernel},
                                               callees))
        # helpers and nested functions of compiled code are compiled too
        compiled = _reached({id(info) for info in traced if info.compiled}, callees)
        for _, callee in edges:
            if id(callee) in compiled:
                callee.compiled = True

    def _transformed_by(self, calls: tuple[ast.Call, ...]) -> list[tuple[FunctionNode, TraceSite]]:
        """The functions these calls (a top-level statement's `_CallIndex.transforms`) transform or pass as lax
        bodies, each with its trace site, in order: (the function's node, the site)."""
        found: list[tuple[FunctionNode, TraceSite]] = []
        for node in calls:
            if self._under_disable_jit(node):
                continue  # `with jax.disable_jit():` runs the transformation eagerly: its function sees values
            if self._never_runs(node):
                continue  # `if "jax" in np.__name__: jax.vmap(f)` with np = NumPy: nothing is transformed there
            scope = self.scopes.enclosing_function(node)
            site = self.transform_of(node.func, scope)
            if site is not None and self._alias_nothing_calls(node):
                continue
            if site is not None and node.args:
                target = self._resolve(node.args[0], scope)
                applied = None if target is not None else self.framework_apply(node.args[0], scope)
                if applied is not None:
                    target = applied[0]
                bound = target is None and (target := self.bound_method(node.args[0], scope)) is not None
                shift = 0
                if target is None and (partial_of := self._partial_of_function(node.args[0], scope)) is not None:
                    # jax.jit(partial(f, cap=1.0)) / jax.vmap(partial(f, w)): the transformation calls `f` with the
                    # partial's arguments first; those stay the Python values (or concrete arrays) bound there
                    # (passed_through_params), the others are traced (checked on jax 0.10.2: `if x.sum() > cap:`
                    # in `f` raises TracerBoolConversionError under both)
                    target, shift = partial_of
                    if self._partial_binds_unknown_names(node.args[0], scope):
                        # partial(f, **params): which of f's parameters are bound (Python values, not traced) is
                        # not known here (quadax binds a primitive's static parameters so before `jax.vmap`)
                        site = dataclasses.replace(site, statics_unknown=True)
                if target is not None and not isinstance(target.node, ast.Lambda) and any(
                        self._runs_on_host(d, target.parent) for d in target.node.decorator_list):
                    continue  # `jax.grad(f)` of a function a decorator runs as a host callback: its wrapper is traced
                if target is not None:
                    site = self._with_outer_statics(_with_static(site, node.keywords), node, scope)
                    if applied is not None and applied[1] == "haiku":
                        site = _foreign_positions(site)
                    if bound:
                        site = _past_self(site)  # jax.jit(self.m, static_argnums=0): 0 is m's first after self
                    if shift:
                        site = _shifted(site, shift)  # jax.vmap(partial(f, w), in_axes=(0,)): 0 is f's second
                    site.node = node
                    found.append((target.node, site))
                continue
            q = self.scopes.qualname(node.func, scope)
            if q in LAX_BODIES:
                bodies = [node.args[i] for i in LAX_BODIES[q] if i < len(node.args)]
                bodies += [kw.value for kw in node.keywords if kw.arg in LAX_BODY_KEYWORDS]
                for body in bodies:
                    elts = body.elts if isinstance(body, (ast.List, ast.Tuple)) else [body]
                    for elt in elts:
                        if (isinstance(elt, ast.Call) and len(elt.args) == 1 and self.scopes.qualname(
                                elt.func, scope) == "functools.partial"):
                            elt = elt.args[0]  # partial(body, n=n): the body, its keywords bound (passed through)
                        target = self._resolve(elt, scope) or self.bound_method(elt, scope)
                        if target is not None:
                            found.append((target.node, TraceSite(q.rsplit('.', 1)[1], node=node,
                                                                 provenance=Provenance.LAX_BODY)))
        return found

    def _reaches(self, fn: FunctionInfo) -> list[tuple[ast.AST, FunctionNode | None, Provenance, tuple[FunctionNode, ...] | None]]:
        """What `fn`'s own code reaches, in order: (the definition or call, the function it defines or calls,
        DEFINED_INSIDE or CALLED_FROM, None), or for `opt.update(...)` of an optax optimizer (the call, None,
        CALLED_FROM, the functions the optimizer calls from its update)."""
        found: list[tuple[ast.AST, FunctionNode | None, Provenance, tuple[FunctionNode, ...] | None]] = []
        for child in self.scopes.own_candidates("definitions and calls by name", fn, _defines_or_calls_a_name):
            callee: FunctionInfo | None = None
            how = Provenance.DEFINED_INSIDE
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                callee = self.scopes.functions.get(child)
            elif isinstance(child, ast.Call) and isinstance(child.func, ast.Name):
                callee = self._resolve(child.func, fn) or self.called_instance(child.func.id, fn)
                how = Provenance.CALLED_FROM
            elif isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute) and child.func.attr == "update":
                hooks = tuple(hook.node for hook in self._optax_hooks(child.func.value, fn))
                found.append((child, None, Provenance.CALLED_FROM, hooks))
                continue
            elif isinstance(child, ast.Call) and all(k.arg not in ("method", None) for k in child.keywords):
                # `model.apply(variables, x)` of a linen module: its `__call__`, whose parameters after self
                # line up with apply's arguments after the variables (a Haiku apply's do not: left out)
                applied = self.framework_apply(child.func, fn)
                callee = applied[0] if applied is not None and applied[1] == "linen" else None
                how = Provenance.CALLED_FROM
            if callee is not None:
                found.append((child, callee.node, how, None))
        return found

    def _own_facts(self, info: FunctionInfo) -> _OwnFacts:
        """What follows from a traced function's node and its trace sites alone (_OwnFacts): kept per function
        node while its sites are equal (the sets are shared by the versions that keep them, and never changed).
        (The function that runs a site's transformation is the one its node is in, which the node being the same
        object, as equal sites' nodes are, keeps.)"""
        memory = self._memory
        kept = memory.own.get(id(info.node)) if memory is not None else None
        if kept is not None and kept[0] is info.node and kept[1] == info.traces:
            memory.own_now[id(info.node)] = kept  # type: ignore[union-attr]
            return kept[2]
        direct = [t for t in info.traces if not t.indirect]
        runners: list[FunctionNode] = []
        for site in direct:
            runner = self.scopes.enclosing_function(site.node) if site.node is not None else None
            if runner is not None and runner is not info:
                runners.append(runner.node)
        found = _OwnFacts(
            self._static_params(info), self._donated_params(info),
            any(t.transform not in NOT_COMPILED for t in direct), any(t.transform == PALLAS_KERNEL for t in info.traces),
            any(t.transform not in _CONCRETE_UNLESS_SHARDED for t in direct),
            any(t.transform not in CONCRETE_TRANSFORMS for t in direct), tuple(runners))
        if memory is not None:
            memory.own_now[id(info.node)] = (info.node, list(info.traces), found)
        return found

    def _module_key(self) -> tuple[object, ...]:
        """What every kept part may read of the module besides its own top-level statement and the questions it
        notes (TracedParts): the imports (what names refer to), the top-level statements that may end the module
        (code after a module-level `sys.exit()` or `raise` never runs: `never_runs`), and whether the module is
        private (`_alias_nothing_calls`)."""
        return (frozenset(self.scopes.aliases.items()),
                tuple(s for s in self.scopes.tree.body if type(s) in _MAY_END_THE_MODULE),
                self.project is not None and self.project.private())

    def _kept(self, what: str, node: ast.AST, compute: Callable[..., T], *args: object) -> T:
        """`compute(*args)`, a part of finding what is traced that follows from the top-level statement holding
        `node`, the module key and the questions it notes (`_reads`): the last version's answer when the node is
        the same and every question gets the same answer again (TracedParts)."""
        memory = self._memory
        if memory is None:
            return compute(*args)
        assert self._reads is None  # (a part asks no other part: what it asks is noted once, for itself)
        key = (what, id(node))
        kept = memory.last.get(key)
        if kept is not None and kept[0] is node and (not kept[1] or self._same_answers(kept[1])):
            memory.now[key] = kept
            memory.reused += 1
            return kept[2]  # type: ignore[return-value]
        reads: list[tuple[object, ...]] = []
        self._reads = reads
        try:
            value = compute(*args)
        finally:
            self._reads = None
        memory.now[key] = (node, reads, value)
        memory.run += 1
        return value

    def _same_answers(self, reads: list[tuple[object, ...]]) -> bool:
        """Asks the noted questions again, in order, and stops at the first answer that differs. Each one asked is
        one the work, done again, would ask at this point (the earlier answers being the same)."""
        scopes = self.scopes
        for read in reads:
            what = read[0]
            answer: object
            if what is _FUNCTION:
                fn = scopes.module_functions.get(read[1])  # type: ignore[call-overload]
                answer = fn.node if fn is not None else None
            elif what is _CONSTANT:
                answer = scopes.module_constant(read[1])  # type: ignore[arg-type]
            elif what is _METHOD:
                fn = self._method(read[1])  # type: ignore[arg-type]
                answer = fn.node if fn is not None else None
            elif what is _CLASS:
                answer = scopes.module_classes().get(read[1])  # type: ignore[call-overload]
            elif what is _ARGUMENTS:
                fn = scopes.functions.get(read[1])  # type: ignore[call-overload]
                answer = tuple(self.argument_values(fn, read[2])) if fn is not None else None  # type: ignore[arg-type]
            elif what is _NEVER_RUNS:
                answer = scopes.never_runs(read[1])  # type: ignore[arg-type]
            else:
                answer = self._alias_nothing_calls(read[1])  # type: ignore[arg-type]
            if answer != read[-1]:
                return False
        return True

    def _statement_parts(self, calls: list[_CallIndex]) -> list[_Transformations]:
        """`_transformations_in` of each top-level statement's calls, in the order of `nodes(ast.Call)`, kept per
        statement (`_kept`); one part for the whole module when walks are not kept."""
        if self._memory is None:
            return [self._transformations_in(index) for index in calls]
        statements = self.scopes.tree.body[::-1]  # (the order of Scopes.per_statement's parts)
        return [self._kept("transformations", statement, self._transformations_in, index)
                if index.transforms else _NO_TRANSFORMATIONS  # (`nested` is some of `transforms`)
                for statement, index in zip(statements, calls, strict=True)]

    def _transformations_in(self, calls: _CallIndex) -> _Transformations:
        """What the calls of part of the module transform: `_transformed_by` and `_nested_in`."""
        return self._transformed_by(calls.transforms), self._nested_in(calls.nested)

    def _statements(self) -> list[_Statement] | None:
        """What this class looks at in each top-level statement (`_statement_of`), in the order of
        `nodes(ast.Call)` (statements last to first), kept per statement while the imports are the same
        (analysis/reuse.py: StatementParts, SyntaxFacts); None when walks are not kept."""
        reusable = self.scopes.reusable
        if reusable is None:
            return None
        imports_fact, statement_of = self.scopes.imports_fact, self._statement_of
        statements: list[_Statement] = reusable.parts.parts(  # type: ignore[assignment]
            "traced code of a statement", self.scopes.tree.body[::-1],
            lambda statement: imports_fact("traced code of a statement", statement, statement_of, statement),
            self._module[0])  # type: ignore[index]
        # the calls `_candidates` answers from them, each kind in the order of nodes(ast.Call)
        candidates: dict[str, list[ast.Call]] = {"pallas kernel calls": [], "custom rule registrations": [],
                                                 "partial of a host callback": []}
        for statement in statements:
            if statement.kernel_calls:
                candidates["pallas kernel calls"].extend(statement.kernel_calls)
            if statement.registrations:
                candidates["custom rule registrations"].extend(statement.registrations)
            if statement.callback_partials:
                candidates["partial of a host callback"].extend(statement.callback_partials)
        self._candidate_calls = candidates
        return statements

    def _statement_of(self, statement: ast.stmt) -> _Statement:
        """What this class looks at in a top-level statement: its calls (`_CallIndex`), those `_candidates`
        filters, and its transformation decorators (`_decorations_of`). Follows from the statement and the
        imports."""
        calls: list[ast.Call] = self.scopes.statement_nodes(statement, ast.Call)  # type: ignore[assignment]
        decorated, ordered = self._decorations_of(statement)
        return _Statement(_CallIndex.of(self, calls),  # type: ignore[arg-type]
                          tuple(c for c in calls if _names_a_kernel_taker(c)),
                          tuple(c for c in calls if _registers_a_rule(c)),
                          tuple(c for c in calls if _partial_of_a_callback_name(c)), decorated, ordered)

    def _candidates(self, what: str, keep: Callable[[ast.AST], bool]) -> list[ast.AST]:
        """`Scopes.candidates(what, (ast.Call,), keep)`: from `_statements` when it found them (the same calls, in
        the same order: no top-level statement is a call)."""
        found = self._candidate_calls.get(what) if self._candidate_calls is not None else None
        return found if found is not None else self.scopes.candidates(what, (ast.Call,), keep)  # type: ignore[return-value]

    def _decorations_of(self, statement: ast.stmt) -> _Decorated:
        """The functions defined in a top-level statement that transformation decorators trace (`@jax.jit`), each
        with the sites of its decorators in their order; and whether a decorator of the statement may register a
        custom rule or has decorators below it: its effects then reach other functions, in the order of
        `functions`, which only `_find_traced`'s loop over every function keeps. Follows from the statement and the
        imports."""
        scopes = self.scopes
        nodes: list[ast.AST] = [statement] if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        nodes += scopes.statement_nodes(statement, ast.FunctionDef)
        nodes += scopes.statement_nodes(statement, ast.AsyncFunctionDef)
        found: list[tuple[FunctionNode, tuple[TraceSite, ...]]] = []
        ordered = False
        for node in nodes:
            decorators = node.decorator_list  # type: ignore[attr-defined]
            if not decorators:
                continue
            parent = scopes.functions[node].parent  # type: ignore[index]
            sites: list[TraceSite] = []
            for i, deco in enumerate(decorators):
                if isinstance(deco, ast.Attribute) and deco.attr in _RULE_REGISTRARS:
                    ordered = True
                site = scopes.imports_fact("decorator trace site", deco, self.transform_of, deco, parent)
                if site is not None:
                    site.node = deco  # (as the loop over every function sets it)
                    ordered = ordered or i + 1 < len(decorators)
                    sites.append(site)
            if sites:
                found.append((node, tuple(sites)))  # type: ignore[arg-type]
        return tuple(found), ordered

    def _runs_on_host(self, deco: ast.expr, scope: FunctionInfo | None) -> bool:
        """`deco` is a decorator of this module that hands the function it decorates only to a host callback
        (`jax.pure_callback(lambda *a: func(*a), shape, *args)` in its wrapper, round 36's finitediffx): the
        function runs on the host with concrete NumPy arrays, never under the trace of what calls the wrapper
        (checked on jax 0.10.2: `onp.power(x, 2)` in it works under `jax.jit`)."""
        if isinstance(deco, ast.Call):
            return False
        fn = self._resolve(deco, scope)
        if fn is None or isinstance(fn.node, ast.Lambda) or not fn.params or self.decorator_wrapper(deco, scope) is None:
            return False
        param = fn.params[0]
        loads = [n for n in walk_nodes(fn.node) if isinstance(n, ast.Name) and n.id == param
                 and isinstance(n.ctx, ast.Load)]
        return bool(loads) and all(self._inside_host_callback(n, fn.node) or self._copies_metadata(n) for n in loads)

    def _copies_metadata(self, node: ast.AST) -> bool:
        """`node` is the function `functools.wraps(...)`/`update_wrapper` reads the name and docstring of."""
        call = self.scopes.parents.get(node)
        return isinstance(call, ast.Call) and (self.scopes.qualname(call.func, self.scopes.enclosing_function(call))
                                               in ("functools.wraps", "functools.update_wrapper"))

    def _inside_host_callback(self, node: ast.AST, top: ast.AST) -> bool:
        """`node` is (inside) the function argument of a host callback call below `top`, or inside a lambda bound
        to a name that is (`func_ = lambda *a: func(*a).astype(...)`, then `jax.pure_callback(func_, ...)`)."""
        child, cur = node, self.scopes.parents.get(node)
        while cur is not None and cur is not top:
            if isinstance(cur, ast.Call) and self._callback_argument(cur) is child:
                return True
            if (isinstance(child, ast.Lambda) and isinstance(cur, ast.Assign) and cur.value is child
                    and len(cur.targets) == 1 and isinstance(cur.targets[0], ast.Name)):
                name = cur.targets[0].id
                given = [n for n in walk_nodes(top) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
                return bool(given) and all(isinstance(call := self.scopes.parents.get(n), ast.Call)
                                           and self._callback_argument(call) is n for n in given)
            child, cur = cur, self.scopes.parents.get(cur)
        return False

    def _callback_argument(self, call: ast.Call) -> ast.AST | None:
        """The function argument of a host callback call (None for any other call)."""
        position = HOST_CALLBACKS.get(self.scopes.qualname(call.func, self.scopes.enclosing_function(call)) or "")
        return call.args[position] if position is not None and position < len(call.args) else None

    def decorator_wrapper(self, deco: ast.expr, scope: FunctionInfo | None) -> FunctionInfo | None:
        """The function a decorator of this module returns in place of the one it decorates: `deco` whose every
        `return` hands back the same `def wrapper` of its own body (`@deco`), or, for a factory (`@log_calls(tag)`),
        the wrapper of the decorator the factory returns so. None where a return hands back anything else (the
        function itself: a registry)."""
        def returned_def(fn: FunctionInfo | None) -> FunctionInfo | None:
            if fn is None or isinstance(fn.node, ast.Lambda):
                return None
            returns = [n.value for n in self.scopes.own_nodes(fn) if isinstance(n, ast.Return)]
            names = {r.id for r in returns if isinstance(r, ast.Name)}
            if not returns or len(names) != 1 or not all(isinstance(r, ast.Name) for r in returns):
                return None
            name = names.pop()
            defs = [n for n in fn.node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
            stores = [n for n in self.scopes.own_nodes(fn) if isinstance(n, ast.Name) and n.id == name
                      and not isinstance(n.ctx, ast.Load)]
            return self.scopes.functions.get(defs[0]) if len(defs) == 1 and not stores else None

        if isinstance(deco, ast.Call):
            return returned_def(returned_def(self._resolve(deco.func, scope)))
        return returned_def(self._resolve(deco, scope))

    def _custom_rules(self, registrations: list[tuple[FunctionInfo, ast.expr]],
                      ) -> list[tuple[FunctionInfo, FunctionInfo, TraceSite, ast.AST]]:
        """The rules of `jax.custom_vjp`/`custom_jvp` functions of the module: `f.defvjp(fwd, bwd)`,
        `f.defjvp(jvp)` and `@f.defjvp def jvp(...)`, as (f, rule, the rule's trace site, the registering node).
        JAX calls them whenever `f` is differentiated, on the values `f` sees there: concrete under `jax.grad`
        alone, tracers without values under `jit` (checked on jax 0.10.2: `if n > 0` in a bwd rule raises
        TracerBoolConversionError under `jax.jit(jax.grad(f))`, and runs under `jax.grad(f)`). `nondiff_argnums`
        arrive as Python values: in their own positions in `fwd`, first in `jvp` and `bwd`. `registrations`: the
        decorators `@NAME.defjvp`-like (`_RULE_REGISTRARS`), with the functions they decorate, in the order of
        `functions`."""
        found: list[tuple[FunctionInfo, FunctionInfo, TraceSite, ast.AST]] = []

        def primal_of(expr: ast.AST, scope: FunctionInfo | None) -> tuple[FunctionInfo, TraceSite] | None:
            if not (isinstance(expr, ast.Attribute) and expr.attr in _RULE_REGISTRARS):
                return None
            primal = self.scopes.resolve_function(expr.value, scope)
            site = next((t for t in primal.traces if t.transform in _CUSTOM_DERIVATIVES), None) if (
                primal is not None) else None
            return (primal, site) if primal is not None and site is not None else None

        def rule_site(primal_site: TraceSite, node: ast.AST, leading: bool) -> TraceSite:
            nums = tuple(range(len(primal_site.static_argnums))) if leading else primal_site.static_argnums
            return TraceSite(primal_site.transform, static_argnums=nums, node=node,
                             statics_unknown=primal_site.statics_unknown or bool(primal_site.static_argnames))

        for node in self._candidates("custom rule registrations", _registers_a_rule):
            assert isinstance(node, ast.Call)
            scope = self.scopes.enclosing_function(node)
            registrar = primal_of(node.func, scope)
            if registrar is None:
                continue
            vjp = isinstance(node.func, ast.Attribute) and node.func.attr == "defvjp"
            for i, arg in enumerate(node.args):
                rule = self.scopes.resolve_function(arg, scope)
                if rule is not None and rule is not registrar[0]:
                    found.append((registrar[0], rule, rule_site(registrar[1], node, not (vjp and i == 0)), node))
        for info, deco in registrations:
            registrar = primal_of(deco, info.parent)
            if registrar is not None and registrar[0] is not info:
                found.append((registrar[0], info, rule_site(registrar[1], deco, True), deco))
        return found

    def optax_hooked(self, fn: FunctionInfo) -> bool:
        """Whether optax calls `fn` from an `update` that runs in traced code: a learning-rate schedule (called
        with the step count, an array of the optimizer's state) or the `update_fn` of a hand-written
        `GradientTransformation` (called with the updates and the state)."""
        return id(fn) in self._optax_hooked

    def _optax_hooks(self, expr: ast.AST, scope: FunctionInfo | None, depth: int = 0) -> list[FunctionInfo]:
        """The functions of this module that the optax optimizer `expr` calls from its `update`: `expr` a name
        bound once to `optax.<optimizer>(learning_rate=schedule)` (or the schedule first), `optax.scale_by_schedule(f)`,
        `optax.GradientTransformation(init_fn, update_fn)`, or an `optax.chain(...)` of such."""
        if isinstance(expr, ast.Name) and depth == 0:
            local = scope is not None and self.scopes.is_local(expr.id, scope)
            value = self.bound_once(expr.id, scope)
            return self._optax_hooks(value, scope if local else None, 1) if value is not None else []
        if not isinstance(expr, ast.Call) or depth > 8:
            return []
        q = self.scopes.qualname(expr.func, scope) or ""
        found: list[FunctionInfo] = []
        if not q.startswith("optax."):
            # a factory of this module (`def scale_by_inverse_norm(): ... return optax.GradientTransformation(init_fn,
            # update_fn)`): what its returns build, read in its own scope
            factory = self._resolve(expr.func, scope)
            if factory is None or isinstance(factory.node, ast.Lambda):
                return []
            for ret in self.scopes.own_nodes(factory):
                if isinstance(ret, ast.Return) and ret.value is not None:
                    value = ret.value
                    if isinstance(value, ast.Name) and self.scopes.is_local(value.id, factory):
                        value = self.bound_once(value.id, factory)  # type: ignore[assignment]
                    found += self._optax_hooks(value, factory, depth + 1) if value is not None else []
            return found
        if q in ("optax.chain", "optax.named_chain"):
            for arg in expr.args:
                found += self._optax_hooks(arg.elts[1] if q == "optax.named_chain" and isinstance(arg, ast.Tuple)
                                           and len(arg.elts) == 2 else arg, scope, depth + 1)
            return found
        if q in ("optax.GradientTransformation", "optax.GradientTransformationExtraArgs"):
            hooks = expr.args[1:2] + [k.value for k in expr.keywords if k.arg == "update"]
        else:
            hooks = expr.args[:1] + [k.value for k in expr.keywords
                                     if k.arg in ("learning_rate", "step_size_fn", "schedule")]
        for hook in hooks:
            target = self._resolve(hook, scope)
            if target is not None:
                found.append(target)
        return found

    def _partial_binds_unknown_names(self, expr: ast.AST, scope: FunctionInfo | None) -> bool:
        """`functools.partial(f, **params)` (directly, or through a name bound once to it): a `**` keyword binds
        parameters whose names the code does not spell."""
        if isinstance(expr, ast.Name):
            expr = self.bound_once(expr.id, scope)  # type: ignore[assignment]
        return isinstance(expr, ast.Call) and any(k.arg is None for k in expr.keywords)

    def _partial_of_function(self, expr: ast.AST, scope: FunctionInfo | None) -> tuple[FunctionInfo, int] | None:
        """`functools.partial(f, a, b=...)` of a function of this module: `f` and how many of its leading
        parameters the partial binds by position (none for `*args` in the partial, which hides the count). Also
        through a name bound once to such a partial (`p = partial(f, cap=1.0)` then `jax.jit(p)`)."""
        if isinstance(expr, ast.Name):
            value = self.bound_once(expr.id, scope)
            local = scope is not None and self.scopes.is_local(expr.id, scope)
            return self._partial_of_function(value, scope if local else None) if isinstance(value, ast.Call) else None
        if not (isinstance(expr, ast.Call) and expr.args and not any(isinstance(a, ast.Starred) for a in expr.args)
                and self.scopes.qualname(expr.func, scope) == "functools.partial"):
            return None
        target = self._resolve(expr.args[0], scope)
        if target is None or isinstance(target.node, ast.Lambda):
            return None
        return target, len(expr.args) - 1

    def bound_method(self, expr: ast.AST, scope: FunctionInfo | None) -> FunctionInfo | None:
        """`self.m` (or `cls.m`) read in a method of a class of this module, or in a function nested in one that
        does not bind `self` itself: the method `m` defined in the same class body, whose first parameter is `self`
        (`cls`). `jax.jit(self._step)` and `lax.scan(self._body, ...)` trace that method's body with `self`
        bound (a Python object, not an argument). None when the class has no such method (an attribute holding a
        callable, a method of a base class elsewhere)."""
        if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)
                and expr.value.id in ("self", "cls") and scope is not None):
            return None
        receiver = expr.value.id
        cur = scope
        while cur.parent is not None:
            if receiver in cur.params or receiver in cur.local_names:
                return None  # a nested function with its own `self`
            cur = cur.parent
        if "." not in cur.qualname or cur.params[:1] != [receiver]:
            return None
        target = self._method(f"{cur.qualname.rsplit('.', 1)[0]}.{expr.attr}")
        if target is None or isinstance(target.node, ast.Lambda) or target.params[:1] != [receiver] or any(
                _reads_as_a_value(d) for d in target.node.decorator_list):
            return None
        return target

    def called_instance(self, name: str, scope: FunctionInfo) -> FunctionInfo | None:
        """`name(...)` called in `scope`, `name` an object of a class of this module: the class's `__call__`, which
        runs right there (under the caller's trace when the caller is traced: an Equinox/NNX/Haiku module called
        inside a jitted step). The object is known when `name` is bound once in `scope` to `Cls(...)`, or is a
        parameter of `scope` to which every call site this module shows passes `Cls(...)` or a name bound once
        (in its own scope, or at module level) to `Cls(...)`, one class for all."""
        if isinstance(scope.node, ast.Lambda):
            return None
        if name in scope.params:
            values = self._arguments(scope, name)
        elif self.scopes.is_local(name, scope):
            bound = self.bound_once(name, scope)
            values = [bound] if bound is not None else []
        else:
            return None
        classes: set[str] = set()
        for passed in values:
            value = self.bound_once(passed.id, self.scopes.enclosing_function(passed)) if isinstance(
                passed, ast.Name) else passed
            if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                    and self._module_class(value.func.id) is not None):
                return None
            classes.add(value.func.id)
        if len(classes) != 1:
            return None
        target = self._method(f"{classes.pop()}.__call__")
        return target if target is not None and not isinstance(target.node, ast.Lambda) and target.params[:1] == [
            "self"] else None

    def framework_apply(self, expr: ast.AST, scope: FunctionInfo | None) -> tuple[FunctionInfo, str] | None:
        """`model.apply`, `model` bound once (in `scope` or at module level, `bound_once`) to what a framework's
        `apply` runs, with the framework's name:
        - "linen": `Cls(...)`, `Cls` a `flax.linen.Module` subclass of this module: its `__call__`. `apply(variables,
          *args)` hands `args` to `__call__(self, *args)`: the variables stand where `self` does, so positions line
          up (`self` itself is no array);
        - "haiku": `hk.transform(f)`, `hk.transform_with_state(f)` or `hk.without_apply_rng` of one: `f`, which
          gets the arguments after the parameters (and state, and key): positions do not line up.
        Either runs with tracers under `jax.jit(model.apply)` or inside a jitted step."""
        if not (isinstance(expr, ast.Attribute) and expr.attr == "apply" and isinstance(expr.value, ast.Name)):
            return None
        value = self.bound_once(expr.value.id, scope)
        if not (isinstance(value, ast.Call) and (value.args or isinstance(value.func, ast.Name))):
            return None
        if isinstance(value.func, ast.Name) and (cls := self._module_class(value.func.id)) is not None:
            if not any(self.scopes.qualname(b) == "flax.linen.Module" for b in cls.bases):
                return None
            target = self._method(f"{cls.name}.__call__")
            return (target, "linen") if target is not None and target.params[:1] == ["self"] else None
        while isinstance(value, ast.Call) and value.args and self.scopes.qualname(value.func, scope) == (
                "haiku.without_apply_rng"):
            value = value.args[0]
        if not (isinstance(value, ast.Call) and value.args and self.scopes.qualname(value.func, scope) in HAIKU_TRANSFORMS):
            return None
        target = self._resolve(value.args[0], scope)
        return (target, "haiku") if target is not None else None

    def _method(self, qualname: str) -> FunctionInfo | None:
        """A method of a top-level class of this module, by "Class.method"."""
        if self._methods is None:
            self._methods = {f.qualname: f for f in self.scopes.functions.values()
                             if f.parent is None and "." in f.qualname}
        found = self._methods.get(qualname)
        if self._reads is not None:
            self._reads.append((_METHOD, qualname, found.node if found is not None else None))
        return found

    def _module_class(self, name: str) -> ast.ClassDef | None:
        """The module's top-level class of this name (`Scopes.module_classes`)."""
        found = self.scopes.module_classes().get(name)
        if self._reads is not None:
            self._reads.append((_CLASS, name, found))
        return found

    def _resolve(self, expr: ast.AST, scope: FunctionInfo | None) -> FunctionInfo | None:
        """`Scopes.resolve_function`. What it reads outside the top-level statement of `scope` is the module-level
        function of the name (noted whatever the answer: a nested one of that name may hide it)."""
        if self._reads is not None and isinstance(expr, ast.Name):
            fn = self.scopes.module_functions.get(expr.id)
            self._reads.append((_FUNCTION, expr.id, fn.node if fn is not None else None))
        return self.scopes.resolve_function(expr, scope)

    def _arguments(self, fn: FunctionInfo, param: str) -> list[ast.AST]:
        """`argument_values`, which reads the calls of the whole module: noted as a question to ask again."""
        reads = self._reads
        self._reads = None
        try:
            values = self.argument_values(fn, param)
        finally:
            self._reads = reads
        if reads is not None:
            reads.append((_ARGUMENTS, fn.node, param, tuple(values)))
        return values

    def _never_runs(self, node: ast.AST) -> bool:
        """`Scopes.never_runs`. Where no branch and no `if` before it in a block decides (`_plainly_placed`), the
        answer follows from the node's top-level statement, the imports and the top-level statements that may end
        the module (the module key of TracedParts); elsewhere a test may read a module-level name or function:
        the question is noted, to be asked again."""
        answer = self.scopes.never_runs(node)
        if self._reads is not None and not self._plainly_placed(node):
            self._reads.append((_NEVER_RUNS, node, answer))
        return answer

    def _plainly_placed(self, node: ast.AST) -> bool:
        """Whether no `if`/`while`/conditional expression around `node` (up to its top-level statement) holds it
        in a branch, and no `if` statement comes before it (or before a statement around it) in its block: then
        `never_runs` reads nothing of the module but the statement's own code, the imports and the module's
        top-level exits (scopes.py: `_never_runs_inside` looks at no test there)."""
        tree = self.scopes.tree
        parents = self.scopes.parents
        child, cur = node, parents.get(node)
        while cur is not None and cur is not tree:
            if isinstance(cur, (ast.If, ast.While, ast.IfExp)) and child is not cur.test:
                return False
            if isinstance(child, ast.stmt):
                for block in (getattr(cur, "body", None), getattr(cur, "orelse", None), getattr(cur, "finalbody", None)):
                    if isinstance(block, list) and child in block and any(
                            isinstance(s, ast.If) for s in block[:block.index(child)]):
                        return False
            child, cur = cur, parents.get(cur)
        return cur is tree

    def bound_once(self, name: str, scope: FunctionInfo | None) -> ast.AST | None:
        """The value of `name` where `scope` reads it, when one plain `name = value` binds it: in `scope` itself
        (its only binding there), else at module level (module_constant)."""
        if scope is not None and self.scopes.is_local(name, scope):
            stores = [n for n in self.scopes.own_nodes(scope) if isinstance(n, ast.Name) and n.id == name
                      and isinstance(n.ctx, (ast.Store, ast.Del))]
            parent = self.scopes.parents.get(stores[0]) if len(stores) == 1 else None
            return parent.value if isinstance(parent, ast.Assign) and parent.targets == [stores[0]] else None
        value = self.scopes.module_constant(name)
        if self._reads is not None:
            self._reads.append((_CONSTANT, name, value))
        return value

    def transform_calls(self) -> list[ast.Call]:
        """The calls given arguments whose callee is a JAX transformation (`transform_of`, in the scope of the call)
        and the `lax` loop calls, in the order of `nodes(ast.Call)` (a superset of the calls that apply a
        transformation: a rule looking for those need not ask `transform_of` of every call of the module)."""
        return [call for index in self._calls for call in index.transforms]

    def _call_index(self) -> list[_CallIndex]:
        """The calls `_find_traced` looks at (see _CallIndex), in the order of `nodes(ast.Call)`, when walks are not
        kept (`_statements` gives them otherwise)."""
        return self.scopes.per_statement("call index", ast.Call, partial(_CallIndex.of, self), imports=True)  # type: ignore[arg-type]

    def _mark_abstract(self, callees: dict[int, list[FunctionInfo]], nested: list[tuple[str, FunctionInfo]],
                       own: list[_OwnFacts]) -> None:
        """Sets FunctionInfo.abstract: traced by a transformation that sees no values (anything but grad/jvp
        alone), directly, through an enclosing one (`jax.jit(jax.grad(f))`), or as a helper/nested function of
        abstractly traced code. An eager `shard_map` body is abstract too (jax 0.10.2: `if`, `float()`,
        `.item()` on its blocks raise TracerBoolConversionError / ConcretizationTypeError), but `print` there
        shows each block's values: `shows_values` tells print-in-jit so. `callees`: the edges along which tracing
        spreads (`_callees`); `nested`: (the outer transformation, the function) of each `jax.jit(jax.grad(f))`
        (`_nested_in`); `own`: the traced functions' _OwnFacts."""
        # A transformation applied inside abstractly traced code runs under that trace: `jax.grad(loss)(w)` or
        # `jax.value_and_grad(loss_fn)(params, x)` in a jitted step hands `loss` tracers without values (checked on
        # jax 0.10.2: `if w > 0` there raises TracerBoolConversionError), like `jax.jit(jax.grad(loss))`.
        functions = self.scopes.functions
        run: dict[int, list[FunctionInfo]] = {}  # id(runner) -> the functions it runs a transformation of
        for info, facts in zip(self._traced, own, strict=True):
            for runner in facts.runners:
                run.setdefault(id(functions[runner]), []).append(info)
        # jax.jit(jax.grad(f)): the inner function is traced abstractly
        printing = _reached({id(info) for info, facts in zip(self._traced, own, strict=True) if facts.prints_no_values}
                            | {id(target) for transform, target in nested if transform not in CONCRETE_TRANSFORMS},
                            callees, run)
        abstract = _reached({id(info) for info, facts in zip(self._traced, own, strict=True) if facts.sees_no_values}
                            | {id(target) for transform, target in nested if transform not in _CONCRETE_UNLESS_SHARDED},
                            callees, run)
        # (only a traced function or a `jax.jit(jax.grad(f))` one can be abstract: the rest stay as made, not)
        for info in self._traced:
            info.abstract = id(info) in abstract
        for _, target in nested:
            target.abstract = id(target) in abstract
        self._shows_values = frozenset(abstract - printing)

    def in_pallas_kernel(self, fn: FunctionInfo) -> bool:
        """Whether `fn` runs as (or inside, or called from) a Pallas kernel: compiled by Mosaic or Triton, where
        `jax.debug.print` prints only what the backend's lowering allows (scalars, or one vector)."""
        return id(fn) in self._kernel_code

    def custom_rule_group(self, fn: FunctionInfo) -> tuple[FunctionInfo, ...]:
        """A `custom_vjp`/`custom_jvp` function and its rules, when `fn` is one of them (else empty): JAX runs the
        rules of one differentiation together, so state the fwd rule leaves for the bwd rule stays inside it."""
        return self._rule_groups.get(id(fn), ())

    def residual_source(self, fn: FunctionInfo) -> tuple[FunctionInfo, int] | None:
        """When `fn` is the backward rule of `f.defvjp(fwd, bwd)`: (fwd, the number of `nondiff_argnums` values
        that come before the residuals among bwd's parameters). JAX hands bwd, as its residuals, the second
        element of what fwd returns, with the same structure."""
        return self._residual_sources.get(id(fn))

    def shows_values(self, fn: FunctionInfo) -> bool:
        """Whether `fn` is abstract only as (or through) the body of a `shard_map` called outside jit: its values
        are blocks a `print` shows, though Python cannot branch on them or convert them."""
        return id(fn) in self._shows_values

    def _nested_in(self, calls: tuple[ast.Call, ...]) -> list[tuple[str, FunctionNode]]:
        """(the outer transformation, the function's node) of each `jax.jit(jax.grad(f))` among these calls (a
        top-level statement's `_CallIndex.nested`): a transformation applied to transformations of a function of
        the module, which traces that function abstractly (`_mark_abstract`)."""
        out: list[tuple[str, FunctionNode]] = []
        for node in calls:
            scope = self.scopes.enclosing_function(node)
            site = self.transform_of(node.func, scope)
            if site is None:
                continue
            inner: ast.expr = node.args[0]
            while isinstance(inner, ast.Call) and inner.args and self.transform_of(inner.func, scope) is not None:
                inner = inner.args[0]
            target = self._resolve(inner, scope) if inner is not node.args[0] else None
            if target is not None:
                out.append((site.transform, target.node))
        return out

    def _donated_params(self, info: FunctionInfo) -> set[str]:
        """Parameters whose buffers a call of the decorated function donates (`@partial(jax.jit,
        donate_argnums=0)`). Call-form `g = jax.jit(f, donate_argnums=0)` donates only through `g`: see
        donation.py, which maps every callable of the module that donates."""
        donated: set[str] = set()
        positional = [p.arg for p in [*info.node.args.posonlyargs, *info.node.args.args]]
        for site in info.traces:
            if site.node is None or not isinstance(info.node, (ast.FunctionDef, ast.AsyncFunctionDef)) or (
                    site.node not in info.node.decorator_list):
                continue
            donated.update(n for n in site.donate_argnames if n in info.params)
            donated.update(positional[i] for i in site.donate_argnums if -len(positional) <= i < len(positional))
        return donated

    def _host_callbacks(self, calls: list[_CallIndex]) -> set[int]:
        """ids of the functions passed to `jax.debug.callback`/`io_callback`/`pure_callback` (directly or through
        `functools.partial`): they run on the host, so defining one inside traced code does not trace it."""
        found: set[int] = set()
        for node in (call for index in calls for call in index.callbacks):
            func = node.func
            scope = self.scopes.enclosing_function(node)
            q = self.scopes.qualname(func, scope)
            position = HOST_CALLBACKS.get(q or "")
            if position is None:
                continue
            self._note_host_callback(node, position, scope, found)
        for node, position, scope in self._calls_of_callback_aliases():
            self._note_host_callback(node, position, scope, found)
        return found

    def _calls_of_callback_aliases(self) -> list[tuple[ast.Call, int, FunctionInfo | None]]:
        """The calls of a name bound to `functools.partial(jax.pure_callback, ...)` (a host callback with some of
        its keywords fixed, e.g. `cb = partial(jax.pure_callback, vmap_method="sequential")`, also once in each arm
        of a version test), each with the callback's position in the call and the call's scope: the function such a
        call is given runs on the host, as with the callback itself."""
        aliases: dict[tuple[int, str], tuple[FunctionInfo | None, int]] = {}  # (id(scope), name) -> scope, position
        for call in self._candidates("partial of a host callback", _partial_of_a_callback_name):
            assign = self.scopes.parents.get(call)
            scope = self.scopes.enclosing_function(call)
            q = self.scopes.qualname(call.args[0], scope)  # type: ignore[attr-defined]
            if (not isinstance(assign, ast.Assign) or len(assign.targets) != 1 or not isinstance(
                    assign.targets[0], ast.Name) or q not in HOST_CALLBACKS or len(call.args) != 1  # type: ignore[attr-defined]
                    or self.scopes.qualname(call.func, scope) != "functools.partial"):  # type: ignore[attr-defined]
                continue
            aliases[(id(scope), assign.targets[0].id)] = (scope, HOST_CALLBACKS[q])
        if not aliases:
            return []
        out: list[tuple[ast.Call, int, FunctionInfo | None]] = []
        for (_, name), (owner, position) in aliases.items():
            # every binding of the name in its scope must be such a partial (a name rebound otherwise may be
            # anything when called)
            stores = [n for n in self.scopes.own_nodes(owner) if isinstance(n, ast.Name) and n.id == name
                      and isinstance(n.ctx, (ast.Store, ast.Del))]
            if not all(_binds_a_callback_partial(self.scopes, n) for n in stores):
                continue
            for call in self._calls_named({name}, None):
                scope = self.scopes.enclosing_function(call)
                cur = scope
                while cur is not None and name not in cur.local_names:
                    cur = cur.parent
                if cur is owner:
                    out.append((call, position, scope))
        return out

    def _note_host_callback(self, node: ast.Call, position: int, scope: FunctionInfo | None, found: set[int]) -> None:
        """Adds to `found` the id of the function a host callback call `node` is given at `position`."""
        arg: ast.AST | None = node.args[position] if position < len(node.args) else None
        for kw in node.keywords:
            if kw.arg in ("callback", "tap_func", "callback_func"):
                arg = kw.value
        if isinstance(arg, ast.Call) and self.scopes.qualname(arg.func, scope) == "functools.partial" and arg.args:
            arg = arg.args[0]
        target = self.scopes.resolve_function(arg, scope) if arg is not None else None
        if target is not None:
            found.add(id(target))
        elif isinstance(arg, ast.Name) and scope is not None:
            # `solve_fun = lambda a, b: solve_petsc(a, b)` in each branch, then `pure_callback(solve_fun, ...)`:
            # every lambda the name is bound to in the scope runs on the host
            bound = [n.value for n in self.scopes.own_nodes(scope) if isinstance(n, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == arg.id for t in n.targets)]
            if bound and all(isinstance(v, ast.Lambda) for v in bound):
                for value in bound:
                    lam = self.scopes.functions.get(value)  # type: ignore[call-overload]
                    if lam is not None:
                        found.add(id(lam))

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


# Pallas entry points whose function argument is a kernel (or a body) that gets references to memory.
_KERNEL_TAKERS = {"pallas_call", "kernel", "run_scoped", "emit_pipeline", "core_map", "emit_pipeline_with_allocations"}


# Haiku's transformations: the position in `apply`'s arguments of the key (after the parameters, and the state)
HAIKU_TRANSFORMS = {"haiku.transform": 1, "haiku.transform_with_state": 2}

_RULE_REGISTRARS = {"defvjp", "defjvp", "defjvps"}
_CUSTOM_DERIVATIVES = {"jax.custom_vjp", "jax.custom_jvp"}


def _registers_a_rule(node: ast.AST) -> bool:
    """`f.defvjp(fwd, bwd)` / `f.defjvp(jvp)`: registers the rules of a custom-derivative function."""
    func = node.func  # type: ignore[attr-defined]
    return isinstance(func, ast.Attribute) and func.attr in _RULE_REGISTRARS


def _first_argument_a_name(node: ast.AST) -> bool:
    """`f(name, ...)`: what `functools.partial(fn, ...)` looks like (TracedCode.passed_through_params)."""
    return isinstance(node, ast.Call) and bool(node.args) and isinstance(node.args[0], ast.Name)


def _names_a_kernel_taker(node: ast.AST) -> bool:
    func = node.func  # type: ignore[attr-defined]
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in _KERNEL_TAKERS


def _partial_of_a_callback_name(node: ast.AST) -> bool:
    """`partial(jax.pure_callback, ...)`: a call whose first argument is named like a host callback (its syntax
    only; `_calls_of_callback_aliases` checks the names)."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    first = node.args[0]
    last = first.attr if isinstance(first, ast.Attribute) else first.id if isinstance(first, ast.Name) else ""
    func = node.func
    callee = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return callee == "partial" and last.endswith(_HOST_CALLBACK_TAILS)


def _binds_a_callback_partial(scopes: Scopes, name: ast.Name) -> bool:
    """Whether the binding `name` (a Store) is `name = functools.partial(<host callback>)` with keywords only."""
    assign = scopes.parents.get(name)
    if not isinstance(assign, ast.Assign) or assign.targets != [name] or not isinstance(assign.value, ast.Call):
        return False
    call = assign.value
    scope = scopes.enclosing_function(call)
    return (len(call.args) == 1 and scopes.qualname(call.func, scope) == "functools.partial"
            and scopes.qualname(call.args[0], scope) in HOST_CALLBACKS)


def _defines_or_calls_a_name(node: ast.AST) -> bool:
    """A nested `def`/`lambda`, a call `NAME(...)` or `NAME.apply(...)` (a linen module's `apply` runs its
    `__call__`): how traced code reaches other functions of the module."""
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) or (
        isinstance(node, ast.Call) and (isinstance(node.func, ast.Name) or (
            isinstance(node.func, ast.Attribute) and node.func.attr in ("apply", "update")
            and isinstance(node.func.value, ast.Name))))


def _callee_index(calls: list[ast.Call]) -> dict[tuple[str, str], list[ast.Call]]:
    index: dict[tuple[str, str], list[ast.Call]] = {}
    for call in calls:
        func = call.func
        if isinstance(func, ast.Name):
            index.setdefault(("", func.id), []).append(call)
        elif isinstance(func, ast.Attribute):
            index.setdefault((".", func.attr), []).append(call)
    return index


def _literal_arguments(fn: FunctionInfo, call: ast.Call, names: set[str]) -> dict[str, object] | None:
    """The values a call gives the parameters `names` of `fn`, each a literal at the call or a literal default;
    None when one is not known (a value that is no literal, or one that `*args`/`**kwargs` at the call may give:
    a parameter named by an explicit keyword is that keyword's value even beside them, since Python refuses a
    second value for it)."""
    node = fn.node
    if isinstance(node, ast.Lambda):
        return None
    keywords = {kw.arg: kw.value for kw in call.keywords if kw.arg is not None}
    if any(isinstance(a, ast.Starred) for a in call.args) or any(kw.arg is None for kw in call.keywords):
        if not names <= keywords.keys():
            return None
        values_: dict[str, object] = {}
        for name in names:
            if not isinstance(keywords[name], ast.Constant):
                return None
            values_[name] = keywords[name].value  # type: ignore[attr-defined]
        return values_
    positional = [p.arg for p in [*node.args.posonlyargs, *node.args.args]]
    given: dict[str, ast.expr] = dict(zip(positional, call.args, strict=False))
    given.update(keywords)
    defaults: dict[str, ast.expr] = dict(zip(positional[::-1], node.args.defaults[::-1], strict=False))
    defaults.update({p.arg: d for p, d in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True) if d is not None})
    values: dict[str, object] = {}
    for name in names:
        expr = given.get(name, defaults.get(name))
        if not isinstance(expr, ast.Constant):
            return None
        values[name] = expr.value
    return values


def _decided(test: ast.expr, values: dict[str, object]) -> bool | None:
    """The truth of a test over parameters of known literal values (`flag`, `not flag`, `mode == "eval"`,
    `a and not b`, `p is None`); None when it is not decided by them alone."""
    def value(e: ast.expr) -> tuple[bool, object]:
        if isinstance(e, ast.Constant):
            return True, e.value
        if isinstance(e, ast.Name) and e.id in values:
            return True, values[e.id]
        return False, None

    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _decided(test.operand, values)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):
        parts = [_decided(v, values) for v in test.values]
        if isinstance(test.op, ast.And):
            return False if False in parts else None if None in parts else True
        return True if True in parts else None if None in parts else False
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        (known_l, left), (known_r, right) = value(test.left), value(test.comparators[0])
        if not (known_l and known_r):
            return None
        op = test.ops[0]
        if isinstance(op, (ast.Is, ast.IsNot)) and (left is None or right is None or isinstance(left, bool)):
            return (left is right) == isinstance(op, ast.Is)
        if isinstance(op, (ast.Eq, ast.NotEq)):
            return (left == right) == isinstance(op, ast.Eq)
        return None
    known, v = value(test)
    return bool(v) if known else None


_LOOP_BODY_ARITY = {"while_loop": 1, "fori_loop": 2, "scan": 2, "map": 1}  # the arguments a body is called with


def _branch_facts(node: ast.AST, function: ast.AST, parents: dict[ast.AST, ast.AST]) -> dict[str, bool]:
    """What the branches around `node`, up to `function`, say (`ast.dump` of a test -> its truth there): the `if`s
    it sits in, and an earlier `if test: ... return` (or `raise`) of a block it sits in, with no `else`."""
    facts: dict[str, bool] = {}
    child, cur = node, parents.get(node)
    while cur is not None and cur is not function:
        if isinstance(cur, ast.If) and child is not cur.test:
            facts.setdefault(ast.dump(cur.test), child in cur.body)
        for block in ("body", "orelse"):
            statements = getattr(cur, block, None)
            if isinstance(statements, list) and child in statements:
                for earlier in statements[:statements.index(child)]:
                    if (isinstance(earlier, ast.If) and not earlier.orelse and earlier.body
                            and isinstance(earlier.body[-1], (ast.Return, ast.Raise))):
                        facts.setdefault(ast.dump(earlier.test), False)
        child, cur = cur, parents.get(cur)
    return facts


def _decided_with(test: ast.expr, values: dict[str, object], facts: dict[str, bool]) -> bool | None:
    """`_decided`, where a test (or a part of it) the branches around a call site decide (`facts`) is known."""
    if facts and (known := facts.get(ast.dump(test))) is not None:
        return known
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _decided_with(test.operand, values, facts)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):
        parts = [_decided_with(v, values, facts) for v in test.values]
        if isinstance(test.op, ast.And):
            return False if False in parts else None if None in parts else True
        return True if True in parts else None if None in parts else False
    return _decided(test, values)


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _callees(edges: list[tuple[FunctionInfo, FunctionInfo]]) -> dict[int, list[FunctionInfo]]:
    """The edges (caller, callee) by id(caller): what `_reached` follows (made once for its questions on them)."""
    callees: dict[int, list[FunctionInfo]] = {}
    for caller, callee in edges:
        callees.setdefault(id(caller), []).append(callee)
    return callees


def _reached(start: set[int], *edges: dict[int, list[FunctionInfo]]) -> set[int]:
    """`start` (ids of functions) with every function reached from one of them along the edges (each a `_callees`
    dict): what sweeping the edges until nothing changes gives, in one pass over each edge (the sweeps, several
    per version on a 5,000-line module, were a tenth of finding what is traced)."""
    reached = set(start)
    work = list(reached)
    while work:
        caller = work.pop()
        for callees in edges:
            for callee in callees.get(caller, ()):
                if id(callee) not in reached:
                    reached.add(id(callee))
                    work.append(id(callee))
    return reached


def _with_static(site: TraceSite, keywords: list[ast.keyword]) -> TraceSite:
    """The site with the static and donated arguments these keywords add (literal values only)."""
    nums, names = list(site.static_argnums), list(site.static_argnames)
    donate_nums, donate_names = list(site.donate_argnums), list(site.donate_argnames)
    statics_unknown = site.statics_unknown
    unmapped = list(site.unmapped_argnums)
    for kw in keywords:
        value = literal_value(kw.value)
        if isinstance(value, (set, frozenset)):  # `static_argnums={0, 3}`: any collection of positions (rkhs)
            value = tuple(sorted(value, key=repr))
        if isinstance(kw.value, ast.Call) and isinstance(kw.value.func, ast.Name) and kw.value.func.id == "range":
            bounds = [literal_value(a) for a in kw.value.args]
            ints = [b for b in bounds if isinstance(b, int)]
            value = tuple(range(*ints)) if ints and len(ints) == len(bounds) <= 3 else None
        if kw.arg == "in_axes" and site.transform in ("jax.vmap", "flax.nnx.vmap") and isinstance(value, (tuple, list)):
            unmapped.extend(i for i, axis in enumerate(value) if axis is None)
        if kw.arg == "in_specs" and site.transform in SHARD_MAPS and isinstance(kw.value, (ast.Tuple, ast.List)):
            # shard_map hands an argument whose spec is None to every device as it was passed (a Python int
            # stays one)
            unmapped.extend(i for i, spec in enumerate(kw.value.elts) if _is_none(spec))
        if kw.arg in ("static_argnums", "static_argnames") and value is None and not (
                isinstance(kw.value, ast.Constant) and kw.value.value is None):
            statics_unknown = True
        # pmap spells them static_broadcasted_argnums; custom_jvp/custom_vjp's nondiff_argnums take Python values
        # (shapes, callables, dtypes): static too
        if kw.arg in ("static_argnums", "static_broadcasted_argnums", "nondiff_argnums", "donate_argnums"):
            into = donate_nums if kw.arg == "donate_argnums" else nums
            into.extend([value] if isinstance(value, int) else [v for v in value or () if isinstance(v, int)]
                        if isinstance(value, (tuple, list)) else [])
        elif kw.arg in ("static_argnames", "nondiff_argnames", "donate_argnames"):
            into_names = donate_names if kw.arg == "donate_argnames" else names
            into_names.extend([value] if isinstance(value, str) else [v for v in value or () if isinstance(v, str)]
                              if isinstance(value, (tuple, list)) else [])
    return TraceSite(site.transform, tuple(nums), tuple(names), site.node, tuple(donate_nums), tuple(donate_names),
                     statics_unknown, tuple(unmapped))


def _past_self(site: TraceSite) -> TraceSite:
    """The site of a transformation of a bound method (`jax.jit(self._step, donate_argnums=0)`): its argument
    positions count from the parameter after `self`, so each non-negative one moves up by one."""
    return _shifted(site, 1)


def _shifted(site: TraceSite, by: int) -> TraceSite:
    """The site with its non-negative argument positions moved up by `by` (parameters bound before them)."""
    def shift(nums: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(i + by if i >= 0 else i for i in nums)
    return dataclasses.replace(site, static_argnums=shift(site.static_argnums), donate_argnums=shift(site.donate_argnums),
                               unmapped_argnums=shift(site.unmapped_argnums))


def _foreign_positions(site: TraceSite) -> TraceSite:
    """The site of a transformation of a callable whose arguments come before the function's (a Haiku apply): the
    positions it names (static, donated, unmapped) say nothing of the function's parameters, so statics given by
    position are unknown; names still hold."""
    by_position = bool(site.static_argnums or site.donate_argnums or site.unmapped_argnums)
    return dataclasses.replace(site, static_argnums=(), donate_argnums=(), unmapped_argnums=(),
                               statics_unknown=site.statics_unknown or by_position, foreign_positions=True)


@dataclass(frozen=True)
class _CallIndex:
    """The calls of part of a module that `_find_traced` looks at, each in the order of `nodes(ast.Call)`."""

    transforms: tuple[ast.Call, ...]  # `jax.jit(f)`, `lax.scan(body, ...)`: a transformation applied to an argument
    callbacks: tuple[ast.Call, ...]  # calls whose callee is named like a host callback (`jax.debug.callback`)
    # calls of a transformation whose first argument is a call (`jax.jit(jax.grad(f))`): some of `transforms`
    nested: tuple[ast.Call, ...]

    @staticmethod
    def of(model: TracedCode, calls: list[ast.Call]) -> _CallIndex:
        transforms: list[ast.Call] = []
        callbacks: list[ast.Call] = []
        nested: list[ast.Call] = []
        aliases = model.scopes.aliases
        for call in calls:
            func = call.func
            scope = model.scopes.enclosing_function(call)
            transformed = bool(call.args) and model.transform_of(func, scope) is not None
            if transformed or model.scopes.qualname(func, scope) in LAX_BODIES:
                transforms.append(call)
            last = func.attr if isinstance(func, ast.Attribute) else aliases.get(func.id, "") if isinstance(
                func, ast.Name) else ""
            if last.endswith(_HOST_CALLBACK_TAILS):
                callbacks.append(call)
            if transformed and isinstance(call.args[0], ast.Call):
                nested.append(call)
        return _CallIndex(tuple(transforms), tuple(callbacks), tuple(nested))


def _reads_as_a_value(decorator: ast.expr) -> bool:
    """A decorator after which `self.m` is no bound method: `@staticmethod`, a property (`@property`,
    `@functools.cached_property`, and the `@m.setter`/`getter`/`deleter` of one: reading `self.m` runs the getter
    right there, and gives its value)."""
    if isinstance(decorator, ast.Name):
        return decorator.id in ("staticmethod", "property", "cached_property")
    return isinstance(decorator, ast.Attribute) and decorator.attr in ("setter", "getter", "deleter", "cached_property")


# What a kept part of TracedCode's work asked outside its top-level statement (TracedParts): the module-level
# function of a name, the value of a module-level name bound once, the top-level class of a name, the method
# "Class.m", the values the module passes a parameter, whether a node never runs (where a test decides), whether
# nothing calls a module-level transformation alias (a private module)
_FUNCTION, _CONSTANT, _CLASS, _METHOD, _ARGUMENTS = "function", "constant", "class", "method", "arguments"
_NEVER_RUNS, _ALIAS_NOTHING_CALLS = "never runs", "alias nothing calls"
# top-level statements that may end the module (`never_runs`: what comes after them never runs)
_MAY_END_THE_MODULE = {ast.Expr, ast.Raise, ast.Return, ast.Continue, ast.Break}
# the transformations that trace with values, an eager shard_map's blocks being no values (see _mark_abstract)
_CONCRETE_UNLESS_SHARDED = CONCRETE_TRANSFORMS - SHARD_MAPS
# what one top-level statement's calls transform (TracedCode._transformations_in): (the function's node, its trace
# site) per function a call transforms or passes as a lax body, and (the outer transformation, the function's node)
# per `jax.jit(jax.grad(f))`
_Transformations = tuple[list[tuple[FunctionNode, TraceSite]], list[tuple[str, FunctionNode]]]
_NO_TRANSFORMATIONS: _Transformations = ([], [])
# the functions one top-level statement defines that its transformation decorators trace, each with those sites,
# and whether a decorator of it registers a custom rule or has decorators below it (TracedCode._decorations_of)
_Decorated = tuple[tuple[tuple[FunctionNode, tuple[TraceSite, ...]], ...], bool]


class _Statement(NamedTuple):
    """What TracedCode looks at in one top-level statement, from its nodes and the imports (`_statement_of`)."""

    calls: _CallIndex
    kernel_calls: tuple[ast.Call, ...]  # calls named like a Pallas entry point (`_names_a_kernel_taker`)
    registrations: tuple[ast.Call, ...]  # `f.defvjp(fwd, bwd)`-like calls (`_registers_a_rule`)
    callback_partials: tuple[ast.Call, ...]  # `partial(jax.pure_callback, ...)`-like calls
    decorated: tuple[tuple[FunctionNode, tuple[TraceSite, ...]], ...]  # see _decorations_of
    ordered: bool  # ... and whether a decorator registers a custom rule or sits above another one


class _OwnFacts(NamedTuple):
    """What follows from a traced function's node and its trace sites alone (TracedCode._own_facts)."""

    static: set[str]  # its static parameters
    donated: set[str]  # the parameters its decorators donate
    compiled: bool  # a transformation of its own compiles it
    kernel: bool  # passed to Pallas as a kernel
    sees_no_values: bool  # a transformation of its own traces it without values
    prints_no_values: bool  # ... and `print` shows no values there (an eager shard_map's body shows its blocks)
    runners: tuple[FunctionNode, ...]  # the functions that run its transformations (their nodes), but itself


class TracedParts:
    """What TracedCode worked out in the last version of a document, for the next (analysis/reuse.py):

    - per top-level statement, the functions its calls transform or pass as lax bodies, with their trace sites
      (`jax.jit(f)`, `jax.vmap(partial(f, w), in_axes=...)`, `lax.scan(body, ...)`), and the functions its
      `jax.jit(jax.grad(f))` trace abstractly;
    - per traced function, what its own code reaches: the functions it defines, the ones it calls by name (or as
      an object of a class of the module, or through a linen `apply`), the optax hooks its `update` calls;
    - per traced function, what follows from its node and its trace sites alone (_OwnFacts: its static and
      donated parameters, whether a transformation of its own compiles it or sees no values, the functions that
      run its transformations).

    The first two are taken again when the node they were found for is the same object (so its top-level
    statement is the same: the parse shares a node only together with its statement), the module key is the
    same (TracedCode._module_key: the imports, the top-level statements that may end the module, whether it is
    private), and every question the work asked outside the statement gets the same answer, asked again of the
    new version in the order it was asked (TracedCode._same_answers): which module-level function a name is,
    what a module-level name is bound to, which class or method a name is, the values the module passes a
    parameter, and, where a branch's test may read more than the statement, whether the node never runs. Those
    are all it reads of other statements (every other statement it looks at is one a noted answer names, so it is
    the same too): the work done again would come out the same. The third is taken again for the same node with
    equal trace sites (equal sites have the same nodes, so the same statements). What TracedCode looks at in
    each statement (its calls of interest, its decorators' trace sites) follows from the statement and the
    imports alone: a syntax fact (TracedCode._statements). Which functions are traced, and why (through whom, in
    which order), is then found from these parts each version, as a fresh build finds it."""

    def __init__(self) -> None:
        self._module: tuple[object, ...] | None = None  # the module key of the last version
        # (what, id(node)) -> (node, the questions noted with their answers, the part): the last version's parts,
        # and this version's so far
        self.last: dict[tuple[str, int], tuple[ast.AST, list[tuple[object, ...]], object]] = {}
        self.now: dict[tuple[str, int], tuple[ast.AST, list[tuple[object, ...]], object]] = {}
        # id(function node) -> (node, its trace sites, what follows from them): TracedCode._own_facts
        self.own: dict[int, tuple[ast.AST, list[TraceSite], _OwnFacts]] = {}
        self.own_now: dict[int, tuple[ast.AST, list[TraceSite], _OwnFacts]] = {}
        self.reused = 0  # parts taken again (for tests and benchmarks)
        self.run = 0  # parts worked out

    def begin(self, module: tuple[object, ...]) -> None:
        """A new version's TracedCode starts, with this module key: what the last version kept (all of it when
        the key is the same, nothing otherwise) is what it compares with; what it takes again or works out is
        what it keeps."""
        same = module == self._module
        self._module = module
        self.last, self.now = (self.now if same else {}), {}
        self.own, self.own_now = self.own_now, {}
