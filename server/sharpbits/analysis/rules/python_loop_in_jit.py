"""SB301 python-loop-in-jit: a Python `for` over a range, or a `while`, inside traced code."""

from __future__ import annotations

import ast

from sharpbits.analysis.measured import Confirmation, Measured, TraceConfirmations
from sharpbits.analysis.model import ARRAYS, Fact, FunctionInfo, Kind, ModuleModel, literal_int
from sharpbits.analysis.records import holder_class, unreplaced_default
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.syntax import parameter_defaults, walk_nodes
from sharpbits.analysis.tracers import TracerValues
from sharpbits.findings import Finding, Severity
from sharpbits.trace.render import duration  # (standard library only)

SMALL_TRIP_COUNT = 10  # at or below this, unrolling is cheap: reported as info, not a warning
SMALL_LITERAL_CONTAINER = 16
LARGE_COMPREHENSION = 100  # a comprehension of more elements than this in compiled code: a warning, else info
LARGE_LOOP_EQUATIONS = 500  # measured: an unrolled loop this big is what makes compiles slow (raised to warning)
SMALL_LOOP_EQUATIONS = 50  # measured: below this the unrolling costs little (lowered to hint)
# A known count above SMALL_TRIP_COUNT is a warning when it is this large, or when the unrolled body is estimated
# at LARGE_LOOP_EQUATIONS or more; a shorter loop of a small body (a fixed 20-term series, 15 matmuls of a timing
# test, 20 meta-gradient steps: real code unrolls those on purpose) costs little: info
MANY_TRIPS = 32
_OPS_OF_AN_UNSEEN_CALL = 10  # a call of a helper or a layer: its body is not counted here, so it counts as ten


def estimated_equations(body: list[ast.stmt], model: ModuleModel, fn: FunctionInfo) -> int:
    """A static estimate of the jaxpr equations one pass of a loop body adds: one per arithmetic operation,
    comparison, subscript and `jax`/`jnp`/`lax` call, ten per call of anything else (a helper, a layer), and an
    inner loop's body times its known count (ten times when unknown)."""
    total = 0
    stack: list[tuple[ast.AST, int]] = [(stmt, 1) for stmt in body]
    while stack:
        node, times = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.For):
            call = range_call(node.iter, model, fn)
            count = trip_count(call, model, fn) if call is not None else None
            stack.extend((stmt, times * (count if count is not None else 10)) for stmt in node.body)
            stack.append((node.iter, times))
            continue
        if isinstance(node, (ast.BinOp, ast.Compare, ast.Subscript, ast.AugAssign)) or (
                isinstance(node, ast.UnaryOp) and not isinstance(node.operand, ast.Constant)):
            total += times
        elif isinstance(node, ast.Call):
            q = model.scopes.qualname(node.func, fn) or ""
            plain = q.startswith(("jax.", "numpy.", "math.")) or q in ("len", "range", "int", "float", "min", "max",
                                                                      "abs", "enumerate", "zip") or (
                isinstance(node.func, ast.Attribute) and node.func.attr in (
                    "set", "add", "get", "reshape", "astype", "sum", "mean", "transpose", "append"))
            total += times * (1 if plain else _OPS_OF_AN_UNSEEN_CALL)
        stack.extend((child, times) for child in ast.iter_child_nodes(node))
    return total


def known_count_severity(count: int, body: list[ast.stmt], model: ModuleModel, fn: FunctionInfo) -> Severity | None:
    """The severity of a loop of a known count above SMALL_TRIP_COUNT: None (the rule's warning) when it runs
    MANY_TRIPS times or more or unrolls LARGE_LOOP_EQUATIONS or more, else info."""
    if count >= MANY_TRIPS or count * estimated_equations(body, model, fn) >= LARGE_LOOP_EQUATIONS:
        return None
    return "info"


def range_call(node: ast.AST, model: ModuleModel, fn: FunctionInfo) -> ast.Call | None:
    """`range(...)`, also inside `enumerate(range(...))` and `reversed(range(...))`."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or model.scopes.is_local(node.func.id, fn):
        return None
    if node.func.id == "range" and node.args and not node.keywords:
        return node
    if node.func.id in ("enumerate", "reversed") and node.args:
        return range_call(node.args[0], model, fn)
    return None


def trip_count(call: ast.Call, model: ModuleModel | None = None, fn: FunctionInfo | None = None) -> int | None:
    """The number of iterations of `range(...)` when every bound is known: a literal, a module-level constant, or
    a static parameter whose every call site in this module (and its default) passes a literal (the largest)."""
    values = [_known_int(a, model, fn) for a in call.args]
    if any(v is None for v in values):
        return None
    start, stop, step = (0, values[0], 1) if len(values) == 1 else (values[0], values[1], values[2] if len(values) > 2 else 1)
    if step == 0 or start is None or stop is None or step is None:
        return None
    return max(0, len(range(start, stop, step)))


def _known_int(node: ast.AST, model: ModuleModel | None, fn: FunctionInfo | None) -> int | None:
    value = literal_int(node)
    if value is None and model is not None and fn is not None and isinstance(node, ast.Attribute):
        value = _set_once_in_init(node, model, fn)
        if value is None and isinstance(node.value, ast.Name):  # a record's field default (`cfg.n_iter`)
            value = model.fact(InitIntegers).across(node, _field_integer, fn.qualname, node.value.id, node.attr)
        return value
    if value is not None or model is None or fn is None or not isinstance(node, ast.Name):
        return value
    if not model.scopes.is_local(node.id, fn):
        constant = model.scopes.module_constant(node.id)
        return literal_int(constant) if constant is not None else None
    if node.id not in fn.static_params:
        return None
    passed = [literal_int(v) for v in model.traced.argument_values(fn, node.id)]
    known = [v for v in passed if v is not None]
    return max(known) if known and len(known) == len(passed) else None


def _set_once_in_init(node: ast.Attribute, model: ModuleModel, fn: FunctionInfo) -> int | None:
    """`self.steps` in a method, where the module stores `steps` on an object only once, in this class's
    `__init__` (`self.steps = steps`), from a literal or from a parameter of `__init__` whose every value in this
    module is a literal int (its default and the argument of each `Cls(...)` call): the largest. The answer reads
    the whole module (InitIntegers), so this statement's findings depend on it (Fact.across)."""
    method = fn.outermost
    if not (isinstance(node.value, ast.Name) and node.value.id == "self" and "." in method.qualname
            and method.params[:1] == ["self"]):
        return None
    cls = method.qualname.rsplit(".", 1)[0]
    return model.fact(InitIntegers).across(node, _init_integer, cls, node.attr)


def _init_integer(model: ModuleModel, cls: str, attr: str) -> int | None:
    return model.fact(InitIntegers).value(cls, attr)


def _field_integer(model: ModuleModel, qualname: str, holder: str, attr: str) -> int | None:
    """`range(self.num_steps)` in a linen module with `num_steps: int = 100`, `range(cfg.n_iter)` with `cfg` an
    object of a config dataclass declaring `n_iter: int = 200` (analysis/records.py: which record class `holder`
    holds in the function `qualname`): the literal default, when nothing in the module can replace it."""
    found = [f for f in model.scopes.functions.values() if f.qualname == qualname]
    cls = holder_class(model.scopes, model.traced, holder, found[0]) if len(found) == 1 else None
    default = unreplaced_default(model.scopes, cls, attr, lambda d: literal_int(d) is not None) if cls else None
    return literal_int(default) if default is not None else None


class InitIntegers(Fact):
    """The int an attribute holds when the module stores it on an object only once, in `Cls.__init__`, from
    literal ints (see `_set_once_in_init`). Reads every statement of the module: the stores of the attribute and
    the calls `Cls(...)`, indexed once per version (whatever view of the module a rule runs on)."""

    _stores: dict[str, list[ast.Attribute]] | None = None
    _calls: dict[str, list[ast.Call]] | None = None

    def value(self, cls: str, attr: str) -> int | None:
        scopes = self.scopes
        if self._stores is None:
            self._stores = {}
            for n in scopes.nodes(ast.Attribute):
                if isinstance(n.ctx, (ast.Store, ast.Del)):  # type: ignore[attr-defined]
                    self._stores.setdefault(n.attr, []).append(n)  # type: ignore[attr-defined, arg-type]
        stores = self._stores.get(attr, [])
        if len(stores) != 1:
            return None
        init = scopes.enclosing_function(stores[0])
        assign = scopes.parents.get(stores[0])
        if (init is None or init.qualname != f"{cls}.__init__" or init.parent is not None
                or isinstance(init.node, ast.Lambda) or not isinstance(assign, ast.Assign)
                or assign.targets != [stores[0]]):
            return None
        value = literal_int(assign.value)
        if value is not None or not (isinstance(assign.value, ast.Name) and assign.value.id in init.params[1:]):
            return value
        param = assign.value.id
        if param in init.local_names - set(init.params) or any(
                isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Store) for n in scopes.own_nodes(init)):
            return None
        positional = [p.arg for p in [*init.node.args.posonlyargs, *init.node.args.args]][1:]
        defaults = parameter_defaults(init.node.args)  # (`self` has none: the positions align from the end)
        values: list[ast.AST] = [defaults[param]] if param in defaults else []
        if self._calls is None:
            self._calls = {}
            for c in scopes.nodes(ast.Call):
                if isinstance(c.func, ast.Name):  # type: ignore[attr-defined]
                    self._calls.setdefault(c.func.id, []).append(c)  # type: ignore[attr-defined, arg-type]
        for call in self._calls.get(cls.rsplit(".", 1)[-1], []):
            if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                return None
            given = [k.value for k in call.keywords if k.arg == param]
            if param in positional and positional.index(param) < len(call.args):
                given.append(call.args[positional.index(param)])
            values.extend(given)
        known = [literal_int(v) for v in values]
        if not known or any(k is None for k in known):
            return None
        return max(k for k in known if k is not None)


def loop_rewrite(ctx: RuleContext, fn: FunctionInfo, loop: ast.For | ast.While):
    """The lax.fori_loop / lax.while_loop fix for this loop, or None and a note saying why it is not offered
    (also the fix of traced-control-flow's finding on a `while` whose condition is traced)."""
    from sharpbits.fixes.fori_loop import Refusal, plan_fori_loop, plan_while_loop

    try:
        if isinstance(loop, ast.For):
            plan = plan_fori_loop(ctx.source, ctx.model, fn, loop)
        else:
            plan = plan_while_loop(ctx.source, ctx.model, fn, loop)  # type: ignore[assignment]
    except Refusal as refusal:
        return None, f" (no automatic rewrite: {refusal})"
    source = ctx.source
    return (lambda: plan.fix(source)), ""


def _is_parameter(name: str, fn: FunctionInfo | None) -> bool:
    while fn is not None:
        if name in fn.params:
            return True
        fn = fn.parent
    return False


class PythonLoopInJit(Rule):
    code = "SB301"
    fix_is_refactoring = True  # "Rewrite as `lax.fori_loop`" on any traced loop under the cursor, even at info
    name = "python-loop-in-jit"
    severity = "warning"
    trace_hazard = True  # a branch no trace takes holds none (Rule.trace_hazard)
    reuse = "function"  # findings per function, reused across edits elsewhere (analysis/rule_results.py)
    messages = {
        "traced-range": (
            "`range()` of a traced value {where} raises TracerIntegerConversionError; use `lax.fori_loop`, or "
            "make the bound static (`static_argnums`)"
        ),
        "few": (
            "this loop is unrolled {count} times {where}; fine for a few iterations, `lax.fori_loop` keeps compile time "
            "flat{note}"
        ),
        "unknown-count": (
            "Python loop {where} is unrolled once per value of `{bound}`: fine for small counts, compile time "
            "grows with it{note}"
        ),
        "many": (
            "Python loop {where} is unrolled {count} times: compile time grows with the trip count; use "
            "`lax.fori_loop` or `lax.scan`{note}"
        ),
        "array-rows": (
            "iterating over a traced array {where} unrolls the loop over its first axis (once per row); use "
            "`lax.scan` or `jax.vmap`"
        ),
        "trace-unrolled": (
            "Python loop inside `{function}` is unrolled at trace time; use `lax.fori_loop` or `lax.scan` ({note})"
        ),
        "while": (
            "Python `while` loop {where} is unrolled at trace time, once per iteration; use `lax.while_loop` (or "
            "`lax.fori_loop` for a fixed count){note}"
        ),
    }
    summary = "Flags Python `for` loops over ranges or arrays, and `while` loops, inside traced code."
    why = """
Under `jit` (and `grad`, `vmap`, `scan` bodies, ...) Python runs only once, at trace time: a `for` loop is
**unrolled**, so the traced program contains one copy of the body per iteration. Compile time grows with the trip
count (a 1,000-iteration loop takes about a second to compile here, a `lax.fori_loop` twin 0.1 s), and the
compiled program grows with it.

A `while` on Python values unrolls like a `for` loop. (A `while` whose condition is a traced value cannot run at
all: that is `traced-control-flow`'s finding, which carries the same `lax.while_loop` rewrite.)

Loops over Python containers (`for layer in params:`) unroll over a fixed structure and are idiomatic, so they are
not flagged; neither are small loops over literal tuples or lists. Loops with a known trip count of 10 or fewer are
reported as info only, and so are loops of fewer than 32 iterations whose unrolled body is estimated under 500
equations (one per operation, ten per call of a helper or layer): a fixed 20-term series or the stages of a tableau,
which real code unrolls on purpose and which compile in well under a second. Eager (un-traced) code is never flagged.
A branch no trace takes is not flagged: in a helper that traced code only calls by name, an `if` whose test
reads parameters every traced call gives the same deciding literal (`pad(x, n, exact=False)`) runs only eagerly.

A count may come from a record's field default that nothing in the module replaces: `range(self.num_steps)` in
a linen module declaring `num_steps: int = 100`, `range(cfg.n_iter)` where `cfg` holds a config dataclass with
`n_iter: int = 200` (its class told by an annotation, by the `Cls(...)` callers pass, or by the fields the function
reads). A comprehension that only repeats a name (`[bl for _ in range(128)]`) adds no operation per element.
"""
    example = """
import jax
import jax.numpy as jnp

@jax.jit
def cumulative(x):
    total = jnp.zeros(())
    for i in range(x.shape[0]):
        total = total + x[i]
    return total
"""
    use_instead = """
import jax
import jax.numpy as jnp
from jax import lax

@jax.jit
def cumulative(x):
    def body(i, total):
        return total + x[i]
    return lax.fori_loop(0, x.shape[0], body, jnp.zeros(()))
"""
    fix_safety = """
`for i in range(...)` loops get a rewrite to `lax.fori_loop`: the loop-carried variables are found by dataflow
(assigned in the body and read in a later iteration or after the loop), read-only names are closed over, and
temporaries stay local. The body becomes a named function placed just before the loop, with its lines copied as
they are. Where the carry's shape or dtype could change after the first iteration (`total = 0` followed by
`total += x[i]`), the first iteration runs as plain Python before the `fori_loop`, exactly as the unrolled loop
ran it. The rewrite is refused, with the reason in the message, for `break`, `continue`, `return`/`yield` in the
loop, side effects on Python state (`list.append`, `print`, stores into containers), iteration over anything but
`range`, a loop variable read after the loop, or an index used as a Python value (`if i == 0`, `x[:i]`).

It is **unsafe**: floating-point results may differ within reassociation (XLA compiles a loop and an unrolled
sequence differently). Apply it with `sharpbits check --fix --unsafe-fixes --select python-loop-in-jit`.
"""
    VALID = [
        # enumerate over a parameter that may be a list of layers
        "import jax\n@jax.jit\ndef apply(layers, x):\n    for i, (w, b) in enumerate(layers):\n        x = jax.nn.relu(x @ w + b)\n"
        "    return x\n",
        # loops that only do Python work (axes, shapes, pytree structure) add nothing to the trace
        "import jax\n@jax.jit\ndef f(x):\n    axes = []\n    for i in range(x.ndim):\n        axes.append(i)\n"
        "    return x.sum(tuple(axes))\n",
        # jax.eval_shape / make_jaxpr only trace: nothing is compiled
        "import jax\ndef g(x):\n    for i in range(1000):\n        x = x + i\n    return x\nshape = jax.eval_shape(g, 1.0)\n",

        # loops over layers are idiomatic
        "import jax\n@jax.jit\ndef mlp(params, x):\n    for w, b in params:\n        x = jax.nn.relu(x @ w + b)\n    return x\n",
        # small literal containers
        "import jax\n@jax.jit\ndef f(x):\n    for scale in (1.0, 2.0, 4.0):\n        x = x * scale\n    return x\n",
        # eager code may loop
        "import jax.numpy as jnp\ndef f(x):\n    for i in range(1000):\n        x = x + i\n    return x\n",
        # lax.fori_loop already
        "import jax\nfrom jax import lax\n@jax.jit\ndef f(x):\n    return lax.fori_loop(0, 100, lambda i, c: c + i, x)\n",
        # a while on a traced condition is traced-control-flow's finding (one hazard, one finding)
        "import jax\n@jax.jit\ndef f(x):\n    while x.sum() > 1:\n        x = x / 2\n    return x\n",
        # loops in comprehensions over containers, and loops in nested eager helpers not called from jit
        "import jax\n@jax.jit\ndef f(xs):\n    return sum(x for x in xs)\ndef eager(n):\n    while n:\n        n -= 1\n",
    ]
    INVALID = [
        Invalid(  # a while bounded by a jitted function's defaulted parameter runs with the default (a call passing
            # n_steps makes the test a tracer, which raises): 400 iterations unrolled
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef solve(y0, dt=0.001, n_steps=400):\n    y, i = y0, 0\n"
            "    while i < n_steps:\n        y = y + dt * (-y + jnp.sin(y))\n        i += 1\n    return y\n",
        ),
        Invalid(  # a while counted by local literals has a known count: 300 iterations unrolled
            "import jax\n@jax.jit\ndef f(x):\n    it, max_iter = 0, 300\n    while it < max_iter:\n"
            "        x = x - 0.01 * x\n        it += 1\n    return x\n",
        ),
        Invalid(  # a dict carry rebuilt 200 times is array work, unrolled
            "import jax\n@jax.jit\ndef f(pos, vel):\n    state = {'pos': pos, 'vel': vel}\n    for _ in range(200):\n"
            "        state = {'pos': state['pos'] + 0.01 * state['vel'], 'vel': state['vel']}\n    return state\n",
            fixed=(
            'import jax\n'
            '@jax.jit\n'
            'def f(pos, vel):\n'
            "    state = {'pos': pos, 'vel': vel}\n"
            '    def loop_body(_, state):\n'
            "        state = {'pos': state['pos'] + 0.01 * state['vel'], 'vel': state['vel']}\n"
            '        return state\n'
            '\n'
            '    # the first iteration, as plain Python, gives the carry its shape and dtype\n'
            '    state = loop_body(0, state)\n'
            '    state = jax.lax.fori_loop(1, 200, loop_body, state)\n'
            '    return state\n'
            ),
        ),
        Invalid(
            "import jax\n@jax.jit\ndef f(x):\n    for i in range(1000):\n        x = x + i\n    return x\n",
            fixed="import jax\n@jax.jit\ndef f(x):\n    def loop_body(i, x):\n        x = x + i\n        return x\n\n"
            "    # the first iteration, as plain Python, gives the carry its shape and dtype\n"
            "    x = loop_body(0, x)\n    x = jax.lax.fori_loop(1, 1000, loop_body, x)\n    return x\n",
        ),
        Invalid(  # a traced bound: TracerIntegerConversionError
            "from jax import jit\n@jit\ndef f(x, n):\n    for i in range(n):\n        x = x * 2\n    return x\n",
            severity="error",
        ),
        Invalid(  # iterating over a traced array unrolls over its first axis
            "import jax\nimport jax.numpy as jnp\n@jax.vmap\ndef f(x):\n    s = 0.0\n    for row in jnp.outer(x, x):\n"
            "        s = s + row\n    return s\n",
            severity="info",
        ),
        Invalid(  # a Python while on a Python counter unrolls (a while on a traced value is traced-control-flow's);
            # counted up to a literal bound: 50 iterations, a warning
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    k = 0\n    while k < 50:\n"
            "        x = jnp.sin(x)\n        k += 1\n    return x\n",
        ),
        Invalid(  # a fixed 20-term series of a small body (about 60 equations unrolled): unrolled on purpose, info
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef series(x):\n    s = 0.0\n    for k in range(20):\n"
            "        s = s + x ** k / (k + 1)\n    return s\n",
            fixed="import jax\nimport jax.numpy as jnp\n@jax.jit\ndef series(x):\n    s = 0.0\n    def loop_body(k, s):\n"
            "        s = s + x ** k / (k + 1)\n        return s\n\n"
            "    # the first iteration, as plain Python, gives the carry its shape and dtype\n"
            "    s = loop_body(0, s)\n    s = jax.lax.fori_loop(1, 20, loop_body, s)\n    return s\n",
            severity="info",
        ),
        Invalid(  # 20 stages of a large body (helpers unseen here, ten equations each): 20 x 26, a warning
            "import jax\n@jax.jit\ndef rk(y, h):\n    for i in range(20):\n        k1 = field(y)\n"
            "        y = y + h * (k1 + field(y + h * k1)) / 2\n    return y\ndef field(y):\n    return -y\n",
            fixed="import jax\n@jax.jit\ndef rk(y, h):\n    def loop_body(i, y):\n        k1 = field(y)\n"
            "        y = y + h * (k1 + field(y + h * k1)) / 2\n        return y\n\n"
            "    # the first iteration, as plain Python, gives the carry its shape and dtype\n"
            "    y = loop_body(0, y)\n    y = jax.lax.fori_loop(1, 20, loop_body, y)\n    return y\n"
            "def field(y):\n    return -y\n",
        ),
        Invalid(  # a Python while whose count is not visible (the bound is a parameter of the untraced caller's)
            "import jax\nimport jax.numpy as jnp\nfrom functools import partial\n"
            "@partial(jax.jit, static_argnums=1)\ndef f(x, n):\n    k = 0\n    while k < n:\n"
            "        x = jnp.sin(x)\n        k += 1\n    return x\n",
            severity="info",
        ),
        Invalid(  # a static loop inside a scan body, via a helper
            "import jax\nfrom functools import partial\ndef helper(c, n):\n    for _ in range(n):\n        c = c + 1\n"
            "    return c\n@partial(jax.jit, static_argnums=1)\ndef f(x, n):\n    return helper(x, n)\n",
            fixed="import jax\nfrom functools import partial\ndef helper(c, n):\n    def loop_body(_, c):\n        c = c + 1\n"
            "        return c\n\n    c = jax.lax.fori_loop(0, n, loop_body, c)\n    return c\n"
            "@partial(jax.jit, static_argnums=1)\ndef f(x, n):\n    return helper(x, n)\n",
            severity="info",  # the count is not known here: reported, but not as a warning
        ),
        Invalid(  # a static count that a call site sets: warned, with the count
            "import jax\nfrom functools import partial\n@partial(jax.jit, static_argnames='n')\ndef f(x, n):\n"
            "    for i in range(n):\n        x = x * 0.5 + i\n    return x\ny = f(1.0, n=1000)\n",
            fixed="import jax\nfrom functools import partial\n@partial(jax.jit, static_argnames='n')\ndef f(x, n):\n"
            "    def loop_body(i, x):\n        x = x * 0.5 + i\n        return x\n\n"
            "    if n > 0:  # the first iteration, as plain Python, gives the carry its shape and dtype\n"
            "        x = loop_body(0, x)\n        x = jax.lax.fori_loop(1, n, loop_body, x)\n    return x\n"
            "y = f(1.0, n=1000)\n",
        ),
        Invalid(  # a module-level constant count, under checkpoint
            "import jax\nSTEPS = 500\n@jax.checkpoint\ndef f(x):\n    for _ in range(STEPS):\n        x = jax.numpy.sin(x)\n"
            "    return x\n",
            fixed="import jax\nSTEPS = 500\n@jax.checkpoint\ndef f(x):\n    def loop_body(_, x):\n"
            "        x = jax.numpy.sin(x)\n        return x\n\n"
            "    if STEPS > 0:  # the first iteration, as plain Python, gives the carry its shape and dtype\n"
            "        x = loop_body(0, x)\n        x = jax.lax.fori_loop(1, STEPS, loop_body, x)\n    return x\n",
        ),
        Invalid(  # the rank of an array: a handful of iterations, at most info
            "import jax\n@jax.jit\ndef f(x):\n    for axis in range(x.ndim):\n        x = x.sum(axis, keepdims=True)\n"
            "    return x\n",
            severity="info",
        ),
        Invalid(  # lax.axis_size is a Python int (not a traced bound, not an error): the count is not known here
            "import jax\nfrom jax import lax\ndef f(x):\n    for i in range(lax.axis_size('i')):\n        x = x + i\n    return x\n"
            "g = jax.pmap(f, axis_name='i')\n",
            fixed="import jax\nfrom jax import lax\ndef f(x):\n    def loop_body(i, x):\n        x = x + i\n        return x\n\n"
            "    if lax.axis_size('i') > 0:  # the first iteration, as plain Python, gives the carry its shape and dtype\n"
            "        x = loop_body(0, x)\n        x = lax.fori_loop(1, lax.axis_size('i'), loop_body, x)\n    return x\n"
            "g = jax.pmap(f, axis_name='i')\n",
            severity="info",
        ),
        Invalid(  # small known trip count: still reported, at info level
            "import jax\n@jax.jit\ndef f(x):\n    for i in range(3):\n        x = x + i\n    return x\n",
            fixed="import jax\n@jax.jit\ndef f(x):\n    def loop_body(i, x):\n        x = x + i\n        return x\n\n"
            "    # the first iteration, as plain Python, gives the carry its shape and dtype\n"
            "    x = loop_body(0, x)\n    x = jax.lax.fori_loop(1, 3, loop_body, x)\n    return x\n",
            severity="info",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        for node in model.scopes.nodes(ast.For, ast.While):
            fn = model.scopes.enclosing_function(node)
            if fn is None or not fn.traced or model.fact(TracerValues).runs_on_values(fn):
                continue  # (a custom_vjp/custom_jvp function nothing traces runs eagerly: nothing is unrolled)
            if isinstance(node, ast.While):
                self._check_while(ctx, fn, node)
            elif isinstance(node, ast.For) and fn.compiled and (model.kinds.touches_traced(node.body, fn)
                                                                or _carries_arrays_in_container(model, fn, node)):
                self._check_for(ctx, fn, node)  # a loop adding nothing to the trace costs no compile time
        self._check_comprehensions(ctx)

    def _check_comprehensions(self, ctx: RuleContext) -> None:
        """`[jnp.cos(k * x) for k in range(512)]` in compiled code unrolls like a `for` loop: each element is
        traced on its own. Reported when the count is known and large and the element does array work."""
        model = ctx.model
        for node in model.scopes.nodes(ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp):
            fn = model.scopes.enclosing_function(node)
            if fn is None or not fn.traced or not fn.compiled or model.fact(TracerValues).runs_on_values(fn):
                continue
            counts = []
            for gen in node.generators:  # type: ignore[attr-defined]
                call = range_call(gen.iter, model, fn)
                counts.append(trip_count(call, model, fn) if call is not None and not gen.ifs else None)
            if not counts or any(c is None for c in counts):
                continue
            total = 1
            for c in counts:
                total *= c  # type: ignore[operator]
            elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]  # type: ignore[attr-defined]
            if total <= SMALL_TRIP_COUNT or not model.kinds.touches_traced(elements, fn):  # type: ignore[arg-type]
                continue
            if estimated_equations(elements, model, fn) == 0:  # type: ignore[arg-type]
                continue  # `[bl for _ in range(128)]`: the same array 128 times, no operation per element
            where = f"inside `{fn.name}` ({fn.trace_reason})"
            # A comprehension in traced code usually lists a few arrays (a stack of per-class counts): a warning
            # only past LARGE_COMPREHENSION elements
            ctx.report(node, self.message("many", where=where, count=total,
                                          note=" (a comprehension: each element is traced on its own; `jax.vmap` "
                                               "over `jnp.arange` builds them in one operation)"),
                       severity="warning" if total > LARGE_COMPREHENSION else "info")

    def _check_for(self, ctx: RuleContext, fn: FunctionInfo, node: ast.For) -> None:
        model = ctx.model
        where = f"inside `{fn.name}` ({fn.trace_reason})"
        call = range_call(node.iter, model, fn)
        if call is not None:
            traced_args = [a for a in call.args if model.kinds.kind_of(a, fn) in ARRAYS]
            if traced_args:
                ctx.report(node, self.message("traced-range", where=where),
                           end_node=node.iter, severity="error")
                return
            count = trip_count(call, model, fn)
            builder, note = loop_rewrite(ctx, fn, node)
            title = "rewrite as `lax.fori_loop`" if builder else ""
            if count is not None and count <= SMALL_TRIP_COUNT:
                ctx.report(node, self.message("few", count=count, where=where, note=note), builder, end_node=node.iter,
                           severity="info", fix_title=title)
            elif count is None:  # shapes, ranks, layer counts: the cost depends on a number we cannot see
                ctx.report(node, self.message("unknown-count", where=where, bound=ast.unparse(call)[:40], note=note),
                           builder,
                           end_node=node.iter, fix_title=title, severity="info")
            else:
                ctx.report(node, self.message("many", where=where, count=count, note=note), builder, end_node=node.iter,
                           fix_title=title, severity=known_count_severity(count, node.body, model, fn))
            return
        if isinstance(node.iter, (ast.List, ast.Tuple, ast.Set)) and len(node.iter.elts) <= SMALL_LITERAL_CONTAINER:
            return
        iterated = node.iter.args[0] if (isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name)
                                         and node.iter.func.id == "enumerate" and node.iter.args) else node.iter
        root = iterated
        while isinstance(root, (ast.Subscript, ast.Attribute)):
            root = root.value
        if isinstance(root, ast.Name) and _is_parameter(root.id, fn) and not (
                root is iterated and root.id in fn.params and model.kinds.used_as_array(fn, root.id)):
            return  # a traced argument (or a slice of it) may be a pytree, e.g. a list of layers
        if model.kinds.kind_of(iterated, fn) in ARRAYS:
            ctx.report(node, self.message("array-rows", where=where), end_node=node.iter, severity="info")

    def _check_while(self, ctx: RuleContext, fn: FunctionInfo, node: ast.While) -> None:
        model = ctx.model
        where = f"inside `{fn.name}` ({fn.trace_reason})"
        if model.fact(TracerValues).traced_condition(node.test, fn) is not None:
            return  # raises TracerBoolConversionError: traced-control-flow reports it, with the same rewrite
        if not (fn.compiled and model.kinds.touches_traced(node.body, fn)):
            return
        builder, note = loop_rewrite(ctx, fn, node)
        title = "rewrite as `lax.while_loop`" if builder else ""
        count = _while_count(fn, node, model)
        if count is not None and count > SMALL_TRIP_COUNT:
            ctx.report(node, self.message("many", where=where, count=count, note=note), builder,
                       end_node=node.test, fix_title=title, severity=known_count_severity(count, node.body, model, fn))
            return
        ctx.report(node, self.message("while", where=where, note=note), builder,
                   end_node=node.test, fix_title=title, severity="info")

    @classmethod
    def confirm_with_trace(cls, findings: list[Finding], measured: list[Measured],
                           lines: list[str]) -> TraceConfirmations:
        """Measured facts correct the static ones: a finding on a loop of a traced function gets the loop's
        measured equations and compile time, and is raised to warning when the loop is large or lowered to hint
        when small (an error stays one: it raises); a loop this rule did not flag (e.g. over a list of layers)
        is reported when the trace shows it unrolled large."""
        out = TraceConfirmations()
        flagged: set[int] = set()
        for index, finding in enumerate(findings):
            if finding.rule != cls.name:
                continue
            for fn in measured:
                loops = dict(fn.loops)
                if not fn.line <= finding.line <= fn.end_line or finding.line not in loops:
                    continue
                flagged.add(finding.line)
                mine, total, total_s, share = _loop_measure(fn, finding.line, loops[finding.line])
                severity = None
                if finding.severity != "error":
                    if mine >= LARGE_LOOP_EQUATIONS:
                        severity = "warning"
                    elif mine < SMALL_LOOP_EQUATIONS:
                        severity = "hint"
                out.confirmed[index] = Confirmation(severity, _confirmation(mine, total, total_s, share),  # type: ignore[arg-type]
                                                    fn.function, mine, share)
                break
        loops_in = sorted({loop for fn in measured for loop in fn.loops})
        for first, last in loops_in:
            if any(first <= line <= last for line in flagged):
                continue  # it is (or holds) a loop a static finding already covers
            for fn in measured:
                if not fn.line < first <= fn.end_line:
                    continue
                mine, total, total_s, share = _loop_measure(fn, first, last)
                if mine < LARGE_LOOP_EQUATIONS:
                    break
                text = lines[first - 1].rstrip("\r\n") if first <= len(lines) else ""
                note = _confirmation(mine, total, total_s, share)
                path = findings[0].path if findings else ""
                found = Finding(path, first, len(text) - len(text.lstrip()) + 1, first, len(text) + 1, cls.code,
                                cls.name, "warning", cls.message("trace-unrolled", function=fn.function, note=note),
                                cls.url())
                out.found.append((found, Confirmation("warning", note, fn.function, mine, share)))
                break
        return out


def _while_count(fn: FunctionInfo, loop: ast.While, model: ModuleModel) -> int | None:
    """The number of iterations of `while i < n:` (or `<=`) when the counter and the bound are local Python ints
    known from literals (`it, max_iter = 0, 300`), or the bound is a literal (`while t < 200:`) or a module-level
    int bound once (`while t < STEPS:`), the counter's only other binding is one `i += step` (a literal
    step > 0) at the top of the body, the bound is bound once, and nothing leaves the loop early."""
    test = loop.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Lt, ast.LtE))
            and isinstance(test.left, ast.Name)):
        return None
    limit = test.comparators[0]
    literal_bound = literal_int(limit)
    if literal_bound is None and isinstance(limit, ast.Name) and not model.scopes.is_local(limit.id, fn):
        # `while t < STEPS:` with STEPS a module-level int bound once
        constant = model.scopes.module_constant(limit.id)
        literal_bound = literal_int(constant) if constant is not None else None
    if literal_bound is None and not isinstance(limit, ast.Name):
        return None
    if any(isinstance(n, (ast.Break, ast.Return, ast.Raise)) for stmt in loop.body for n in walk_nodes(stmt)):
        return None
    counter = test.left.id
    bound = "" if literal_bound is not None else limit.id  # type: ignore[attr-defined]
    steps = [stmt for stmt in loop.body if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add)
             and isinstance(stmt.target, ast.Name) and stmt.target.id == counter]
    step = literal_int(steps[0].value) if len(steps) == 1 else None
    if step is None or step <= 0:
        return None
    values: dict[str, list[int | None]] = {counter: [], bound: []} if bound else {counter: []}
    for node in model.scopes.own_nodes(fn):
        if not (isinstance(node, ast.Name) and node.id in values and not isinstance(node.ctx, ast.Load)):
            continue
        stmt = model.scopes.parents.get(node)
        if stmt is steps[0]:
            continue
        value: int | None = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and stmt.targets[0] is node:
            value = literal_int(stmt.value)
        elif isinstance(stmt, ast.Tuple) and isinstance(model.scopes.parents.get(stmt), ast.Assign):
            assign = model.scopes.parents.get(stmt)
            assert isinstance(assign, ast.Assign)
            if isinstance(assign.value, ast.Tuple) and len(assign.value.elts) == len(stmt.elts):
                value = literal_int(assign.value.elts[stmt.elts.index(node)])
        values[node.id].append(value)
    if bound in fn.params and bound in model.kinds.defaulted_jit_params(fn) and not values[bound]:
        # `def solve(y0, n_steps=400)` under jax.jit: a call that passes n_steps makes the test a tracer (that
        # while raises: traced-control-flow's finding), so the loop runs only with the default, 400 times
        defaults = parameter_defaults(fn.node.args)
        values[bound] = [literal_int(defaults[bound])] if bound in defaults else []
    elif bound in fn.params:
        return None
    if counter in fn.params or any(len(v) != 1 or v[0] is None for v in values.values()):
        return None
    start, stop = values[counter][0], values[bound][0] if bound else literal_bound
    assert start is not None and stop is not None
    if isinstance(test.ops[0], ast.LtE):
        stop += 1
    return max(0, len(range(start, stop, step)))


def _carries_arrays_in_container(model: ModuleModel, fn: FunctionInfo, loop: ast.For | ast.While) -> bool:
    """A loop whose carry is a Python container of arrays: a name the body rebinds and reads
    (`state = {"pos": state["pos"] + dt * state["vel"], ...}`), bound in this function to a dict/list/tuple display
    holding a traced array (`state = {"pos": pos, ...}`, `carry = (x, v)`). Reading the entries back shows no
    array kind (an entry of a container is of unknown kind), yet every iteration is array work on those entries:
    the container is the loop's carry, not pytree structure the loop walks."""
    rebound: set[str] = set()
    read: set[str] = set()
    for stmt in loop.body:
        for node in walk_nodes(stmt):
            if isinstance(node, ast.Assign):
                rebound.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                read.add(node.id)
    carried = rebound & read
    if not carried:
        return False
    if _rebuilds_traced_argument(model, fn, loop, carried):
        return True
    for node in model.scopes.own_nodes(fn):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, (ast.Dict, ast.List, ast.Tuple))
                and any(isinstance(t, ast.Name) and t.id in carried for t in node.targets)):
            continue
        elements = node.value.values if isinstance(node.value, ast.Dict) else node.value.elts
        if any(not isinstance(e, ast.Starred) and model.kinds.kind_of(e, fn) in ARRAYS for e in elements):
            return True
    return False


def _rebuilds_traced_argument(model: ModuleModel, fn: FunctionInfo, loop: ast.For | ast.While,
                              carried: set[str]) -> bool:
    """A loop whose carry is a traced argument holding a pytree (`def simulate(state: dict)` under `jax.jit`,
    `s: State` a NamedTuple), rebuilt each iteration from arithmetic on its own entries (`state = {"pos":
    state["pos"] + dt * state["vel"], ...}`, `s = State(s.x + dt * s.v, ...)`, or through local names first). Every leaf of a non-static
    argument of a directly traced function is a tracer, so each iteration is array work, unrolled into the
    program. Only parameters the trace receives from its caller (not static, not passed through by
    `partial`/`in_axes=None`, no Python default)."""
    direct = [t for t in fn.traces if not t.indirect]
    if not direct or any(t.statics_unknown or t.unmapped_argnums for t in direct):
        return False
    traced = carried & set(fn.params) - fn.static_params - model.traced.passed_through_params(fn) - {"self", "cls"}
    traced = {p for p in traced if fn.param_kinds.get(p) in (Kind.CONTAINER, Kind.JAX, Kind.UNKNOWN)}
    if not traced:
        return False
    rebuilt = {node.targets[0].id for stmt in loop.body for node in walk_nodes(stmt)  # type: ignore[attr-defined]
               if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
               and node.targets[0].id in traced}
    # the arithmetic may be in the assignment itself or in statements of the body before it, through local names
    # (`pos = state["pos"] + dt * state["vel"]; ...; state = {"pos": pos, "vel": vel}`): either way each iteration
    # computes on the carried entries, which are tracers
    return bool(rebuilt) and any(isinstance(op, ast.BinOp) and any(
        _entry_of(side, name) for side in walk_nodes(op) for name in rebuilt)
        for stmt in loop.body for op in walk_nodes(stmt))


def _entry_of(node: ast.AST, name: str) -> bool:
    """`name[...]` or `name.attr`: an entry of the container bound to `name`."""
    return isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.value, ast.Name) and node.value.id == name


def _loop_measure(fn: Measured, first: int, last: int) -> tuple[int, int, float | None, float | None]:
    """Equations the loop's lines produced, the function's equations, its compile time (trace + lower + XLA)
    and the loop's share of it (proportional to its equations: each of the three stages grows with them)."""
    mine = sum(1 for line in fn.equation_lines if line is not None and first <= line <= last)
    total = len(fn.equation_lines)
    share = fn.compile_s * mine / total if fn.compile_s is not None and total else None
    return mine, total, fn.compile_s, share


def _confirmation(mine: int, total: int, total_s: float | None, share: float | None) -> str:
    text = f"trace: unrolled into {mine:,} of {total:,} equations"
    if share is not None and total_s is not None:
        text += f", ≈{duration(share)} of the {duration(total_s)} compile"
    return text
