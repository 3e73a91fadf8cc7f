"""Side effects of traced code: what a traced function does to state that outlives its trace.

Under `jit` the Python body runs once, at trace time, with tracers for its array arguments. A statement that
changes something outside the trace (a module-level list it appends to, a `global` it writes, `self.attr` of a
jitted method, an outer iterator it advances) does so once, when the function is traced, never on later calls,
and leaves tracers behind where it stored traced values. Changes to the function's own locals, to the locals of
an enclosing function traced by the same transformation, and code run by host callbacks (`jax.debug.callback`,
`io_callback`) are not side effects.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sharpbits.analysis.facts import Fact
from sharpbits.analysis.kinds import ARRAYS, Kind
from sharpbits.analysis.scopes import FunctionInfo
from sharpbits.analysis.syntax import walk_nodes
from sharpbits.analysis.traced import Provenance, TraceSite
from sharpbits.analysis.tracers import TracerValues

if TYPE_CHECKING:
    from sharpbits.analysis.model import ModuleModel

# Methods that put a value into a container: method -> positions of the stored values (None: every argument).
_STORING_METHODS: dict[str, tuple[int, ...] | None] = {
    "append": (0,), "extend": (0,), "insert": (1,), "add": (0,), "appendleft": (0,), "extendleft": (0,),
    "update": None, "setdefault": (1,), "put": (0,), "put_nowait": (0,),
}
# ... of which these return None on Python's containers and queues: a call whose result is read is another
# object's method (a functional `update(state, values)` returning the new state), not a store.
_NONE_RETURNING = frozenset(_STORING_METHODS) - {"setdefault"}
_ITERATOR_MAKERS = {"iter", "map", "filter", "zip", "enumerate", "reversed"}
# Transformations that track module state themselves (a write to `self.attr` is how their modules work).
_STATEFUL_TRANSFORMS = ("flax.nnx.", "equinox.")
# A `global` a traced function writes on purpose to count its own traces (tests do this).
_TRACE_COUNTER_WORDS = ("trace", "compil")
_TRACED_KINDS = (*ARRAYS, Kind.KEY)
# Host values a traced function computes once, at trace time, and bakes into the compiled program as constants:
# draws from NumPy's or Python's global generator (every run gets the same numbers) ...
_HOST_DRAWS = frozenset({
    *(f"numpy.random.{f}" for f in (
        "normal", "uniform", "rand", "randn", "randint", "random", "random_sample", "ranf", "sample", "choice",
        "permutation", "shuffle", "binomial", "poisson", "beta", "gamma", "exponential", "standard_normal",
        "multivariate_normal", "laplace", "logistic", "lognormal", "dirichlet", "multinomial", "bytes",
        "random_integers", "standard_cauchy", "standard_exponential", "standard_gamma", "standard_t", "chisquare",
        "geometric", "gumbel", "rayleigh", "triangular", "vonmises", "wald", "weibull", "zipf", "pareto", "power")),
    *(f"random.{f}" for f in (
        "random", "uniform", "randint", "randrange", "choice", "choices", "sample", "shuffle", "gauss",
        "normalvariate", "getrandbits", "betavariate", "expovariate", "triangular", "lognormvariate",
        "vonmisesvariate", "gammavariate", "paretovariate", "weibullvariate", "randbytes", "binomialvariate")),
})
# ... and clock reads (every run sees the trace's time), reported where the time seeds a key: a key made from the
# clock inside jit is one key for every step. A clock read alone may time the trace on purpose.
_CLOCK_READS = frozenset({
    "time.time", "time.time_ns", "time.perf_counter", "time.perf_counter_ns", "time.monotonic",
    "time.monotonic_ns", "time.process_time", "time.process_time_ns", "datetime.datetime.now",
    "datetime.datetime.utcnow", "datetime.datetime.today", "datetime.date.today"})
_KEY_MAKERS = frozenset({"jax.random.PRNGKey", "jax.random.key", "jax.random.fold_in", "jax.random.wrap_key_data"})
_HOST_TAILS = frozenset(q.rsplit(".", 1)[1] for q in _HOST_DRAWS | _CLOCK_READS)
_HOST_TAILS_OR_NEXT = _HOST_TAILS | {"next"}


@dataclass(frozen=True)
class SideEffect:
    node: ast.AST  # what the user must change: the call, or the target that is written
    function: FunctionInfo  # the traced function that does it
    action: str  # "appends a traced value to", "writes the global", ...
    target: str  # how the changed state is spelled: `LOG`, `self.cache`, `counter`
    traced_value: bool  # stores a traced value (a tracer leaks) rather than a Python value
    receiver: ast.Name | None = None  # the name read to reach the state (`LOG` in `LOG.append(x)`)


class SideEffects(Fact):
    """The side-effect part of ModuleModel (see model.py)."""

    _side_effects: list[SideEffect] | None = None
    _side_effect_ids: set[int] | None = None

    def __init__(self, model: ModuleModel) -> None:
        super().__init__(model)
        self.tracers = model.fact(TracerValues)

    def side_effects(self) -> list[SideEffect]:
        """Every side effect of compiled traced code in the module, in source order."""
        if self._side_effects is None:
            found: list[SideEffect] = []
            for fn in self.scopes.functions.values():
                if fn.traced and fn.compiled:
                    found.extend(self._effects_of(fn))
            found.sort(key=lambda e: (e.node.lineno, e.node.col_offset))  # type: ignore[attr-defined]
            self._side_effects = found
            self._side_effect_ids = {id(e.node) for e in found} | {id(e.receiver) for e in found if e.receiver}
        return self._side_effects

    def is_side_effect(self, node: ast.AST) -> bool:
        """Whether `node` is a side effect of traced code (the call or written target), or the name read to
        reach the changed state: what other rules must not report a second time."""
        if self._side_effect_ids is None:
            self.side_effects()
        assert self._side_effect_ids is not None
        return id(node) in self._side_effect_ids

    def outlives_trace(self, name: str, fn: FunctionInfo) -> bool:
        """Whether the variable `name`, read or written in traced `fn`, belongs to state outside fn's trace: a
        module-level name, or a local of an enclosing function that is not traced by the same transformation."""
        cur: FunctionInfo | None = fn
        crossed = False
        while cur is not None:
            if name in cur.local_names:
                return crossed or not cur.traced
            if _own_trace(cur):
                crossed = True  # cur is traced by a transformation of its own (a jit, a scan body, ...)
            cur = cur.parent
        return True

    # ---- finding them ----------------------------------------------------------------------------------

    def _effects_of(self, fn: FunctionInfo) -> list[SideEffect]:
        found: list[SideEffect] = []
        for node in self.scopes.syntax_fact("side-effect candidates", fn.node, _candidates, self, fn):
            if isinstance(node, ast.Call):
                effect = self._call_effect(node, fn)
            elif isinstance(node, (ast.Subscript, ast.Attribute)):
                effect = self._store_effect(node, fn)
            else:
                effect = self._declared_write(node, fn)  # type: ignore[arg-type]
            if effect is not None:
                found.append(effect)
        return found

    def _outer_state(self, expr: ast.AST, fn: FunctionInfo) -> tuple[str, ast.Name] | None:
        """`LOG` (an outer name) or `self.items` (state of the object a traced method belongs to)."""
        if isinstance(expr, ast.Name):
            if expr.id in ("self", "cls") or not self.outlives_trace(expr.id, fn):
                return None
            return expr.id, expr
        if (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self"
                and self._self_outlives_trace(fn)):
            return f"self.{expr.attr}", expr.value
        return None

    def _self_outlives_trace(self, fn: FunctionInfo) -> bool:
        """`self` in a traced method (or in a function traced on its own inside a method) is an object that the
        trace does not own. Not for flax.nnx/equinox transformations, which carry module state themselves."""
        if any(t.transform.startswith(_STATEFUL_TRANSFORMS) for t in fn.traces):
            return False
        cur: FunctionInfo | None = fn
        crossed = False
        while cur is not None:
            if "self" in cur.params:
                is_method = cur.parent is None and "." in cur.qualname and cur.params[:1] == ["self"]
                if not is_method or any(t.transform.startswith(_STATEFUL_TRANSFORMS) for t in cur.traces):
                    return False
                # A jitted method whose `self` is a traced pytree argument works on a copy rebuilt from its
                # leaves; only a static `self` (static_argnums=0) is the caller's own object.
                # So is the `self` a bound method carries: `jax.jit(self._step)` traces `_step` with `self` bound.
                return crossed or any(0 in t.static_argnums or "self" in t.static_argnames
                                      or _transforms_bound_method(t, cur.name) for t in cur.traces)
            crossed = crossed or _own_trace(cur)
            cur = cur.parent
        return False

    def _carries_traced(self, expr: ast.AST, fn: FunctionInfo) -> bool:
        if self.tracers.runs_on_values(fn):
            return False  # a custom_vjp/custom_jvp function nothing here traces: it runs on concrete arrays
        if isinstance(expr, ast.Starred):
            expr = expr.value
        if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
            return any(self._carries_traced(e, fn) for e in expr.elts)
        if isinstance(expr, ast.Dict):
            return any(self._carries_traced(v, fn) for v in expr.values)
        kind = self.kinds.kind_of(expr, fn)
        if kind in ARRAYS and not fn.abstract:
            # under jax.grad/jvp alone (no jit) JAX computes eagerly: only values computed from what the trace
            # binds (its parameters) are tracers; an array closed over from eager code, and what is computed
            # from it alone, is concrete (`problem.dt = ts[i + 1] - ts[i]`)
            return self.tracers.reads_traced_name(expr, fn)
        return kind in _TRACED_KINDS

    def _call_effect(self, node: ast.Call, fn: FunctionInfo) -> SideEffect | None:
        func = node.func
        host = self._host_value(node, fn)
        if host is not None:
            return host
        if isinstance(func, ast.Name) and func.id == "next" and node.args and not self.scopes.is_local("next", fn):
            if not self.model.traced.cached(fn):
                return None  # under jax.grad/vmap alone the function is traced anew on each call: advanced each time
            it = node.args[0]
            if isinstance(it, ast.Name) and self.outlives_trace(it.id, fn) and self._is_iterator(
                    it.id, fn, counter_value_computes=self._value_computes(node, fn)) and (
                    not self._within_owner_run(it.id, fn, stores_tracer=False)):
                return SideEffect(node, fn, "advances the outer iterator", it.id, False, it)
            return None
        if not isinstance(func, ast.Attribute) or func.attr not in _STORING_METHODS:
            return None
        if func.attr in _NONE_RETURNING and not isinstance(self.scopes.parents.get(node), ast.Expr):
            return None  # `return agg.update(state, v)`: list/dict/set methods return None, a read result is no store
        state = self._outer_state(func.value, fn)
        if state is None or self.kinds.kind_of(func.value, fn) is not Kind.CONTAINER:
            return None
        positions = _STORING_METHODS[func.attr]
        values = [a for i, a in enumerate(node.args) if positions is None or i in positions]
        values += [k.value for k in node.keywords] if positions is None else []
        if not any(self._carries_traced(v, fn) for v in values):
            return None
        if isinstance(func.value, ast.Name) and self.only_counted(func.value.id, fn):
            return None  # a trace counter: the tracers it holds are never read
        return SideEffect(node, fn, f"stores a traced value in (`.{func.attr}`)", state[0], True, state[1])

    def _host_value(self, node: ast.Call, fn: FunctionInfo) -> SideEffect | None:
        """`np.random.normal(...)`, `random.random()` in compiled traced code: drawn once, at trace time; a clock
        read whose time seeds a key (`PRNGKey(int(time.time()))`): one key for every run."""
        func = node.func
        tail = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if tail not in _HOST_TAILS or not self.model.traced.cached(fn):
            return None  # (under `jax.grad(f)(x)` alone f is traced anew on every call: it draws every time)
        q = self.scopes.qualname(func, fn)
        spelled = ast.unparse(func)
        if q in _HOST_DRAWS:
            return SideEffect(node, fn, "draws from the host's random generator", f"{spelled}(...)", False)
        if q in _CLOCK_READS and self._seeds_key(node, fn):
            return SideEffect(node, fn, "reads the clock", f"{spelled}()", False)
        if q in _CLOCK_READS and self._returned(node, fn):
            return SideEffect(node, fn, "returns a clock reading", f"{spelled}()", False)
        return None

    def _returned(self, node: ast.AST, fn: FunctionInfo) -> bool:
        """Whether a clock reading in `fn` (traced directly: what it returns is the compiled program's result)
        reaches one of its `return` values, in the statement itself or through local names bound from it
        (`end = time.time(); log = dict(t=end - start); return out, log`): a constant of the program."""
        if not fn.traces or all(site.indirect for site in fn.traces):
            return False
        stmt: ast.AST | None = self.scopes.parents.get(node)
        while stmt is not None and not isinstance(stmt, ast.stmt):
            stmt = self.scopes.parents.get(stmt)
        if isinstance(stmt, ast.Return):
            return True
        if not isinstance(stmt, ast.Assign):
            return False
        names = {t.id for target in stmt.targets for t in walk_nodes(target) if isinstance(t, ast.Name)}
        own = [n for n in self.scopes.own_nodes(fn) if isinstance(n, (ast.Assign, ast.Return))]
        grown = True
        while grown:
            grown = False
            for later in own:
                if isinstance(later, ast.Assign) and any(
                        isinstance(n, ast.Name) and n.id in names for n in walk_nodes(later.value)):
                    new = {t.id for target in later.targets for t in walk_nodes(target) if isinstance(t, ast.Name)}
                    grown = grown or not new <= names
                    names |= new
        return any(isinstance(ret, ast.Return) and ret.value is not None and any(
            isinstance(n, ast.Name) and n.id in names for n in walk_nodes(ret.value)) for ret in own)

    def _seeds_key(self, node: ast.AST, fn: FunctionInfo) -> bool:
        """Whether a value reaches a key maker's arguments: inside its call (`PRNGKey(int(time.time()))`), or
        through one local name bound from it and read there (`seed = int(time.time()); PRNGKey(seed)`)."""
        parents = self.scopes.parents
        cur: ast.AST | None = parents.get(node)
        while cur is not None and not isinstance(cur, ast.stmt):
            if isinstance(cur, ast.Call) and self.scopes.qualname(cur.func, fn) in _KEY_MAKERS:
                return True
            cur = parents.get(cur)
        if not (isinstance(cur, ast.Assign) and len(cur.targets) == 1 and isinstance(cur.targets[0], ast.Name)):
            return False
        name = cur.targets[0].id
        for read in self.scopes.own_nodes(fn):
            if isinstance(read, ast.Name) and read.id == name and isinstance(read.ctx, ast.Load):
                up = parents.get(read)
                while up is not None and not isinstance(up, ast.stmt):
                    if isinstance(up, ast.Call) and self.scopes.qualname(up.func, fn) in _KEY_MAKERS:
                        return True
                    up = parents.get(up)
        return False

    def _store_effect(self, node: ast.Subscript | ast.Attribute, fn: FunctionInfo) -> SideEffect | None:
        assign = self.scopes.parents.get(node)
        if not isinstance(assign, (ast.Assign, ast.AugAssign, ast.AnnAssign)) or assign.value is None:
            return None
        targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
        if node not in targets:
            return None  # part of a tuple target: `a, LOG[0] = ...` is left alone
        if not self._carries_traced(assign.value, fn):
            return None
        if isinstance(node, ast.Subscript):
            state = self._outer_state(node.value, fn)
            if state is None or self.kinds.kind_of(node.value, fn) is not Kind.CONTAINER:
                return None
            if isinstance(node.value, ast.Name) and self._within_owner_run(node.value.id, fn, stores_tracer=True):
                return None
            return SideEffect(node, fn, "stores a traced value in", state[0], True, state[1])
        state = self._outer_state(node, fn)
        if state is None:
            base = node.value
            if not (isinstance(base, ast.Name) and base.id not in ("self", "cls") and base.id not in self.scopes.aliases
                    and self.outlives_trace(base.id, fn)):
                return None
            state = (f"{base.id}.{node.attr}", base)
        return SideEffect(node, fn, "stores a traced value in the attribute", state[0], True, state[1])

    def _within_owner_run(self, name: str, fn: FunctionInfo, *, stores_tracer: bool) -> bool:
        """Whether changing the variable `name` of the function that defines `fn` stays inside one run of that
        function: `fn` is traced only as the body of `lax.cond`/`scan`/`fori_loop`/... calls made by that function
        itself, which trace their bodies there and then, once per run, never later. The change is then ordinary
        Python sequencing in the owner's run (advancing an iterator the owner made: trace-time code generation).
        A traced value stored there must also stay inside the trace: the owner is traced (its parameters are
        pytrees jit rebuilt for this trace, its locals are made in it) and nothing of the owner reads the
        container after the loop that stored into it (a tracer read there would have escaped its body)."""
        owner = fn.parent
        if owner is None or name not in owner.local_names or not fn.traces:
            return False
        sites = [t.node for t in fn.traces]
        if any(t.provenance is not Provenance.LAX_BODY or t.node is None
               or self.scopes.enclosing_function(t.node) is not owner for t in fn.traces):
            return False
        if not stores_tracer:
            return True
        if not owner.traced:
            return False
        last = max((getattr(n, "end_lineno", 0) or 0, getattr(n, "end_col_offset", 0) or 0) for n in sites)
        return not any(isinstance(n, ast.Name) and n.id == name and (n.lineno, n.col_offset) > last
                       and not all(self._exclusive(n, site) for site in sites) for n in self.scopes.own_nodes(owner))

    def only_counted(self, name: str, fn: FunctionInfo) -> bool:
        """Whether the container `name`, which traced `fn` stores into, is a local of an enclosing function that
        counts its items and whose every read of it only does that: `len(traces)`, or the container a storing method is called on
        (`traces.append(state)`). Nothing then reads a stored value, so the tracer stored at trace time never
        escapes as a value, and storing once per trace is the point (a test proving a function compiles once).
        A module-level container is not trusted: other modules may import it and read what it holds."""
        owner = fn.parent
        while owner is not None and name not in owner.local_names:
            owner = owner.parent
        if owner is None:
            return False
        bindings = counted = 0
        for node in walk_nodes(owner.node):
            if not isinstance(node, ast.Name) or node.id != name or not self._resolves_to(node, owner):
                continue
            parent = self.scopes.parents.get(node)
            if isinstance(node.ctx, ast.Store):
                if not (isinstance(parent, ast.Assign) and parent.targets == [node]
                        and isinstance(parent.value, (ast.List, ast.Dict, ast.Set))):
                    return False  # bound from something else (a parameter's list, another container)
                bindings += 1
            elif isinstance(node.ctx, ast.Del):
                return False
            elif isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len" \
                    and parent.args == [node] and not self.scopes.is_local("len", owner):
                counted += 1
            elif isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in _STORING_METHODS \
                    and isinstance(self.scopes.parents.get(parent), ast.Call) \
                    and self.scopes.parents[parent].func is parent:  # type: ignore[attr-defined]
                continue  # stored into; the call's value (None) is not the container's
            else:
                return False  # read as a value: iterated, indexed, returned, passed on, compared
        return bindings > 0 and counted > 0 and name not in owner.params

    def _resolves_to(self, node: ast.Name, owner: FunctionInfo) -> bool:
        """Whether `node`, found in the body of `owner`, names `owner`'s own variable (not a nested function's)."""
        cur = self.scopes.enclosing_function(node)
        while cur is not None and cur is not owner:
            if node.id in cur.local_names and node.id not in cur.outer_names:
                return False
            cur = cur.parent
        return cur is owner

    def _exclusive(self, a: ast.AST, b: ast.AST | None) -> bool:
        """Whether `a` and `b` sit in different branches of one `if` (so they never run in the same run)."""
        chain: dict[int, ast.AST] = {}  # id(ancestor of b) -> the child of it on the way to b
        child: ast.AST | None = b
        cur = self.scopes.parents.get(b) if b is not None else None
        while cur is not None and child is not None:
            chain[id(cur)] = child
            child, cur = cur, self.scopes.parents.get(cur)
        child, cur = a, self.scopes.parents.get(a)
        while cur is not None:
            if id(cur) in chain:
                other = chain[id(cur)]
                if isinstance(cur, ast.If):
                    return (child in cur.body and other in cur.orelse) or (child in cur.orelse and other in cur.body)
                return False
            child, cur = cur, self.scopes.parents.get(cur)
        return False

    def _declared_write(self, node: ast.Name, fn: FunctionInfo) -> SideEffect | None:
        """A store to a name declared `global`/`nonlocal` in traced `fn`."""
        if not self.outlives_trace(node.id, fn):
            return None  # a nonlocal of an enclosing function under the same trace
        if any(other is not fn and any(isinstance(n, ast.Name) and n.id == node.id and isinstance(n.ctx, ast.Load)
                                       for n in self.scopes.own_nodes(other))
               for other in self.traced.custom_rule_group(fn)):
            return None  # a custom_vjp fwd rule leaving a value (flax's scopes_treedef) for its bwd rule
        if any(isinstance(d, ast.Call) and any(k.arg == node.id for k in d.keywords)
               for d in getattr(fn.node, "decorator_list", ())):
            # a decorator given the global by name (axnt's `@restores(count=zeros(()))`) manages it: it puts the
            # value in before each call and takes it back after, within the same trace; what it does is its own
            return None
        stmt = self.scopes.parents.get(node)
        cached = self.model.traced.cached(fn)
        if isinstance(stmt, ast.AugAssign):
            if not cached:
                # under jax.grad/vmap alone the body runs on every call: the write happens each time, and it
                # stores a tracer only when its value is one
                return SideEffect(node, fn, "writes", node.id, True) if self._carries_traced(stmt.value, fn) else None
            kinds = {self.kinds.kind_of(stmt.value, fn), self._outer_kind(node.id, fn)}
            kind = Kind.JAX if not kinds.isdisjoint(_TRACED_KINDS) else (
                Kind.PYTHON if kinds == {Kind.PYTHON} else Kind.UNKNOWN)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None and node in (
                stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
            if self._carries_traced(stmt.value, fn):
                kind = Kind.JAX
            elif not cached:
                # traced anew on every call (jax.grad/vmap alone): a value that is no tracer (`lambdas =
                # jnp.zeros(n)`, an argument grad does not differentiate) is written on every call, as eagerly
                return None
            else:
                kind = self.kinds.kind_of(stmt.value, fn)
        else:
            return None  # a loop target, a `with ... as`, an unpacking: not told
        if kind in _TRACED_KINDS:
            return SideEffect(node, fn, "writes", node.id, True)
        if kind in (Kind.PYTHON, Kind.CONTAINER) and not any(w in node.id.lower() for w in _TRACE_COUNTER_WORDS) \
                and not self.once_only_init(node, fn):
            return SideEffect(node, fn, "writes", node.id, False)
        return None

    def once_only_init(self, node: ast.Name, fn: FunctionInfo) -> bool:
        """Whether a write of a global/nonlocal name is guarded by a test of that name: `if _CACHE is None:
        _CACHE = {}`, `if not _warned: ...; _warned = True`. A once-only initialisation or flag, meant to happen
        once: neither a side effect to report nor a change that makes the global stale."""
        child: ast.AST = node
        cur = self.scopes.parents.get(node)
        while cur is not None:
            if isinstance(cur, ast.If) and child is not cur.test and _tests_name(cur.test, node.id):
                return True
            if isinstance(child, ast.stmt) and (_after_exit_guard(child, cur, node.id)
                                                or _after_load_once_guard(child, cur, fn)):
                return True  # `if _warned: return` earlier in the block, then `_warned = True`: a latch
            if cur is fn.node:
                break
            child, cur = cur, self.scopes.parents.get(cur)
        return False

    def _outer_kind(self, name: str, fn: FunctionInfo) -> Kind:
        return self.kinds.module_env.get(name, Kind.UNKNOWN) if fn.parent is None else Kind.UNKNOWN

    def _value_computes(self, call: ast.Call, fn: FunctionInfo) -> bool:
        """Whether the value `next(...)` returns enters computation: used directly other than in string formatting,
        or bound to a name some read of which is not string formatting (`step = next(STEP)` then `lr * step`).
        Formatting only (`f'b{next(ids)}'`, `name = f'layer{next(ids)}'`) makes unique names at trace time."""
        parent = self.scopes.parents.get(call)
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            name = parent.targets[0].id
            reads = [n for n in self.scopes.own_nodes(fn)
                     if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
            return any(not self._formatted(n) for n in reads)
        return not self._formatted(call)

    def _formatted(self, node: ast.AST) -> bool:
        """`node` is a value formatted into a string: an f-string's field, `str(node)`, `'%d' % node`."""
        parent = self.scopes.parents.get(node)
        if isinstance(parent, ast.FormattedValue):
            return True
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "str":
            return True
        return isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mod) and isinstance(
            parent.left, ast.Constant) and isinstance(parent.left.value, str)

    def _is_iterator(self, name: str, fn: FunctionInfo, *, counter_value_computes: bool = False) -> bool:
        """Every binding of `name` in the scope that owns it makes an iterator: `iter(...)`, `map/zip/...`, a
        generator expression, `itertools.*`, or a call of a generator function of this module. An
        `itertools.count()` counts only when the value advanced from it enters computation (`counter_value_computes`):
        its numbers baked in at trace time then repeat on every call (a step counter); formatted into names they are
        the trace's unique names, meant to run at trace time."""
        owner: FunctionInfo | None = fn
        while owner is not None and name not in owner.local_names:
            owner = owner.parent
        values: list[ast.AST] = []
        for node in self.scopes.own_nodes(owner):
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
                stmt = self.scopes.parents.get(node)
                if not isinstance(stmt, ast.Assign) or node not in stmt.targets:
                    return False
                values.append(stmt.value)
        return bool(values) and all(self._makes_iterator(v, owner, counter_value_computes) for v in values)

    def _makes_iterator(self, value: ast.AST, scope: FunctionInfo | None, counter_value_computes: bool = False) -> bool:
        if isinstance(value, ast.GeneratorExp):
            return True
        if not isinstance(value, ast.Call):
            return False
        if isinstance(value.func, ast.Name) and value.func.id in _ITERATOR_MAKERS and (
                scope is None or not self.scopes.is_local(value.func.id, scope)):
            return True
        q = self.scopes.qualname(value.func, scope)
        if q is not None and q.startswith("itertools."):
            return q != "itertools.count" or counter_value_computes

        target = self.scopes.resolve_function(value.func, scope)
        return target is not None and not isinstance(target.node, ast.Lambda) and any(
            isinstance(n, (ast.Yield, ast.YieldFrom)) for n in self.scopes.own_nodes(target))


def _own_trace(fn: FunctionInfo) -> bool:
    """Traced by a transformation of its own (not only because it is defined in, or called from, traced code)."""
    return any(not t.indirect for t in fn.traces)


def _candidates(model: SideEffects, fn: FunctionInfo) -> list[ast.AST]:
    """The nodes of a function's own body that could change state outside its trace (in body order):
    `next(...)` and `x.append(...)`-like calls, stores into subscripts and attributes, writes to names it declares
    `global`/`nonlocal`. Which of them do is for `_effects_of` to tell."""
    own = model.scopes.own_nodes(fn)
    declared = {name for node in own if isinstance(node, (ast.Global, ast.Nonlocal)) for name in node.names}
    candidates: list[ast.AST] = []
    for node in own:
        if isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Name) and func.id in _HOST_TAILS_OR_NEXT) or (
                    isinstance(func, ast.Attribute) and (func.attr in _STORING_METHODS or func.attr in _HOST_TAILS)):
                candidates.append(node)
        elif (isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store)) or (
                isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id in declared):
            candidates.append(node)
    return candidates


def _tests_name(test: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in walk_nodes(test))


def _after_exit_guard(stmt: ast.stmt, parent: ast.AST, name: str) -> bool:
    """Whether an earlier statement of `stmt`'s block is `if <test of name>: ... return` (or `raise`): an
    early-exit guard on the name, so the statement runs only while the name's state lets it (`if _warned:
    return` before `_warned = True`)."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and stmt in block:
            return any(isinstance(s, ast.If) and _tests_name(s.test, name) and _always_exits(s.body)
                       for s in block[:block.index(stmt)])
    return False


def _after_load_once_guard(stmt: ast.stmt, parent: ast.AST, fn: FunctionInfo) -> bool:
    """Whether `stmt` follows a load-once guard in the function's own body: `if _lib is not None: return _lib`
    on a global the function sets later in that body (`_lib = ext`), so everything between runs until the first
    call completes, once (jaxamg's `_ensure_backend` sets `HAS_MPI` there)."""
    if parent is not fn.node or not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = fn.node.body
    if stmt not in body:
        return False
    declared = {name for s in body if isinstance(s, ast.Global) for name in s.names}
    at = body.index(stmt)
    for i, guard in enumerate(body[:at]):
        if not (isinstance(guard, ast.If) and _always_exits(guard.body) and not guard.orelse):
            continue
        for name in declared:
            if _tests_name(guard.test, name) and any(
                    isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
                    for s in body[i + 1:]):
                return True
    return False


def _always_exits(block: list[ast.stmt]) -> bool:
    return bool(block) and isinstance(block[-1], (ast.Return, ast.Raise))


def _transforms_bound_method(site: TraceSite, name: str) -> bool:
    """The transformation (or lax primitive) was applied to `self.<name>`: the method runs with `self` bound, the
    caller's own object, not an argument rebuilt from leaves."""
    call = site.node
    if not isinstance(call, ast.Call):
        return False
    return any(isinstance(a, ast.Attribute) and a.attr == name and isinstance(a.value, ast.Name)
               and a.value.id == "self" for a in [*call.args, *(kw.value for kw in call.keywords)])
