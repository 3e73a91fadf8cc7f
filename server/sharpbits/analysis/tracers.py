"""Where a value is a tracer without a value: the question behind every "Python needs a concrete value here" sharp
bit (a Python `if` on it, `print(x)`, `float(x)`, `np.exp(x)`).

A value is such a tracer when it is a JAX array (kind JAX or JAX_MASK), or a mutable reference (REF) to one, read
from a name bound inside the trace (the traced function's parameters and what it computes from them, or a traced
enclosing function's), in a function traced with abstract values (FunctionInfo.abstract: jit, vmap, pmap,
scan/cond/while bodies, checkpoint, eval_shape, ... and their helpers; not `jax.grad` alone, which runs on concrete
values; nor `jax.custom_vjp`/`custom_jvp` alone, which run on the caller's arrays), outside a
`with jax.ensure_compile_time_eval():` block. Arrays read from the module or from an eager
enclosing function are concrete, and a value of unknown kind is never called a tracer.
"""

from __future__ import annotations

import ast

from sharpbits.analysis.facts import Fact
from sharpbits.analysis.kinds import ARRAY_STATIC_ATTRS, ARRAYS, Kind
from sharpbits.analysis.scopes import FunctionInfo, Scopes
from sharpbits.analysis.syntax import literal_value, walk_nodes
from sharpbits.analysis.traced import CONCRETE_TRANSFORMS, NOT_DIFFERENTIATING, TRANSFORMS, Provenance

# Inside a trace a reference holds a traced array: printing or testing it shows a tracer, as for the array.
_TRACED_KINDS = ARRAYS | {Kind.REF}
# Calls whose value exists only inside a trace, whatever they are given: a Pallas kernel's grid position, a mapped
# axis's index (jax 0.10.2: `if pl.program_id(0) == 0` raises TracerBoolConversionError, also with interpret=True)
TRACE_ONLY_VALUES = {"jax.experimental.pallas.program_id", "jax.lax.axis_index"}
COMPILE_TIME_EVAL = {"jax.ensure_compile_time_eval", "jax.core.ensure_compile_time_eval"}
# The class every tracer is an instance of: `isinstance(x, jax.core.Tracer)` is True for each traced value
TRACER_CLASSES = {"jax.core.Tracer", "jax._src.core.Tracer"}
# classes no tracer is an instance of: `isinstance(x, np.ndarray)` (or a Python number) is True only for a value
# that is not traced (under `jit` every array argument is a tracer, so such a branch is one no trace takes)
CONCRETE_CLASSES = {"numpy.ndarray", "numpy.generic", "numpy.number", "int", "float", "complex", "bool"}
# Custom derivative rules are not tracing transformations: `jax.custom_vjp(f)(x)` called eagerly runs `f` on the
# caller's arrays, and under `jax.grad` JAX calls the rules with concrete primals and cotangents. Only a trace
# around the call (jit, vmap, scan, ...) makes them tracers.
CUSTOM_DERIVATIVES = {"jax.custom_jvp", "jax.custom_vjp"}


class TracerValues(Fact):
    """The tracer part of ModuleModel (see model.py)."""

    _eager_uses: dict[str, bool] | None = None

    def __init__(self, model) -> None:  # model.ModuleModel (which imports this module)
        super().__init__(model)
        self._asking: set[tuple[int, str]] = set()  # concrete_parameter's questions in progress (recursion)

    def is_tracer(self, expr: ast.AST, scope: FunctionInfo | None, *, concrete_traces: bool = False) -> bool:
        """Whether `expr`, evaluated in `scope`, is a traced JAX value with no concrete value behind it.
        `concrete_traces=True` also counts functions traced only by grad/jvp (their tracers carry values, but
        `float(x)` and NumPy still refuse them)."""
        if scope is None or not scope.traced or not (scope.abstract or concrete_traces):
            return False
        if self.runs_on_values(scope):
            return False
        if self.kinds.kind_of(expr, scope) not in _TRACED_KINDS or self.in_compile_time_eval(expr):
            return False
        if self.in_caller_dependent_branch(expr, scope) or self.in_concrete_only_branch(expr, scope) or (
                self.in_identity_branch_of_tracer(expr, scope)):
            return False
        if not scope.abstract:  # under grad alone only the differentiated arguments are tracers
            differentiated = self.differentiated_params(scope)
            return any(isinstance(n, ast.Name) and n.id in differentiated for n in walk_nodes(expr))
        return self.reads_traced_name(expr, scope)

    def differentiated_params(self, fn: FunctionInfo) -> set[str]:
        """The parameters `jax.grad`-like transformations differentiate (`argnums`, default the first); the others
        are passed through as they are. Empty when `fn` is not differentiated directly or `argnums` is computed."""
        positional = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]]
        found: set[str] = set()
        for site in fn.traces:
            if site.transform not in CONCRETE_TRANSFORMS or site.transform in NOT_DIFFERENTIATING or (
                    site.transform in CUSTOM_DERIVATIVES):
                continue
            argnums: object = 0
            node = site.node
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if kw.arg == "argnums":
                        argnums = literal_value(kw.value)
            nums = [argnums] if isinstance(argnums, int) else list(argnums) if isinstance(argnums, tuple) else []
            found.update(positional[i] for i in nums if isinstance(i, int) and -len(positional) <= i < len(positional))
        return found

    def runs_on_values(self, fn: FunctionInfo, seen: frozenset[int] = frozenset()) -> bool:
        """Whether `fn` is traced only as a `jax.custom_vjp`/`custom_jvp` function (or as a helper called from, or
        defined in, one), with nothing in the module tracing it abstractly: it then runs on the arrays its caller
        passes (eagerly, or as a rule under `jax.grad`), never on tracers without values."""
        if fn.abstract or not fn.traces or id(fn) in seen:
            return False
        # `jax.grad(f)` of a custom-derivative function calls its rules, which see concrete primals
        custom = any(site.transform in CUSTOM_DERIVATIVES for site in fn.traces)
        for site in fn.traces:
            if site.indirect:
                caller = self.scopes.enclosing_function(site.node) if (
                    site.provenance is Provenance.CALLED_FROM and site.node is not None) else fn.parent
                if caller is None or not self.runs_on_values(caller, seen | {id(fn)}):
                    return False
            elif not (custom and site.transform in CONCRETE_TRANSFORMS):
                return False
        return True

    def reads_traced_name(self, expr: ast.AST, scope: FunctionInfo) -> bool:
        """Whether `expr` reads a JAX-array name bound in the traced function (or a function it is nested in),
        not one closed over from the module (a concrete array), and not only through `.shape`/`.dtype`/`len()`."""
        for node in walk_nodes(expr):
            if (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and self.kinds.kind_at(node) in _TRACED_KINDS
                    and self.bound_in_trace(node.id, scope) and not self._static_use(node)
                    and not self.concrete_parameter(node.id, scope)):
                return True
            if isinstance(node, ast.Call) and self.scopes.qualname(node.func, scope) in TRACE_ONLY_VALUES:
                return True
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and isinstance(node.ctx, ast.Load)
                    and self.kinds.kind_of(node, scope) in _TRACED_KINDS):
                holder = node.value.id
                if self.traced_receiver(scope) if holder == "self" else (
                        self.bound_in_trace(holder, scope) and holder not in scope.static_params
                        and not self.concrete_parameter(holder, scope)):
                    return True  # `self.temperature` of a module the trace receives, `opt_state.mini_step`
        return False

    def traced_receiver(self, scope: FunctionInfo) -> bool:
        """Whether `self` in this method (or a function nested in it) is an object the trace receives as an
        argument, so that its array fields are tracers: every site tracing the method is a call `p(...)` or
        `p.m(...)` in a function a transformation traces directly, `p` one of its parameters and not a static one
        (an Equinox or NNX module handed to a jitted step: `eqx.filter_jit` and `nnx.jit` trace every array leaf;
        checked on jax 0.10.2 / equinox 0.13.8: `if self.temperature > 1.0:` raises TracerBoolConversionError).
        Not a model the traced code closes over (its arrays are constants) nor `jax.jit(self.method)`."""
        method = scope.outermost
        if method.params[:1] != ["self"] or not method.traces:
            return False
        for site in method.traces:
            call = site.node
            if site.provenance is not Provenance.CALLED_FROM or not isinstance(call, ast.Call):
                return False
            func = call.func
            receiver = func.value if isinstance(func, ast.Attribute) else func
            caller = self.scopes.enclosing_function(call)
            if (not isinstance(receiver, ast.Name) or caller is None or not caller.abstract
                    or receiver.id not in caller.params or receiver.id in caller.static_params
                    or not caller.traces or any(t.indirect or t.statics_unknown for t in caller.traces)
                    or self.kinds.kind_of(receiver, caller) is Kind.PYTHON):
                return False
        return True

    def concrete_parameter(self, name: str, scope: FunctionInfo) -> bool:
        """Whether `name` is a parameter of a helper that is traced only because traced code calls it, and every
        such call hands it a value that is no tracer (`jax.vmap(lambda y0: solve(field, ts, y0))` with `ts` a
        concrete array the lambda closes over: `float(ts[0])` in `solve` reads a number)."""
        if name not in scope.params or not scope.traces or isinstance(scope.node, ast.Lambda) or any(
                site.provenance is not Provenance.CALLED_FROM for site in scope.traces):
            return False
        key = (id(scope), name)
        if key in self._asking:
            return False
        calls = self.traced.calls_from_traced(scope)
        if not calls:
            return False
        positional = [p.arg for p in [*scope.node.args.posonlyargs, *scope.node.args.args]]
        if "." in scope.qualname and positional[:1] in (["self"], ["cls"]):
            return False  # a method: which argument lands where depends on how it is called
        self._asking.add(key)
        try:
            for caller, call in calls:
                arg = next((kw.value for kw in call.keywords if kw.arg == name), None)
                if arg is None and name in positional:
                    index = positional.index(name)
                    if any(isinstance(a, ast.Starred) for a in call.args[: index + 1]) or index >= len(call.args):
                        return False
                    arg = call.args[index]
                if arg is None or not self._surely_concrete(arg, caller):
                    return False
            return True
        finally:
            self._asking.discard(key)

    def _surely_concrete(self, arg: ast.AST, caller: FunctionInfo) -> bool:
        """An argument known to hold no tracer: a Python value, or names only (`ts`, `grid.points`) bound outside
        the trace (a closed-over array) and themselves no tracer; a call's result or a value of unknown origin is
        not known to be concrete."""
        if self.kinds.kind_of(arg, caller) is Kind.PYTHON:
            return True
        names = [n for n in walk_nodes(arg) if isinstance(n, ast.Name)]
        return bool(names) and not any(isinstance(n, (ast.Call, ast.Lambda)) for n in walk_nodes(arg)) and all(
            not self.bound_in_trace(n.id, caller) or self.concrete_parameter(n.id, caller) for n in names)

    def bound_in_trace(self, name: str, scope: FunctionInfo) -> bool:
        """Whether the name `scope` reads is bound inside the trace: in `scope` itself or in an enclosing function
        that is traced too. A name bound in an enclosing function that runs eagerly (a factory or driver that
        defines the traced function) holds a concrete value when the trace reads it, like a module-level one."""
        cur: FunctionInfo | None = scope
        while cur is not None:
            if name in cur.local_names:
                return cur is scope or cur.traced
            cur = cur.parent
        return False

    def _static_use(self, name: ast.Name) -> bool:
        parent = self.scopes.parents.get(name)
        if isinstance(parent, ast.Attribute) and parent.attr in ARRAY_STATIC_ATTRS:
            return True  # x.shape, x.dtype
        return (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len"
                and name in parent.args)

    def in_caller_dependent_branch(self, node: ast.AST, scope: FunctionInfo) -> bool:
        """`if block_state is None:` inside a function that the module both runs as it is and compiles
        (`f_jit = jax.jit(f)` next to a plain use of `f`): whether that branch ever runs under the trace depends on
        what each caller passes (jaxns only compiles it with a block_state), so what it does there is unknown."""
        if not self.runs_eagerly_too(scope):
            return False
        params = set(scope.params)
        child, cur = node, self.scopes.parents.get(node)
        while cur is not None and cur is not scope.node:
            if isinstance(cur, (ast.If, ast.IfExp)) and child is not cur.test and _none_check(cur.test, params):
                return True
            child, cur = cur, self.scopes.parents.get(cur)
        return False

    def in_identity_branch_of_tracer(self, node: ast.AST, scope: FunctionInfo) -> bool:
        """`node` in the body of `if flag is True:` (or `is False`) where `flag` is a parameter of the traced
        function that its transformation traces: a tracer is never the object True or False, so the branch is
        not taken while tracing (checked on jax 0.10.2: under `jax.jit`, `validate is True` is False for
        `validate=True` passed as an argument)."""
        child, cur = node, self.scopes.parents.get(node)
        while cur is not None and cur is not scope.node:
            if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                return False
            test = cur.test if isinstance(cur, (ast.If, ast.IfExp)) else None
            if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is)
                    and isinstance(test.left, ast.Name) and isinstance(test.comparators[0], ast.Constant)
                    and isinstance(test.comparators[0].value, bool) and child is not test
                    and (child in cur.body if isinstance(cur, ast.If) else child is cur.body)):  # type: ignore[attr-defined]
                name = test.left.id
                if (name in scope.params and name not in scope.static_params
                        and self.kinds.kind_of(test.left, scope) in _TRACED_KINDS
                        and not self.concrete_parameter(name, scope)):
                    return True
            child, cur = cur, self.scopes.parents.get(cur)
        return False

    def in_concrete_only_branch(self, expr: ast.AST, scope: FunctionInfo) -> bool:
        """`if isinstance(finite, jax.core.Tracer): ... elif not bool(finite):` (jaxgsa's ridge solve, traced in
        cross-validation and run eagerly for the final fit): the `elif` runs only when `finite` is no tracer, so
        `bool(finite)` there never sees one. True when every name `expr` reads (other than through `.shape`, and
        other than modules and called functions) is such a guarded name, with no other assignment to it in
        `scope`: `expr` in a branch of an `if` (or ternary) of `scope`'s own code whose test proves it no tracer
        there, after an `if` whose body returns or raises and whose test proves it no tracer past it
        (`if isinstance(x, Tracer): return x`), or after the operands of an `and`/`or` that prove it
        (`not isinstance(x, Tracer) and bool(x)`); a test may read a name bound once to such a test (`traced =
        any(isinstance(v, jax.core.Tracer) for v in jax.tree.leaves((value, ok)))`, then `if not traced and
        not bool(ok):`: lmhdx's certified solves)."""
        read = {n.id for n in walk_nodes(expr) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                and not self._static_use(n) and not self._module_or_callee(n, scope)}
        if not read:
            return False
        guards: list[tuple[set[str], int]] = []  # (names proven no tracers, the line of the test proving it)
        child, cur = expr, self.scopes.parents.get(expr)
        while cur is not None and cur is not scope.node:
            if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                return False  # a nested function's code: run whenever it is called
            if isinstance(cur, (ast.If, ast.IfExp)) and child is not cur.test:
                in_body = child in cur.body if isinstance(cur, ast.If) else child is cur.body
                guards.append((self._no_tracers_when(cur.test, scope, in_body), cur.lineno))
            elif isinstance(cur, ast.BoolOp) and child in cur.values:
                holds = isinstance(cur.op, ast.Or)  # an `and` evaluates `child` only when the ones before held
                for earlier in cur.values[:cur.values.index(child)]:
                    guards.append((self._no_tracers_when(earlier, scope, not holds), cur.lineno))
            guards += self._returned_before(child, cur, scope)
            child, cur = cur, self.scopes.parents.get(cur)
        if cur is not None:
            guards += self._returned_before(child, cur, scope)
        if not all(any(name in names for names, _ in guards) for name in read):
            return False  # (most calls end here: the stores are looked at only for a guarded name)
        last_store: dict[str, int] = {}  # a name bound again at or after a guard's test is not what it proved
        for n in self.scopes.own_nodes(scope):
            if isinstance(n, ast.Name) and n.id in read and not isinstance(n.ctx, ast.Load):
                last_store[n.id] = max(last_store.get(n.id, 0), n.lineno)
        return all(any(name in names and last_store.get(name, 0) < line for names, line in guards) for name in read)

    def _returned_before(self, child: ast.AST, block_owner: ast.AST, scope: FunctionInfo) -> list[tuple[set[str], int]]:
        """The guards of the `if test: ... return` (or `raise`) statements, with no `else`, before `child` in its
        block of `block_owner`: past each, its test did not hold."""
        found = []
        for block in ("body", "orelse", "finalbody"):
            statements = getattr(block_owner, block, None)
            if isinstance(statements, list) and child in statements:
                for earlier in statements[:statements.index(child)]:
                    if (isinstance(earlier, ast.If) and not earlier.orelse and earlier.body
                            and isinstance(earlier.body[-1], (ast.Return, ast.Raise))):
                        found.append((self._no_tracers_when(earlier.test, scope, False), earlier.lineno))
        return found

    def _module_or_callee(self, name: ast.Name, scope: FunctionInfo) -> bool:
        parent = self.scopes.parents.get(name)
        return (isinstance(parent, ast.Call) and parent.func is name) or self.scopes.qualname(name, scope) is not None

    def _no_tracers_when(self, test: ast.AST, scope: FunctionInfo, holds: bool, depth: int = 0) -> set[str]:
        """The names `test` proves to be no tracers when it evaluates to `holds`: `isinstance(name, Tracer)` when
        false, `isinstance(name[0], np.ndarray)` (or a Python number) when true, `any(isinstance(v, Tracer) for v
        in (a, b.c))` (or over `jax.tree.leaves((a, b))`) when false, `not` of one, every operand of an `and`
        that holds or an `or` that does not, a name bound once in `scope` to one."""
        if depth > 4:
            return set()
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._no_tracers_when(test.operand, scope, not holds, depth + 1)
        if isinstance(test, ast.BoolOp):
            if holds is isinstance(test.op, ast.And):
                return set().union(*(self._no_tracers_when(v, scope, holds, depth + 1) for v in test.values))
            return set()
        if isinstance(test, ast.Name):
            value = self.traced.bound_once(test.id, scope) if test.id not in scope.params else None
            return self._no_tracers_when(value, scope, holds, depth + 1) if value is not None else set()
        if not isinstance(test, ast.Call) or not isinstance(test.func, ast.Name):
            return set()
        if test.func.id == "any" and not holds and len(test.args) == 1 and isinstance(
                test.args[0], ast.GeneratorExp) and len(test.args[0].generators) == 1:
            gen = test.args[0]
            comp = gen.generators[0]
            if (isinstance(comp.target, ast.Name) and not comp.ifs and isinstance(gen.elt, ast.Call)
                    and self._tracer_isinstance(gen.elt, scope) == comp.target.id):
                return _iterated_names(comp.iter, self.scopes, scope)
            return set()
        if test.func.id != "isinstance" or len(test.args) != 2 or test.keywords:
            return set()
        if not holds:
            tested = self._tracer_isinstance(test, scope)
            return {tested} if tested is not None else set()  # the else of `isinstance(x, Tracer)`
        subject = test.args[0]
        classes = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
        names = {self.scopes.qualname(c, scope) or (c.id if isinstance(c, ast.Name) else "") for c in classes}
        if names <= CONCRETE_CLASSES:
            # the body of `isinstance(x[0], np.ndarray)`: the value (and so the argument it is part of) is no tracer
            while isinstance(subject, (ast.Subscript, ast.Attribute)):
                subject = subject.value
            return {subject.id} if isinstance(subject, ast.Name) else set()
        return set()

    def _tracer_isinstance(self, call: ast.Call, scope: FunctionInfo) -> str | None:
        """The name `isinstance(name, jax.core.Tracer)` asks about, or None."""
        if (isinstance(call.func, ast.Name) and call.func.id == "isinstance" and len(call.args) == 2
                and isinstance(call.args[0], ast.Name) and not call.keywords):
            classes = call.args[1].elts if isinstance(call.args[1], ast.Tuple) else [call.args[1]]
            if {self.scopes.qualname(c, scope) or "" for c in classes} <= TRACER_CLASSES:
                return call.args[0].id
        return None

    def runs_eagerly_too(self, fn: FunctionInfo) -> bool:
        """A module-level function compiled in call form (`jax.jit(f, ...)`) whose name is also used otherwise
        (called, or bound to another name) in this module: some of its runs are not traced."""
        if fn.parent is not None or isinstance(fn.node, ast.Lambda) or fn.node.decorator_list:
            return False
        if self._eager_uses is None:  # module-level function name -> used otherwise than wrapped
            self._eager_uses = {}
            for name in self.scopes.nodes(ast.Name):
                assert isinstance(name, ast.Name)
                if not isinstance(name.ctx, ast.Load) or name.id not in self.scopes.module_functions:
                    continue
                parent = self.scopes.parents.get(name)
                wrapped = isinstance(parent, ast.Call) and parent.args[:1] == [name] and (
                    self.scopes.qualname(parent.func, self.scopes.enclosing_function(parent)) in TRANSFORMS)
                outside = self.scopes.enclosing_function(name) is not self.scopes.module_functions[name.id]
                if not wrapped and outside:
                    self._eager_uses[name.id] = True
        return self._eager_uses.get(fn.name, False)

    def in_compile_time_eval(self, node: ast.AST) -> bool:
        """Whether `node` runs inside `with jax.ensure_compile_time_eval():`, where JAX computes concrete values."""
        cur = self.scopes.parents.get(node)
        while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if isinstance(cur, (ast.With, ast.AsyncWith)):
                scope = self.scopes.enclosing_function(cur)
                for item in cur.items:
                    ctx = item.context_expr
                    if self.scopes.qualname(ctx.func if isinstance(ctx, ast.Call) else ctx, scope) in COMPILE_TIME_EVAL:
                        return True
            cur = self.scopes.parents.get(cur)
        return False

    def bool_operands(self, test: ast.AST) -> list[ast.AST]:
        """The parts of a condition Python turns into a bool: `a and not b` -> [a, b] (each through `__bool__`)."""
        if isinstance(test, ast.BoolOp):
            return [leaf for value in test.values for leaf in self.bool_operands(value)]
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.bool_operands(test.operand)
        return [test]

    def traced_condition(self, test: ast.AST, scope: FunctionInfo | None) -> ast.AST | None:
        """The first part of a condition (`if`/`while`/ternary/`assert` test) that is a tracer, or None."""
        return next((leaf for leaf in self.bool_operands(test) if self.is_tracer(leaf, scope)), None)


def _iterated_names(expr: ast.AST, scopes: Scopes, scope: FunctionInfo) -> set[str]:
    """The names whose values (or parts: `b.c`) a tuple or list spells, also through `jax.tree.leaves(...)`."""
    if isinstance(expr, ast.Call) and len(expr.args) == 1 and (scopes.qualname(expr.func, scope) or "") in (
            "jax.tree.leaves", "jax.tree_util.tree_leaves", "jax.tree_leaves"):
        expr = expr.args[0]
        if isinstance(expr, ast.Name):
            return {expr.id}
    if not isinstance(expr, (ast.Tuple, ast.List)):
        return set()
    found = set()
    for elt in expr.elts:
        while isinstance(elt, ast.Attribute):
            elt = elt.value
        if not isinstance(elt, ast.Name):
            return set()
        found.add(elt.id)
    return found


def _none_check(test: ast.AST, params: set[str]) -> bool:
    """`p is None`, `p is not None` (also inside `and`/`or`/`not`) on a parameter: a question the caller answers."""
    for node in walk_nodes(test):
        if (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot))
                and isinstance(node.left, ast.Name) and node.left.id in params
                and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None):
            return True
    return False
