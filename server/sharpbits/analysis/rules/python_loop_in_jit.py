"""SB301 python-loop-in-jit: a Python `for` over a range, or a `while`, inside traced code."""

from __future__ import annotations

import ast

from sharpbits.analysis.model import FunctionInfo, Kind, ModuleModel, literal_int
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext

SMALL_TRIP_COUNT = 10  # at or below this, unrolling is cheap: reported as info, not a warning
SMALL_LITERAL_CONTAINER = 16


def range_call(node: ast.AST, model: ModuleModel, fn: FunctionInfo) -> ast.Call | None:
    """`range(...)`, also inside `enumerate(range(...))` and `reversed(range(...))`."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or model.is_local(node.func.id, fn):
        return None
    if node.func.id == "range" and node.args and not node.keywords:
        return node
    if node.func.id in ("enumerate", "reversed") and node.args:
        return range_call(node.args[0], model, fn)
    return None


def trip_count(call: ast.Call) -> int | None:
    values = [literal_int(a) for a in call.args]
    if any(v is None for v in values):
        return None
    start, stop, step = (0, values[0], 1) if len(values) == 1 else (values[0], values[1], values[2] if len(values) > 2 else 1)
    if step == 0 or start is None or stop is None or step is None:
        return None
    return max(0, len(range(start, stop, step)))


def _rewrite(ctx: RuleContext, fn: FunctionInfo, loop: ast.For | ast.While):
    """The lax.fori_loop / lax.while_loop fix for this loop, or None and a note saying why it is not offered."""
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
    name = "python-loop-in-jit"
    severity = "warning"
    summary = "Flags Python `for` loops over ranges or arrays, and `while` loops, inside traced code."
    why = """
Under `jit` (and `grad`, `vmap`, `scan` bodies, ...) Python runs only once, at trace time: a `for` loop is
**unrolled**, so the traced program contains one copy of the body per iteration. Compile time grows with the trip
count (a 1,000-iteration loop takes about a second to compile here, a `lax.fori_loop` twin 0.1 s), and the
compiled program grows with it.

A `while` loop whose condition depends on a traced value cannot run at all: it raises
`TracerBoolConversionError`. A `while` on Python values unrolls like a `for` loop.

Loops over Python containers (`for layer in params:`) unroll over a fixed structure and are idiomatic, so they are
not flagged; neither are small loops over literal tuples or lists. Loops with a known trip count of 10 or fewer are
reported as info only. Eager (un-traced) code is never flagged.
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
        # loops over layers are idiomatic
        "import jax\n@jax.jit\ndef mlp(params, x):\n    for w, b in params:\n        x = jax.nn.relu(x @ w + b)\n    return x\n",
        # small literal containers
        "import jax\n@jax.jit\ndef f(x):\n    for scale in (1.0, 2.0, 4.0):\n        x = x * scale\n    return x\n",
        # eager code may loop
        "import jax.numpy as jnp\ndef f(x):\n    for i in range(1000):\n        x = x + i\n    return x\n",
        # lax.fori_loop already
        "import jax\nfrom jax import lax\n@jax.jit\ndef f(x):\n    return lax.fori_loop(0, 100, lambda i, c: c + i, x)\n",
        # loops in comprehensions over containers, and loops in nested eager helpers not called from jit
        "import jax\n@jax.jit\ndef f(xs):\n    return sum(x for x in xs)\ndef eager(n):\n    while n:\n        n -= 1\n",
    ]
    INVALID = [
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
            "        s = s + row\n    return s\n"
        ),
        Invalid(  # a while loop on a traced value raises TracerBoolConversionError
            "import jax\n@jax.jit\ndef f(x):\n    while x.sum() > 1:\n        x = x / 2\n    return x\n",
            severity="error",
        ),
        Invalid(  # ... and is rewritten to lax.while_loop when its carry is provably stable
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    y = jnp.ones(3)\n    while y.sum() < x:\n"
            "        y = y * 2.0\n    return y\n",
            fixed="import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    y = jnp.ones(3)\n    def loop_cond(y):\n"
            "        return y.sum() < x\n\n    def loop_body(y):\n        y = y * 2.0\n        return y\n\n"
            "    y = jax.lax.while_loop(loop_cond, loop_body, y)\n    return y\n",
            severity="error",
        ),
        Invalid(  # a static loop inside a scan body, via a helper
            "import jax\nfrom functools import partial\ndef helper(c, n):\n    for _ in range(n):\n        c = c + 1\n"
            "    return c\n@partial(jax.jit, static_argnums=1)\ndef f(x, n):\n    return helper(x, n)\n",
            fixed="import jax\nfrom functools import partial\ndef helper(c, n):\n    def loop_body(_, c):\n        c = c + 1\n"
            "        return c\n\n    c = jax.lax.fori_loop(0, n, loop_body, c)\n    return c\n"
            "@partial(jax.jit, static_argnums=1)\ndef f(x, n):\n    return helper(x, n)\n",
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
        for node in model.nodes(ast.For, ast.While):
            fn = model.enclosing_function(node)
            if fn is None or not fn.traced:
                continue
            if isinstance(node, ast.For):
                self._check_for(ctx, fn, node)
            elif isinstance(node, ast.While):
                self._check_while(ctx, fn, node)

    def _check_for(self, ctx: RuleContext, fn: FunctionInfo, node: ast.For) -> None:
        model = ctx.model
        where = f"inside `{fn.name}` ({fn.trace_reason})"
        call = range_call(node.iter, model, fn)
        if call is not None:
            traced_args = [a for a in call.args if model.kind_of(a, fn) is Kind.JAX]
            if traced_args:
                ctx.report(node, f"`range()` of a traced value {where} raises TracerIntegerConversionError; "
                           "use `lax.fori_loop`, or make the bound static (`static_argnums`)",
                           end_node=node.iter, severity="error")
                return
            count = trip_count(call)
            static_bound = all(isinstance(a, ast.Constant) or (isinstance(a, ast.Name) and a.id in fn.static_params)
                               for a in call.args) and count is None
            builder, note = _rewrite(ctx, fn, node)
            title = "rewrite as `lax.fori_loop`" if builder else ""
            if count is not None and count <= SMALL_TRIP_COUNT:
                ctx.report(node, f"this loop is unrolled {count} times {where}; fine for a few iterations, "
                           f"`lax.fori_loop` keeps compile time flat{note}", builder, end_node=node.iter,
                           severity="info", fix_title=title)
                return
            count_text = f"{count} times" if count is not None else f"`{ast.unparse(call)[:40]}` times"
            if static_bound:  # a declared static count (heads, layers): the user chose to unroll it
                ctx.report(node, f"Python loop {where} is unrolled once per value of the static argument "
                           f"(`{ast.unparse(call)[:40]}`): fine for small counts, compile time grows with it{note}",
                           builder, end_node=node.iter, fix_title=title, severity="info")
                return
            ctx.report(node, f"Python loop {where} is unrolled {count_text}: compile time grows with the trip "
                       f"count; use `lax.fori_loop` or `lax.scan`{note}", builder, end_node=node.iter, fix_title=title)
            return
        if isinstance(node.iter, ast.List | ast.Tuple | ast.Set) and len(node.iter.elts) <= SMALL_LITERAL_CONTAINER:
            return
        root = node.iter
        while isinstance(root, ast.Subscript | ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and _is_parameter(root.id, fn):
            return  # a traced argument (or a slice of it) may be a pytree, e.g. a list of layers
        if model.kind_of(node.iter, fn) is Kind.JAX:
            ctx.report(node, f"iterating over a traced array {where} unrolls the loop over its first axis; "
                       "use `lax.scan` or `jax.vmap`", end_node=node.iter)

    def _check_while(self, ctx: RuleContext, fn: FunctionInfo, node: ast.While) -> None:
        model = ctx.model
        where = f"inside `{fn.name}` ({fn.trace_reason})"
        traced = any(
            isinstance(n, ast.Name) and model.kind_at(n) is Kind.JAX for n in ast.walk(node.test)
        ) and model.kind_of(node.test, fn) is Kind.JAX
        builder, note = _rewrite(ctx, fn, node)
        title = "rewrite as `lax.while_loop`" if builder else ""
        if traced:
            ctx.report(node, f"`while` on a traced condition {where} raises TracerBoolConversionError; "
                       f"use `lax.while_loop`{note}", builder, end_node=node.test, severity="error", fix_title=title)
        else:
            ctx.report(node, f"Python `while` loop {where} is unrolled at trace time; use `lax.while_loop` "
                       f"(or `lax.fori_loop` for a fixed count){note}", builder, end_node=node.test, fix_title=title)
