"""SB501 unblocked-timing: a clock stopped before the JAX work it times has finished."""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right

from sharpbits.analysis.execution import Execution
from sharpbits.analysis.model import ARRAY_STATIC_ATTRS, ARRAYS, FunctionInfo, Kind, ModuleModel
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.syntax import walk_nodes
from sharpbits.findings import Fix, TextEdit

TIMERS = {"time.time", "time.perf_counter", "time.monotonic", "time.process_time", "time.time_ns",
          "time.perf_counter_ns", "time.monotonic_ns", "timeit.default_timer"}
TIMEIT = {"timeit.timeit", "timeit.repeat", "timeit.Timer"}
_TRANSFERS = {"jax.numpy.asarray", "jax.numpy.array", "jax.device_put", "jax.device_put_replicated",
              "jax.device_put_sharded"}
# arrays made from nothing but a shape and a fill (`mean_losses = jnp.zeros((num_epochs, 1))` before a training
# loop): an allocation, not the work a clock is meant to time
_ALLOCATIONS = {f"jax.numpy.{name}" for name in ("zeros", "ones", "empty", "full", "eye", "identity", "arange",
                                                  "linspace", "zeros_like", "ones_like", "empty_like", "full_like")}
_NOT_TIMED_WORK = _TRANSFERS | _ALLOCATIONS
_STATEMENT_LISTS = ("body", "orelse", "finalbody")


class UnblockedTiming(Rule):
    code = "SB501"
    name = "unblocked-timing"
    severity = "warning"
    messages = {
        "timed-string": (
            "`{timer}` times only the dispatch of `{call}(...)` (JAX runs asynchronously); time `{call}(...).block_until_ready()`{pytree}"
        ),
        "pytree-hint": (
            " (or `jax.block_until_ready(...)` of it)"
        ),
        "unblocked": (
            "`{call}(...)` returns before the device finishes and {when} without waiting for it; use {how}"
        ),
        "when-magic": (
            "`{timer}` stops its clock"
        ),
        "when-clock": (
            "the clock stops at line {line}"
        ),
        "when-timeit": (
            "`{timer}` times only the dispatch"
        ),
        "when-context": (
            "`{timer}` stops its clock as the `with` block ends"
        ),
    }
    summary = ("Flags timing a JAX call (`time.time`/`perf_counter`/`monotonic`, `timeit`, a notebook's `%timeit` / "
               "`%%timeit`) whose result is not waited for (`block_until_ready()` or a host conversion) before the "
               "clock stops.")
    why = """
JAX dispatches work **asynchronously**: a call to a jitted function (or any `jax.numpy` operation) returns as soon
as the work is queued, before the device has computed anything. A clock read right after the call measures the
dispatch, not the computation, and reports a time that can be orders of magnitude too small.

Call `.block_until_ready()` on the result (or `jax.block_until_ready(result)` for a pytree) before stopping the
clock. A host conversion (`float(...)`, `.item()`, `np.asarray(...)`, printing the value) waits too, so timings
that do one are not flagged; so does a test in the timed loop on what the loop's JAX call returned (`if
stop(state.error, tol): break` before the next `sol, state = update(sol, state)`): every iteration waits for the
step before it, and the clock misses at most the last one. Not flagged either: timings of NumPy or plain
Python code, of key splitting alone, of a copy to the device alone, or of an allocation alone (`jnp.zeros(...)` before a loop whose epochs are timed); and a start
time nobody reads (`t0` set again before any `t1 - t0`) starts no timing. In a notebook, IPython's `%timeit f(x)`, `%time f(x)` and the bodies of `%%timeit` / `%%time`
cells are timings too, and so is the body of a `with` block whose context manager is the module's own clock (a
class whose `__enter__` and `__exit__` read a clock, or a `@contextlib.contextmanager` function that reads one
before its `yield` and after it). (On CPU a few operations, such as LAPACK decompositions like `svd`, happen to run synchronously;
on GPU and TPU they are asynchronous like the rest, so they are flagged all the same.)
"""
    example = """
import time
import jax
import jax.numpy as jnp

@jax.jit
def matmul(a, b):
    return a @ b

a = jnp.ones((1000, 1000))
start = time.perf_counter()
c = matmul(a, a)
print(time.perf_counter() - start)
"""
    use_instead = """
import time
import jax
import jax.numpy as jnp

@jax.jit
def matmul(a, b):
    return a @ b

a = jnp.ones((1000, 1000))
start = time.perf_counter()
c = matmul(a, a).block_until_ready()
print(time.perf_counter() - start)
"""
    fix_safety = """
The fix appends `.block_until_ready()` to the last JAX call before the clock stops when it returns one array, or
wraps it in `jax.block_until_ready(...)` when it may return a pytree (when the module imports `jax`). It is
**safe**: both return their argument unchanged, once the device has finished computing it.
"""
    VALID = [
        # a timer context manager whose block waits for the result; a context manager that reads no clock
        # a stop test on the loop's own result waits for each step: the clock misses at most the last one
        "import time\nimport jax\nimport jax.numpy as jnp\n@jax.jit\ndef update(x, err):\n"
        "    y = x * 0.5\n    return y, jnp.abs(y - x).max()\ndef solve(x, tol):\n    err = jnp.inf\n"
        "    t0 = time.time()\n    for i in range(100):\n        if i > 0 and err < tol:\n            break\n"
        "        x, err = update(x, err)\n    return x, time.time() - t0\n",
        "import time\nimport contextlib\nimport jax\n@contextlib.contextmanager\ndef timed():\n    t0 = time.time()\n"
        "    yield\n    print(time.time() - t0)\n@contextlib.contextmanager\ndef scope():\n    yield\n"
        "@jax.jit\ndef f(x):\n    return x @ x\nx = jax.numpy.ones((4, 4))\nwith timed():\n    y = f(x).block_until_ready()\n"
        "with scope():\n    y = f(x)\n",
        # waited for
        "import time\nimport jax.numpy as jnp\nt0 = time.time()\ny = jnp.dot(jnp.ones(3), jnp.ones(3))\n"
        "y.block_until_ready()\nprint(time.time() - t0)\n",
        "import time\nimport jax\n@jax.jit\ndef f(x):\n    return x * 2, x\nt0 = time.perf_counter()\n"
        "out = jax.block_until_ready(f(1.0))\nprint(time.perf_counter() - t0)\n",
        # NumPy only
        "import time\nimport numpy as np\nt0 = time.time()\ny = np.ones(3) @ np.ones(3)\nprint(time.time() - t0)\n",
        # a host conversion waits
        "import time\nimport jax.numpy as jnp\nt0 = time.time()\nloss = float(jnp.sum(jnp.ones(3)))\n"
        "elapsed = time.time() - t0\n",
        # an unknown function may wait for its own result
        "import time\nimport jax.numpy as jnp\nfrom bench import evaluate\nt0 = time.time()\ny = jnp.ones(3) * 2\n"
        "evaluate(y)\nelapsed = time.time() - t0\n",
        # a host read in the loop of the timed steps waits for the previous iteration's step
        "import time\nimport jax\n@jax.jit\ndef step(w):\n    return w * 0.5\ndef bench(w):\n    t0 = time.time()\n"
        "    for _ in range(10):\n        print(float(w.sum()))\n        w = step(w)\n    return time.time() - t0\n",
        # the timed work is an unknown function; splitting a key is not what is being timed
        "import time\nimport jax\nfrom sampler import run_chain\nkey = jax.random.key(0)\nt0 = time.time()\n"
        "samples = run_chain(key)\nkey, sub = jax.random.split(key)\nprint(time.time() - t0)\n",
        # timing a data loader: the copy to the device is not the work being timed
        "import time\nimport jax.numpy as jnp\nfrom data import loader\nt0 = time.time()\n"
        "batch = jnp.asarray(next(loader))\ndata_time = time.time() - t0\n",
        # timeit strings: waited for, or NumPy
        "import timeit\nimport numpy as np\nimport jax.numpy as jnp\nx = jnp.ones(3)\n"
        "timeit.timeit('jnp.sin(x).block_until_ready()', globals=globals())\n"
        "timeit.timeit('np.sin(1.0)', globals=globals())\n",
        # timeit of a blocked call
        "import timeit\nimport jax.numpy as jnp\nx = jnp.ones(3)\n"
        "print(timeit.timeit(lambda: jnp.sin(x).block_until_ready(), number=10))\n",
    ]
    INVALID = [
        Invalid(  # a timer context manager of the module (a class whose __enter__ and __exit__ read a clock): the
            # `with` body is what it times
            "import time\nimport jax\nclass Timer:\n    def __enter__(self):\n        self.t0 = time.perf_counter()\n"
            "        return self\n    def __exit__(self, *exc):\n        self.elapsed = time.perf_counter() - self.t0\n"
            "@jax.jit\ndef f(x):\n    return x @ x\nx = jax.numpy.ones((4, 4))\nwith Timer() as t:\n    y = f(x)\n",
            fixed="import time\nimport jax\nclass Timer:\n    def __enter__(self):\n        self.t0 = time.perf_counter()\n"
            "        return self\n    def __exit__(self, *exc):\n        self.elapsed = time.perf_counter() - self.t0\n"
            "@jax.jit\ndef f(x):\n    return x @ x\nx = jax.numpy.ones((4, 4))\nwith Timer() as t:\n"
            "    y = f(x).block_until_ready()\n",
        ),
        Invalid(  # a @contextlib.contextmanager timer: a clock before its yield and one after it (in `finally`)
            "import contextlib\nimport time\nimport jax\n@contextlib.contextmanager\ndef timed(label):\n"
            "    t0 = time.perf_counter()\n    try:\n        yield\n    finally:\n"
            "        print(label, time.perf_counter() - t0)\n@jax.jit\ndef f(x):\n    return x @ x\n"
            "x = jax.numpy.ones((4, 4))\nwith timed('f'):\n    y = f(x)\n",
            fixed="import contextlib\nimport time\nimport jax\n@contextlib.contextmanager\ndef timed(label):\n"
            "    t0 = time.perf_counter()\n    try:\n        yield\n    finally:\n"
            "        print(label, time.perf_counter() - t0)\n@jax.jit\ndef f(x):\n    return x @ x\n"
            "x = jax.numpy.ones((4, 4))\nwith timed('f'):\n    y = f(x).block_until_ready()\n",
        ),
        Invalid(
            "import time\nimport jax\n@jax.jit\ndef f(x):\n    return x @ x\nx = jax.numpy.ones((4, 4))\n"
            "t0 = time.perf_counter()\ny = f(x)\nprint(time.perf_counter() - t0)\n",
            fixed="import time\nimport jax\n@jax.jit\ndef f(x):\n    return x @ x\nx = jax.numpy.ones((4, 4))\n"
            "t0 = time.perf_counter()\ny = f(x).block_until_ready()\nprint(time.perf_counter() - t0)\n",
        ),
        Invalid(  # a loop of steps, a pytree result
            "import time\nimport jax\ndef update(w, x):\n    return w - x, (w * x).sum()\nstep = jax.jit(update)\n"
            "def bench(w, x):\n    start = time.time()\n    for _ in range(10):\n        w, loss = step(w, x)\n"
            "    return time.time() - start\n",
            fixed="import time\nimport jax\ndef update(w, x):\n    return w - x, (w * x).sum()\nstep = jax.jit(update)\n"
            "def bench(w, x):\n    start = time.time()\n    for _ in range(10):\n"
            "        w, loss = jax.block_until_ready(step(w, x))\n    return time.time() - start\n",
        ),
        Invalid(  # a function chosen by a branch: compiled in one arm, eager JAX in the other, dispatched either way
            "import time\nimport jax\nimport jax.numpy as jnp\ndef layer(a):\n    return jnp.tanh(a @ a)\n"
            "def bench(a, jit=True):\n    if jit:\n        f = jax.jit(layer)\n    else:\n        f = layer\n"
            "    start = time.perf_counter()\n    out = f(a)\n    return out, time.perf_counter() - start\n",
            fixed="import time\nimport jax\nimport jax.numpy as jnp\ndef layer(a):\n    return jnp.tanh(a @ a)\n"
            "def bench(a, jit=True):\n    if jit:\n        f = jax.jit(layer)\n    else:\n        f = layer\n"
            "    start = time.perf_counter()\n    out = jax.block_until_ready(f(a))\n    return out, time.perf_counter() - start\n",
        ),
        Invalid(  # timeit of a lambda
            "import timeit\nimport jax.numpy as jnp\nx = jnp.ones((100, 100))\n"
            "print(timeit.timeit(lambda: jnp.dot(x, x), number=10))\n",
            fixed="import timeit\nimport jax.numpy as jnp\nx = jnp.ones((100, 100))\n"
            "print(timeit.timeit(lambda: jnp.dot(x, x).block_until_ready(), number=10))\n",
        ),
        Invalid(  # a timeit statement string
            "import timeit\nimport jax.numpy as jnp\nx = jnp.ones((100, 100))\n"
            "print(timeit.timeit('jnp.dot(x, x)', globals=globals(), number=10))\n",
            fixed="import timeit\nimport jax.numpy as jnp\nx = jnp.ones((100, 100))\n"
            "print(timeit.timeit('jnp.dot(x, x).block_until_ready()', globals=globals(), number=10))\n",
        ),
        Invalid(  # a function that returns a tuple of arrays: waited for as a pytree
            "import time\nimport jax\nimport jax.numpy as jnp\nm = jnp.eye(50)\nt0 = time.time()\n"
            "u, s, vt = jnp.linalg.svd(m)\nprint(time.time() - t0)\n",
            fixed="import time\nimport jax\nimport jax.numpy as jnp\nm = jnp.eye(50)\nt0 = time.time()\n"
            "u, s, vt = jax.block_until_ready(jnp.linalg.svd(m))\nprint(time.time() - t0)\n",
        ),
        Invalid(  # host reads and an unknown helper before the timed solve wait only for what came before them
            "import time\nimport jax.numpy as jnp\nfrom geometry import build\ndef solve(z, sp):\n    t0 = time.time()\n"
            "    kx = jnp.asarray(sp['kx']).flatten()\n    mid = int(sp['mid'])\n    v = build(kx[mid:])\n"
            "    c = jnp.linalg.solve(z, v)\n    return c, time.time() - t0\n",
            fixed="import time\nimport jax.numpy as jnp\nfrom geometry import build\ndef solve(z, sp):\n    t0 = time.time()\n"
            "    kx = jnp.asarray(sp['kx']).flatten()\n    mid = int(sp['mid'])\n    v = build(kx[mid:])\n"
            "    c = jnp.linalg.solve(z, v).block_until_ready()\n    return c, time.time() - t0\n",
        ),
        Invalid(  # from time import perf_counter; an expression statement
            "from time import perf_counter\nimport jax.numpy as jnp\nx = jnp.ones(3)\ntic = perf_counter()\n"
            "jnp.linalg.norm(x)\ntoc = perf_counter()\n",
            fixed="from time import perf_counter\nimport jax.numpy as jnp\nx = jnp.ones(3)\ntic = perf_counter()\n"
            "jnp.linalg.norm(x).block_until_ready()\ntoc = perf_counter()\n",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        body = model.tree.body
        starts = [s.lineno for s in body]  # in order: a region's statements are found by bisection, not a scan
        for region in ctx.timed_regions:  # a notebook's `%timeit f(x)` / `%%timeit` cell: timed from outside the code
            timed = body[bisect_left(starts, region.first_line):bisect_right(starts, region.last_line)]
            if timed:
                self._check_region(ctx, timed, self.message("when-magic", timer=region.timer), None)
        imported = model.scopes.import_targets()
        if not any(q.split(".")[0] in ("time", "timeit") for q in imported):
            return  # no clock: nothing is timed
        blocks: list[tuple[list[ast.stmt], FunctionInfo | None]] = [(model.tree.body, None)]
        for node in model.scopes.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            blocks.append((node.body, model.scopes.functions[node]))  # type: ignore[attr-defined, index]
        for node in model.scopes.nodes(ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try):
            scope = model.scopes.enclosing_function(node)
            for name in _STATEMENT_LISTS:
                stmts = getattr(node, name, None)
                if stmts:
                    blocks.append((stmts, scope))
            for handler in getattr(node, "handlers", []):
                blocks.append((handler.body, scope))
        for stmts, scope in blocks:
            if scope is not None and scope.traced:
                continue
            self._check_block(ctx, stmts, scope)
        for node in model.scopes.nodes(ast.With):
            assert isinstance(node, ast.With)
            scope = model.scopes.enclosing_function(node)
            if scope is not None and scope.traced:
                continue
            timer = next((item.context_expr for item in node.items
                          if _timer_context(model, item.context_expr, scope)), None)
            if timer is not None:
                shown = ast.unparse(timer.func) if isinstance(timer, ast.Call) else ast.unparse(timer)
                self._check_region(ctx, node.body, self.message("when-context", timer=f"{shown}(...)"), scope)
        for call in model.scopes.nodes(ast.Call):
            assert isinstance(call, ast.Call)
            scope = model.scopes.enclosing_function(call)
            if model.scopes.qualname(call.func, scope) in TIMEIT:
                self._check_timeit(ctx, call, scope)

    def _check_block(self, ctx: RuleContext, stmts: list[ast.stmt], scope: FunctionInfo | None) -> None:
        model = ctx.model
        start = None
        for i, stmt in enumerate(stmts):
            if not _reads_clock(stmt, model, scope):
                continue
            if start is not None and i > start + 1 and _start_read(stmts, start):
                self._check_region(ctx, stmts[start + 1: i], self.message("when-clock", line=stmt.lineno), scope)
            start = i if _is_clock_start(stmt, model, scope) else None

    def _check_region(self, ctx: RuleContext, region: list[ast.stmt], when: str, scope: FunctionInfo | None) -> None:
        model = ctx.model
        dispatched: list[tuple[ast.Call, Kind]] = []
        unknown: list[ast.Call] = []
        syncs: list[ast.AST] = []
        stored = _stored_names(region)
        for stmt in region:
            for node in walk_nodes(stmt):
                if isinstance(node, ast.FormattedValue) and _root_name(node.value) in stored and (
                        model.kinds.kind_of(node.value, scope) in (*ARRAYS, Kind.UNKNOWN)):
                    syncs.append(node)  # f"{logs['loss']}" of what the region computed: formatting an array waits
                    continue
                if isinstance(node, (ast.If, ast.While, ast.Assert, ast.IfExp, ast.Compare, ast.BoolOp, ast.JoinedStr)):
                    test = getattr(node, "test", node)
                    if any(isinstance(n, ast.Name) and model.kinds.kind_at(n) in ARRAYS for n in walk_nodes(test)):
                        return  # bool() of an array waits for it
                    if isinstance(node, (ast.If, ast.While)) and _tests_loop_result(model, node, region, scope):
                        return  # `if stop(state.error, tol): break` each iteration waits for the last step's result
                if not isinstance(node, ast.Call):
                    continue
                if model.fact(Execution).host_sync(node, scope):
                    syncs.append(node)
                    continue
                kind = model.fact(Execution).dispatch_kind(node, scope)
                if kind is not None:
                    dispatched.append((node, kind))
                elif not model.fact(Execution).pure_python_call(node, scope):
                    unknown.append(node)
        # key splitting, host-to-device copies and allocations are not the work being timed: alone they make no finding
        dispatched = [(c, k) for c, k in dispatched if k is not Kind.KEY
                      and model.scopes.qualname(c.func, scope) not in _NOT_TIMED_WORK]
        outer = [(c, k) for c, k in dispatched if not any(c is not d and _contains(d, c) for d, _ in dispatched)]
        if not outer:
            return
        call, kind = max(outer, key=lambda ck: (ck[0].end_lineno, ck[0].end_col_offset))
        # a host read (or an unknown call, which may make one) waits for the work dispatched before it: one made
        # before the last dispatch (cyscat-jax's `mid = int(sp["MiddleIndex"])` and `_vall_batch(...)` ahead of the
        # timed `jnp.linalg.solve`), outside any loop of the region around both, cannot wait for it
        if any(_may_wait_for(sync, call, region) for sync in syncs):
            return
        if any(_may_wait_for(node, call, region) for node in unknown if _after_any(node, dispatched)):
            return  # an unknown call given the JAX work's result, or made after it, may wait for it
        self._report(ctx, call, kind, scope, when)

    def _check_timeit(self, ctx: RuleContext, call: ast.Call, scope: FunctionInfo | None) -> None:
        model = ctx.model
        stmt = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "stmt"), None)
        if isinstance(stmt, ast.Constant) and isinstance(stmt.value, str):
            self._check_timeit_string(ctx, call, stmt)
            return
        if not isinstance(stmt, ast.Lambda) or not isinstance(stmt.body, ast.Call):
            return
        lam = model.scopes.functions.get(stmt)
        if any(isinstance(n, ast.Call) and model.fact(Execution).host_sync(n, lam) for n in walk_nodes(stmt.body)):
            return
        kind = model.fact(Execution).dispatch_kind(stmt.body, lam)
        if kind is None:
            return
        self._report(ctx, stmt.body, kind, lam, self.message("when-timeit", timer=ast.unparse(call.func)))

    def _check_timeit_string(self, ctx: RuleContext, call: ast.Call, stmt: ast.Constant) -> None:
        """`timeit.timeit("f(x)", globals=globals())`: the statement is code of this module's namespace."""
        model, source = ctx.model, ctx.source
        try:
            parsed = ast.parse(str(stmt.value).strip(), mode="eval").body
        except SyntaxError:
            return
        if not isinstance(parsed, ast.Call) or any(
                isinstance(n, ast.Call) and model.fact(Execution).host_sync(n, None) for n in walk_nodes(parsed)):
            return
        kind = model.fact(Execution).dispatch_kind(parsed, None)
        if kind is None:
            return
        shown = ast.unparse(parsed.func)
        array = kind in (*ARRAYS, Kind.KEY)
        message = self.message("timed-string", call=shown, timer=ast.unparse(call.func),
                               pytree="" if array else self.message("pytree-hint"))
        line = stmt.lineno
        text = source.segment(line, source.char_column(line, stmt.col_offset), stmt.end_lineno or line,
                              source.char_column(stmt.end_lineno or line, stmt.end_col_offset or 0))
        simple = (array and stmt.end_lineno == line and len(text) >= 2 and text[0] == text[-1] and text[0] in "'\""
                  and text[1:-1] == stmt.value and "\\" not in text)
        end_col = source.char_column(line, stmt.end_col_offset or 0)

        def build() -> Fix | None:
            if not simple:
                return None
            edit = TextEdit(line, end_col, line, end_col, ".block_until_ready()")  # before the closing quote
            return Fix(safe=True, description=f"Time `{shown}(...).block_until_ready()`", edits=(edit,))

        ctx.report(stmt, message, build if simple else None, fix_title="wait for the result in the timed statement")

    def _report(self, ctx: RuleContext, call: ast.Call, kind: Kind, scope: FunctionInfo | None, when: str) -> None:
        model, source = ctx.model, ctx.source
        shown = ast.unparse(call.func)
        jax_name = model.scopes.spelling_of("jax")
        array = kind in (*ARRAYS, Kind.KEY)
        if array:
            how = f"`{shown}(...).block_until_ready()`"
        else:
            how = f"`{jax_name or 'jax'}.block_until_ready({shown}(...))`"
        message = self.message("unblocked", call=shown, when=when, how=how)
        line, col, end_line, end_col = source.node_span(call)

        def build() -> Fix | None:
            if array:
                appended = TextEdit(end_line, end_col + 1, end_line, end_col + 1, ".block_until_ready()")
                return Fix(safe=True, description=f"Wait for `{shown}(...)` with `.block_until_ready()`",
                           edits=(appended,))
            if jax_name is None:
                return None
            edits = (TextEdit(line, col + 1, line, col + 1, f"{jax_name}.block_until_ready("),
                     TextEdit(end_line, end_col + 1, end_line, end_col + 1, ")"))
            return Fix(safe=True, description=f"Wait for `{shown}(...)` with `{jax_name}.block_until_ready`",
                       edits=edits)

        ctx.report(call, message, build, fix_title=f"wait for the result: {how}")


def _timer_context(model: ModuleModel, expr: ast.AST, scope: FunctionInfo | None) -> bool:
    """`with Timer():` / `with timed("step"):` where the context manager is this module's own clock: a class whose
    `__enter__` and `__exit__` both read a clock, or a `@contextlib.contextmanager` function that reads a clock
    before its `yield` and after it. The `with` body is then the timed region, stopped as the block ends."""
    if not isinstance(expr, ast.Call) or not isinstance(expr.func, ast.Name) or (
            scope is not None and model.scopes.is_local(expr.func.id, scope)):
        return False
    cls = model.scopes.module_classes().get(expr.func.id)
    if cls is not None:
        methods = {m.name: m for m in cls.body if isinstance(m, ast.FunctionDef)}
        return all(name in methods and any(_reads_clock(stmt, model, None) for stmt in methods[name].body)
                   for name in ("__enter__", "__exit__"))
    fn = model.scopes.resolve_function(expr.func, scope)
    if fn is None or isinstance(fn.node, ast.Lambda) or not any(
            model.scopes.qualname(d, fn.parent) in ("contextlib.contextmanager",) for d in fn.node.decorator_list):
        return False
    body = fn.node.body
    yields = [i for i, stmt in enumerate(body) if any(isinstance(n, ast.Yield) for n in walk_nodes(stmt))]
    if len(yields) != 1:
        return False
    at = yields[0]
    stmt = body[at]
    if isinstance(stmt, ast.Try):  # try: yield / finally: elapsed = time.perf_counter() - t0
        before, after = body[:at], [*stmt.finalbody, *body[at + 1:]]
    else:
        before, after = body[:at], body[at + 1:]
    return any(_reads_clock(b, model, fn) for b in before) and any(_reads_clock(a, model, fn) for a in after)


def _reads_clock(stmt: ast.stmt, model: ModuleModel, scope: FunctionInfo | None) -> bool:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    return any(isinstance(n, ast.Call) and not n.args and model.scopes.qualname(n.func, scope) in TIMERS
               for n in walk_nodes(stmt))


def _is_clock_start(stmt: ast.stmt, model: ModuleModel, scope: FunctionInfo | None) -> bool:
    """`t0 = time.perf_counter()`: a start, not a stop (`elapsed = time.time() - t0` is both; it ends a region)."""
    return (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Call)
            and model.scopes.qualname(stmt.value.func, scope) in TIMERS)


def _start_read(stmts: list[ast.stmt], start: int) -> bool:
    """Whether the time a start statement takes (`t0 = time.perf_counter()`) may be read: False when a later
    statement of its block sets the name again before any reads it (`t0 = ...; f(x); t1 = ...`, then `t0 = ...`
    for the next measure: nothing ever computes `t1 - t0`)."""
    target = stmts[start].targets[0] if isinstance(stmts[start], ast.Assign) else None  # type: ignore[attr-defined]
    if not isinstance(target, ast.Name):
        return True
    for stmt in stmts[start + 1:]:
        names = [n for n in walk_nodes(stmt) if isinstance(n, ast.Name) and n.id == target.id]
        if any(isinstance(n.ctx, ast.Load) for n in names):
            return True
        if names:
            return False  # set again, unread
    return True


def _tests_loop_result(model: ModuleModel, node: ast.If | ast.While, region: list[ast.stmt],
                       scope: FunctionInfo | None) -> bool:
    """An `if`/`while` in a loop of the region whose test reads (not only for its shape) a name the same loop binds
    to the result of JAX work (`sol, state = jitted_update(sol, state)`, then `if stop_criterion(state.error,
    tol): break` on the next iteration): deciding the branch needs the value, so every iteration waits for the
    step before it, and what the clock misses is at most the last step (benchmarx, round 39)."""
    execution = model.fact(Execution)
    loops = [n for stmt in region for n in walk_nodes(stmt) if isinstance(n, (ast.For, ast.AsyncFor, ast.While))
             and _contains(n, node)]
    for loop in loops:
        results = {t.id for n in walk_nodes(loop) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                   and execution.dispatch_kind(n.value, scope) is not None
                   for target in n.targets for t in walk_nodes(target) if isinstance(t, ast.Name)}
        varying = {n.id for n in walk_nodes(loop) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        for n in _evaluated(node.test, varying):
            if isinstance(n, ast.Name) and n.id in results and not (
                    isinstance(parent := model.scopes.parents.get(n), ast.Attribute) and parent.attr in ARRAY_STATIC_ATTRS):
                return True
    return False


def _evaluated(test: ast.expr, varying: set[str]) -> list[ast.AST]:
    """The nodes of a loop's test that its iterations evaluate: every part, but of `a and b` / `a or b` the parts
    after `a` only when `a` reads a name the loop changes (`i > 0 and err < tol` reads `err` from the second
    iteration on; the default `stop_at_loss_increase=False` of `if stop_at_loss_increase and loss > last:` never
    lets it read `loss`, herculens), and of `x if c else y` only `c`."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = [test]
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, ast.BoolOp):
            stack.append(node.values[0])
            for k in range(1, len(node.values)):
                if not any(isinstance(n, ast.Name) and n.id in varying for v in node.values[:k] for n in walk_nodes(v)):
                    break
                stack.append(node.values[k])
        elif isinstance(node, ast.IfExp):
            stack.append(node.test)
        elif not isinstance(node, ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    return out


def _contains(outer: ast.AST, inner: ast.AST) -> bool:
    return any(n is inner for n in walk_nodes(outer))


def _stored_names(region: list[ast.stmt]) -> set[str]:
    """The names the region binds or writes into (`x = ...`, `logs["k"] = ...`, `state.v = ...`)."""
    return {root for stmt in region for n in walk_nodes(stmt) if isinstance(n, (ast.Name, ast.Subscript, ast.Attribute))
            and isinstance(n.ctx, ast.Store) and (root := _root_name(n)) is not None}


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _may_wait_for(sync: ast.AST, call: ast.Call, region: list[ast.stmt]) -> bool:
    """Whether the host read `sync` may run after `call` in the region: later in the code, around it, or in a loop
    of the region that holds both (a later iteration's read follows an earlier iteration's call)."""
    pos = (sync.lineno, sync.col_offset)  # type: ignore[attr-defined]
    if pos >= (call.lineno, call.col_offset) or _contains(sync, call):
        return True
    loops = (n for stmt in region for n in walk_nodes(stmt) if isinstance(n, (ast.For, ast.AsyncFor, ast.While)))
    return any(_contains(loop, sync) and _contains(loop, call) for loop in loops)


def _after_any(node: ast.AST, dispatched: list[tuple[ast.Call, Kind]]) -> bool:
    pos = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
    return any((d.lineno, d.col_offset) <= pos or _contains(node, d) for d, _ in dispatched)
