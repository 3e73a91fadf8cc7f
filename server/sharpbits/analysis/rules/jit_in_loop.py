"""SB303 jit-in-loop: a function jitted anew on every iteration of a loop (or call of a per-step function)."""

from __future__ import annotations

import ast

from sharpbits.analysis.execution import Execution
from sharpbits.analysis.model import COMPILING, LOOPS, FunctionInfo, ModuleModel
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.syntax import walk_nodes
from sharpbits.findings import Fix, Severity, TextEdit

_COMPILING_TAILS = tuple({name.rsplit(".", 1)[1] for name in COMPILING})
_UNHASHABLE = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


class JitInLoop(Rule):
    code = "SB303"
    name = "jit-in-loop"
    severity = "warning"
    messages = {
        "fresh-callable": (
            "`{call}` is created {where}: `{transform}` traces and compiles this new {kind} every time; jit it once, outside the loop{note}"
        ),
        "note-varying": (
            " (it reads `{name}`, which changes {when}: if each version must compile anyway, pass the "
            "varying value as an argument or make it static)"
        ),
        "note-shape": (
            " (its argument `{name}` is made in the loop with a shape that reads the loop variable: each new shape "
            "compiles anyway, also with the jit hoisted)"
        ),
        "note-sweep": (
            " (the loop walks a fixed set of cases: if each case must compile anyway, this costs nothing)"
        ),
        "unhashable-static": (
            "`{param}` is a static argument of `{function}`, and a {what} is not hashable: ValueError at the call; pass a tuple"
        ),
        "lambda-static": (
            "`{param}` is a static argument of `{function}`, and this lambda is new each iteration: every call recompiles; define it once"
        ),
    }
    summary = ("Flags `jax.jit` of a lambda, nested function, `functools.partial`, bound method or `vmap`/`grad` "
               "wrapper created and called inside a loop (or a function called from one), and unhashable static "
               "arguments.")
    why = """
`jax.jit` caches compiled code per wrapped function object. A module-level function jitted inside a loop is
traced once (the cache finds it again), but a `lambda`, a nested `def`, a `functools.partial(...)`, a bound method
(`self.forward`) or a `jax.vmap(f)`/`jax.grad(f)` wrapper is a **new object** every time the expression runs, so
`jax.jit(...)` of it misses the cache: the function is traced and compiled again on every iteration. The loop
then spends its time compiling (often 100x slower than the compiled step itself). `jax.pmap` differs for a bound
method only: it compares the functions in its cache by equality, and `self.step` of one object is equal on every
access, so `jax.pmap(self.step)` built anew finds its compilation again and is not flagged.

A static argument must be hashable: a list or dict literal passed where `static_argnums`/`static_argnames` point
raises `ValueError: Non-hashable static arguments are not supported`, and a lambda passed there is a new value
on every call, which retraces every call.

`jax.jit` also keys its cache on the arguments' shapes: when the loop makes an argument with a shape read from the
loop variable (`x = jnp.ones((n, 4))` in `for n in sizes`, or through a helper of the module that puts its parameter
in a shape), each iteration compiles anyway, also with the jit hoisted; that sweep over shapes is reported as info.

A jitted function created once (before the loop, at module level, or by a cached factory) is not flagged, nor one
created under a guard that runs once: `if stat is None: stat = float(jax.jit(f)(x))`, where the branch itself
binds the name its test requires to be None and nothing else in the loop binds it again. When the
wrapped function reads a value that changes in the loop (also an attribute of the object a jitted method belongs
to that the loop sets before the jit, `self.q_ind = j` then `jax.jit(self._obj_func)` of a method reading
`self.q_ind`: the trace reads it as it is then, so a jit made once would keep the first value), or the loop walks a literal tuple or list of cases (a
sweep in a test; also a name bound once to one, in the function or as a module constant, and a module table of
sizes such as `NSIDES = [2 ** (i + 1) for i in range(10)]`), each version may be meant to compile anyway (each size
is a new shape, which a jit made once before the loop compiles too): those are reported as info.

A loop that runs its body once (over a one-element list, or over a generator of the module whose every path
yields once) is no loop. A list of arrays built with one literal shape and dtype (`[jnp.ones(8), jnp.zeros(8)]`) is
no sweep of shapes: a jit made once before the loop compiles once, so that loop is a warning.
"""
    example = """
import jax
import jax.numpy as jnp

def train(w, batches):
    for x in batches:
        w = jax.jit(lambda w, x: w - 0.1 * jnp.mean(x @ w) * x[0])(w, x)
    return w
"""
    use_instead = """
import jax
import jax.numpy as jnp

def train(w, batches):
    jitted = jax.jit(lambda w, x: w - 0.1 * jnp.mean(x @ w) * x[0])
    for x in batches:
        w = jitted(w, x)
    return w
"""
    fix_safety = """
When the jitted function is created and called inside a `for`/`while` loop and nothing it reads is assigned in
the loop, the fix moves the `jax.jit(...)` call before the loop (as `jitted = jax.jit(...)`, or the loop's own
`name = jax.jit(...)` statement) and calls the hoisted function in the loop. It is **safe** when nothing the
wrapped function reads changes in the loop: it computes the same thing, it is only traced once. It is **unsafe**
for a bound method (`jax.jit(self.forward)` reads the object's attributes once, at its one trace, so later
changes to them are no longer seen) and when an object it reads is changed in place in the loop
(`self.w = ...`, `cfg["lr"] = ...`). No fix is offered when the wrapped function reads a name assigned in the
loop, for functions called from a loop (the jitted function belongs at module level or in a cached factory), or
for static arguments.
"""
    VALID = [
        # equinox's wrappers are modules compared by value: filter_jit's cache finds a rebuilt filter_vmap of f
        "import equinox as eqx\ndef f(x):\n    return x * 2\ndef run(xs):\n    for x in xs:\n"
        "        eqx.filter_jit(eqx.filter_vmap(f))(x)\n",
        # hoisted out of the loop
        "import jax\ndef run(xs):\n    f = jax.jit(lambda x: x * 2)\n    for x in xs:\n        f(x)\n",
        # a module-level function: the cache finds it again
        "import jax\ndef double(x):\n    return x * 2\ndef run(xs):\n    for x in xs:\n        jax.jit(double)(x)\n",
        # a cached factory
        "import functools\nimport jax\n@functools.lru_cache\ndef make(n):\n    return jax.jit(lambda x: x * n)\n"
        "def run(xs):\n    for x in xs:\n        make(3)(x)\n",
        # jitted functions built in a loop and kept, not called there
        "import functools\nimport jax\ndef scale(x, k):\n    return x * k\n"
        "fns = [jax.jit(functools.partial(scale, k=k)) for k in range(3)]\n",
        # created once, lazily, under a guard
        "import jax\ndef run(xs):\n    f = None\n    for x in xs:\n        if f is None:\n"
        "            f = jax.jit(lambda v: v * 2)\n        f(x)\n",
        # a call under a guard its own assignment falsifies: it runs on one iteration only (run: 5 iterations, 1 trace)
        "import jax\ndef run(xs):\n    stat = None\n    for x in xs:\n        if x.shape[0] > 0 and stat is None:\n"
        "            stat = float(jax.jit(lambda v: v.sum())(x))\n    return stat\n",
        # a nested def created outside the loop is the same object on every iteration
        "import jax\ndef run(xs):\n    def double(x):\n        return x * 2\n    for x in xs:\n        jax.jit(double)(x)\n",
        # a per-call helper rebinding its parameter to a jit of it: each call wraps the caller's same function
        "import jax\ndef evaluate(f, x):\n    f = jax.jit(f)\n    return f(x)\n"
        "def double(x):\n    return x * 2\ndef run(xs):\n    for x in xs:\n        evaluate(double, x)\n",
        # jit inside traced code is inlined into the outer trace
        "import jax\n@jax.jit\ndef f(xs):\n    for i in range(2):\n        xs = jax.jit(lambda v: v * 2)(xs)\n    return xs\n",
        # a method of an object that is not made here: nothing says it is the class whose method jits
        "import jax\nclass Model:\n    def _loss(self, x):\n        return x.sum()\n"
        "    def evaluate(self, x):\n        return jax.jit(self._loss)(x)\ndef run(model, xs):\n"
        "    for x in xs:\n        model.evaluate(x)\n",
        # `jax.pmap` finds an equal bound method of the same object in its cache (jax.jit does not)
        "import jax\nclass Trainer:\n    def eval_step(self, x):\n        return x * 2\n"
        "    def evaluate(self, x):\n        return jax.pmap(self.eval_step, axis_name='batch')(x)\n"
        "    def train(self, xs):\n        for x in xs:\n            self.evaluate(x)\n",
        # hashable static arguments
        "import functools\nimport jax\n@functools.partial(jax.jit, static_argnums=1)\ndef f(x, shape):\n"
        "    return x.reshape(shape)\ny = f(1.0, (1,))\n",
    ]
    INVALID = [
        Invalid(
            "import jax\ndef run(xs):\n    out = []\n    for x in xs:\n        out.append(jax.jit(lambda v: v * 2)(x))\n"
            "    return out\n",
            fixed="import jax\ndef run(xs):\n    out = []\n    jitted = jax.jit(lambda v: v * 2)\n    for x in xs:\n"
            "        out.append(jitted(x))\n    return out\n",
        ),
        Invalid(  # the loop's own assignment is moved
            "import jax\nclass Model:\n    def forward(self, x):\n        return x * 2\n    def run(self, xs):\n"
            "        for x in xs:\n            f = jax.jit(self.forward)\n            x = f(x)\n        return x\n",
            fixed="import jax\nclass Model:\n    def forward(self, x):\n        return x * 2\n    def run(self, xs):\n"
            "        f = jax.jit(self.forward)\n        for x in xs:\n            x = f(x)\n        return x\n",
        ),
        Invalid(  # the loop sets the state the jitted method reads at trace time: each iteration needs its trace
            "import jax\nclass Opt:\n    def _obj(self, x):\n        return x * self.weights[self.q]\n"
            "    def solve(self, x):\n        for j in range(3):\n            self.q = j\n"
            "            f = jax.jit(self._obj)\n            x = f(x)\n        return x\n",
            severity="info",
        ),
        Invalid(  # depends on the loop variable: flagged, not hoisted
            "import jax\ndef run(x):\n    for k in range(3):\n        x = jax.jit(lambda v: v * k)(x)\n    return x\n",
            severity="info",
        ),
        Invalid(  # a sweep over a fixed set of cases: each may be meant to compile anyway
            "import jax\nimport jax.numpy as jnp\ndef check():\n    for x in (jnp.ones(2), jnp.ones((2, 2))):\n"
            "        def total(v):\n            return v.sum()\n        assert jax.jit(total)(x) == total(x)\n",
            severity="info",
        ),
        Invalid(  # a sweep over a module constant, a table of sizes: each size is a new shape, which a hoisted jit
            # compiles too (run: 6 sizes, 6 traces in the loop and 6 hoisted)
            "import functools\nimport jax\nimport numpy as np\nSIZES = [2 ** (i + 1) for i in range(6)]\n"
            "def convert(a, b, x):\n    return x[::-1]\ndef check():\n    for size in SIZES:\n"
            "        jax.jit(functools.partial(convert, 'ring', 'nest'))(np.arange(size))\n",
            severity="info",
            fixed="import functools\nimport jax\nimport numpy as np\nSIZES = [2 ** (i + 1) for i in range(6)]\n"
            "def convert(a, b, x):\n    return x[::-1]\ndef check():\n"
            "    jitted = jax.jit(functools.partial(convert, 'ring', 'nest'))\n    for size in SIZES:\n"
            "        jitted(np.arange(size))\n",
        ),
        Invalid(  # ... but a module list of repeated arrays is no table of cases: one shape, 6 traces against 1
            "import functools\nimport jax\nimport jax.numpy as jnp\nMAPS = [jnp.ones(8) for _ in range(6)]\n"
            "def convert(a, b, x):\n    return x[::-1]\ndef check():\n    for m in MAPS:\n"
            "        jax.jit(functools.partial(convert, 'ring', 'nest'))(m)\n",
            fixed="import functools\nimport jax\nimport jax.numpy as jnp\nMAPS = [jnp.ones(8) for _ in range(6)]\n"
            "def convert(a, b, x):\n    return x[::-1]\ndef check():\n"
            "    jitted = jax.jit(functools.partial(convert, 'ring', 'nest'))\n    for m in MAPS:\n        jitted(m)\n",
        ),
        Invalid(  # ... nor is a module constant that the function rebinds before its loop
            "import functools\nimport jax\nimport numpy as np\nSIZES = [2 ** (i + 1) for i in range(6)]\n"
            "def convert(a, b, x):\n    return x[::-1]\ndef check():\n    SIZES = [8] * 6\n    for size in SIZES:\n"
            "        jax.jit(functools.partial(convert, 'ring', 'nest'))(np.arange(size))\n",
            fixed="import functools\nimport jax\nimport numpy as np\nSIZES = [2 ** (i + 1) for i in range(6)]\n"
            "def convert(a, b, x):\n    return x[::-1]\ndef check():\n    SIZES = [8] * 6\n"
            "    jitted = jax.jit(functools.partial(convert, 'ring', 'nest'))\n    for size in SIZES:\n"
            "        jitted(np.arange(size))\n",
        ),
        Invalid(  # vmap of a module-level function is a new wrapper each time
            "import jax\ndef f(x):\n    return x * 2\nwhile True:\n    y = jax.jit(jax.vmap(f))(jax.numpy.ones(3))\n"
            "    break\n",
            fixed="import jax\ndef f(x):\n    return x * 2\njitted = jax.jit(jax.vmap(f))\nwhile True:\n"
            "    y = jitted(jax.numpy.ones(3))\n    break\n",
        ),
        Invalid(  # a per-step function called from a loop
            "import jax\ndef step(w, x):\n    update = jax.jit(lambda w, x: w - 0.1 * x)\n    return update(w, x)\n"
            "def train(w, xs):\n    for x in xs:\n        w = step(w, x)\n    return w\n",
        ),
        Invalid(  # a bound method jitted in a method an object made here is asked for on every batch
            "import jax\nclass Model:\n    def _loss(self, w, x):\n        return (x @ w).sum()\n"
            "    def evaluate(self, w, x):\n        return jax.jit(self._loss)(w, x)\nmodel = Model()\n"
            "for x in [jax.numpy.ones((2, 2))] * 3:\n    model.evaluate(jax.numpy.ones(2), x)\n",
        ),
        Invalid(  # a partial of a bound method is new each time, also for `jax.pmap`
            "import functools\nimport jax\nclass Trainer:\n    def eval_step(self, k, x):\n        return x * k\n"
            "    def evaluate(self, x):\n        return jax.pmap(functools.partial(self.eval_step, 2.0))(x)\n"
            "    def train(self, xs):\n        for x in xs:\n            self.evaluate(x)\n",
        ),
        Invalid(  # a partial of the same config on every call: still a new object each time
            "import functools\nimport jax\ndef loss(cfg, w, x):\n    return cfg['scale'] * (x @ w).sum()\n"
            "def evaluate(cfg, w, x):\n    return jax.jit(functools.partial(loss, cfg))(w, x)\n"
            "def run(cfg, w, xs):\n    for x in xs:\n        evaluate(cfg, w, x)\n",
        ),
        Invalid(  # the loop passes a different config on each call: each version may be meant to compile
            "import functools\nimport jax\ndef loss(cfg, w, x):\n    return cfg['scale'] * (x @ w).sum()\n"
            "def evaluate(cfg, w, x):\n    return jax.jit(functools.partial(loss, cfg))(w, x)\n"
            "def run(cfgs, w, x):\n    for cfg in cfgs:\n        evaluate(cfg, w, x)\n",
            severity="info",
        ),
        Invalid(  # the loop hands a different function on each call (round 36's cholops): each compiles anyway
            "import jax\ndef evaluate(fn, x):\n    return jax.jit(jax.value_and_grad(fn))(x)\n"
            "def run(fns, x):\n    for f in fns:\n        evaluate(f, x)\n",
            severity="info",
        ),
        Invalid(  # ...or a function the loop defines from its own variable (round 36's cholops): one per class
            "import jax\ndef evaluate(fn, x):\n    return jax.jit(jax.value_and_grad(fn))(x)\n"
            "def run(scales, x):\n    for c in scales:\n        def score(v):\n            return (v * c).sum()\n"
            "        evaluate(score, x)\n",
            severity="info",
        ),
        Invalid(  # ...but one the loop defines the same each time could be made (and jitted) once
            "import jax\ndef evaluate(fn, x):\n    return jax.jit(jax.value_and_grad(fn))(x)\n"
            "def run(xs):\n    for x in xs:\n        def score(v):\n            return (v * 2.0).sum()\n"
            "        evaluate(score, x)\n",
        ),
        Invalid(  # ...but the same function on every call: a new value_and_grad object, compiled each time
            "import jax\ndef evaluate(fn, x):\n    return jax.jit(jax.value_and_grad(fn))(x)\n"
            "def run(f, xs):\n    for x in xs:\n        evaluate(f, x)\n",
        ),
        Invalid(  # a lambda bound to a name first is the same new object: each call of the per-step function compiles
            "import jax\ndef step(w, x):\n    update = lambda w, x: w - 0.1 * x\n    return jax.jit(update)(w, x)\n"
            "def train(w, xs):\n    for x in xs:\n        w = step(w, x)\n    return w\n",
        ),
        Invalid(  # ...and when it reads what the loop passes (each stack's sizes), each version compiles anyway
            "import jax\ndef init_stack(rng, sizes):\n    init = lambda r: [jax.random.normal(r, (s,)) for s in sizes]\n"
            "    return jax.jit(init)(rng)\ndef init_all(rng, stacks):\n    out = {}\n"
            "    for name, sizes in stacks.items():\n        out[name] = init_stack(rng, sizes)\n    return out\n",
            severity="info",
        ),
        Invalid(  # ...but a guard re-armed on every iteration (`stat = None`) lets it run each time (run: 5 traces)
            "import jax\ndef run(xs):\n    for x in xs:\n        stat = None\n        if stat is None:\n"
            "            stat = float(jax.jit(lambda v: v.sum())(x))\n    return stat\n",
            fixed="import jax\ndef run(xs):\n    jitted = jax.jit(lambda v: v.sum())\n    for x in xs:\n        stat = None\n"
            "        if stat is None:\n            stat = float(jitted(x))\n    return stat\n",
        ),
        Invalid(  # ...and `or` does not require the guard
            "import jax\ndef run(xs, always):\n    stat = None\n    for x in xs:\n        if always or stat is None:\n"
            "            stat = float(jax.jit(lambda v: v.sum())(x))\n    return stat\n",
            fixed="import jax\ndef run(xs, always):\n    stat = None\n    jitted = jax.jit(lambda v: v.sum())\n    for x in xs:\n"
            "        if always or stat is None:\n            stat = float(jitted(x))\n    return stat\n",
        ),
        Invalid(  # a sweep over shapes: the argument gets a new shape each iteration, which compiles anyway (run: 5
            # sizes, 5 traces whether the jit is in the loop or hoisted)
            "import jax\nimport jax.numpy as jnp\ndef sweep(sizes):\n    for n in sizes:\n"
            "        x = jnp.ones((n, 4)).astype(jnp.bfloat16)\n        jax.jit(lambda v: v * 2)(x)\n",
            severity="info",
            fixed="import jax\nimport jax.numpy as jnp\ndef sweep(sizes):\n    jitted = jax.jit(lambda v: v * 2)\n"
            "    for n in sizes:\n        x = jnp.ones((n, 4)).astype(jnp.bfloat16)\n        jitted(x)\n",
        ),
        Invalid(  # ...also through a helper of the module that puts its parameter in a shape, and a method of the result
            "import jax\nimport jax.numpy as jnp\ndef inputs(length):\n    return jnp.ones((length, 4)), jnp.ones((4,))\n"
            "def sweep(lengths):\n    for length in lengths:\n        a, b = inputs(length)\n        a16 = a.astype(jnp.bfloat16)\n"
            "        f = jax.jit(lambda v, w: v @ w)\n        f(a16, b)\n",
            severity="info",
            fixed="import jax\nimport jax.numpy as jnp\ndef inputs(length):\n    return jnp.ones((length, 4)), jnp.ones((4,))\n"
            "def sweep(lengths):\n    f = jax.jit(lambda v, w: v @ w)\n    for length in lengths:\n        a, b = inputs(length)\n"
            "        a16 = a.astype(jnp.bfloat16)\n        f(a16, b)\n",
        ),
        Invalid(  # ...but values that follow the loop in arrays of one shape compile once when hoisted (run: 5 traces, 1)
            "import jax\nimport jax.numpy as jnp\ndef steps(k):\n    for step in range(k):\n        x = jnp.ones((8, 4)) * step\n"
            "        jax.jit(lambda v: v * 2)(x)\n",
            fixed="import jax\nimport jax.numpy as jnp\ndef steps(k):\n    jitted = jax.jit(lambda v: v * 2)\n"
            "    for step in range(k):\n        x = jnp.ones((8, 4)) * step\n        jitted(x)\n",
        ),
        Invalid(  # a nested def created in the loop body
            "import jax\ndef run(xs, scale):\n    for x in xs:\n        def f(v):\n            return v * scale\n"
            "        x = jax.jit(f)(x)\n    return x\n",
        ),
        Invalid(  # an unhashable static argument
            "import functools\nimport jax\n@functools.partial(jax.jit, static_argnames='axes')\ndef total(x, axes):\n"
            "    return x.sum(axes)\ny = total(jax.numpy.ones((2, 2)), axes=[0, 1])\n",
            severity="error",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        for call in model.scopes.candidates("maybe compiling calls", (ast.Call,), _may_compile):
            assert isinstance(call, ast.Call)
            func = call.func
            last = func.attr if isinstance(func, ast.Attribute) else model.scopes.aliases.get(func.id, "") if isinstance(
                func, ast.Name) else ""
            if not last.endswith(_COMPILING_TAILS) or not call.args:
                continue  # cheap test first: most calls are not jit
            scope = model.scopes.enclosing_function(call)
            if scope is not None and scope.traced:
                continue  # jit inside traced code is inlined into the outer trace
            site = model.traced.transform_of(call.func, scope)
            if site is None or site.transform not in COMPILING or not call.args:
                continue
            self._check_jit(ctx, call, scope, site.transform)
        self._check_decorated_defs(ctx)
        self._check_static_arguments(ctx)

    def _check_decorated_defs(self, ctx: RuleContext) -> None:
        """`@jax.jit` on a `def` inside a loop body: the decorator runs each iteration and wraps a new function
        object, whose first call traces and compiles it again (the same as `jax.jit(f)` of a nested def)."""
        model = ctx.model
        execution = model.fact(Execution)
        for fn in model.traced.traced_functions():
            if isinstance(fn.node, ast.Lambda) or fn.parent is None or fn.parent.traced:
                continue
            site = next((t for t in fn.traces if t.node in fn.node.decorator_list and t.transform in COMPILING), None)
            if site is None:
                continue
            loop = execution.enclosing_loop(fn.node)
            if not isinstance(loop, LOOPS):
                continue
            calls = [n for n in walk_nodes(loop) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                     and n.func.id == fn.name and model.scopes.enclosing_function(n) is fn.parent
                     and n.lineno > fn.node.end_lineno]  # type: ignore[operator]
            if not calls:
                continue  # defined in the loop but only kept (or registered): nothing is traced per iteration
            deco = site.node
            if deco is None:
                continue
            varying = _varying_names(loop, fn.parent, True, model) - {fn.name}
            free = {n.id for n in walk_nodes(fn.node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            free -= set(fn.local_names) | set(fn.params)
            defaults = [*fn.node.args.defaults, *(d for d in fn.node.args.kw_defaults if d is not None)]
            free |= {n.id for d in defaults for n in walk_nodes(d) if isinstance(n, ast.Name)}  # `lw=lw`: bound here
            depends = sorted(free & varying)
            sweep = _walks_cases(loop, fn.parent, model)
            note = (self.message("note-varying", name=depends[0], when="in the loop") if depends
                    else self.message("note-sweep") if sweep else "")
            spelled = ast.unparse(deco.func if isinstance(deco, ast.Call) and model.traced.transform_of(
                deco, fn.parent) is None else deco)
            message = self.message("fresh-callable", call=f"@{spelled} def {fn.name}",
                                   where=f"on every iteration of the loop at line {loop.lineno}",  # type: ignore[attr-defined]
                                   kind=_KIND_WORDS["nested function"], transform=site.transform, note=note)
            ctx.report(deco, message, severity="info" if depends or sweep else None)

    def _check_jit(self, ctx: RuleContext, call: ast.Call, scope: FunctionInfo | None, transform: str) -> None:
        model = ctx.model
        wrapped = call.args[0]
        loop = model.fact(Execution).enclosing_loop(call)
        if loop is not None:
            region: ast.AST = loop
        elif scope is not None and model.fact(Execution).called_in_loop(scope) is not None:
            region = scope.node
        else:
            return
        called = _called_in_region(call, region, model)
        if called is None or (isinstance(loop, LOOPS) and (
                _under_once_guard(call, loop, model) or model.fact(Execution).single_pass(loop, scope))):
            return
        what = _fresh_callable(wrapped, region, scope, model)
        if what is None or (transform == "equinox.filter_jit" and _equal_equinox_wrapper(wrapped, region, scope, model)) or (
                what == "bound method" and transform == "jax.pmap"):
            # `jax.pmap` keys its cache on the function compared by equality, and two bound methods of one object
            # and one function are equal: `jax.pmap(self.step)` built anew per call finds its compilation again
            return
        spelled = ast.unparse(call.func)
        shown = _short(wrapped)
        if loop is not None:
            where = f"on every iteration of the loop at line {loop.lineno}"  # type: ignore[attr-defined]
        else:
            where = f"on every call of `{scope.name}`, which is called from a loop"  # type: ignore[union-attr]
        varying = _varying_names(region, scope, loop is not None, model)
        # (`jax.jit(jax.value_and_grad(fn))` with `fn` a different function on each call or iteration, round 36's
        # cholops: a jit made once could not be reused either)
        named = _named_outside_lambdas(wrapped) - _functions_made_in(region)
        depends = sorted((_free_reads(call, model) | _bound_callable_reads(call, region, scope, model) | named)
                         & varying) or _state_set_for_the_trace(call, region, scope, model)
        sweep = isinstance(loop, LOOPS) and _walks_cases(loop, scope, model)
        reshaped = _argument_reshaped_by_loop(call, called, loop, model) if isinstance(loop, ast.For) else None
        severity: Severity | None = None
        note = ""
        if depends or sweep or reshaped:
            # each iteration may be meant to compile a different function (a sweep over configurations), or gets
            # arguments of a new shape, which compiles again whatever function is jitted (a sweep over shapes)
            severity = "info"
            if depends:
                note = self.message("note-varying", name=depends[0], when="in the loop" if loop is not None else "per call")
            elif reshaped:
                note = self.message("note-shape", name=reshaped)
            else:
                note = self.message("note-sweep")
        message = self.message("fresh-callable", call=f"{spelled}({shown})", where=where, kind=_KIND_WORDS[what],
                               transform=spelled, note=note)
        fix = _hoist(ctx, call, loop, called) if isinstance(loop, LOOPS) and not depends else None
        ctx.report(call, message, fix, fix_title="create the jitted function once, before the loop",
                   severity=severity)

    def _check_static_arguments(self, ctx: RuleContext) -> None:
        model = ctx.model
        for fn in model.traced.traced_functions():
            if not fn.static_params or isinstance(fn.node, ast.Lambda):
                continue
            if not any(t.transform in COMPILING for t in fn.traces):
                continue
            defaults = {id(d) for d in [*fn.node.args.defaults, *fn.node.args.kw_defaults] if d is not None}
            for param in sorted(fn.static_params - {"self", "cls"}):
                for value in model.traced.argument_values(fn, param):
                    if id(value) in defaults:
                        continue
                    display = value if isinstance(value, _UNHASHABLE) else _unhashable_binding(model, value)
                    if display is not None:
                        what = type(display).__name__.lower().replace("comp", " comprehension")
                        ctx.report(value, self.message("unhashable-static", param=param, function=fn.name, what=what),
                                   severity="error")
                    elif isinstance(value, ast.Lambda) and model.fact(Execution).enclosing_loop(value) is not None:
                        ctx.report(value, self.message("lambda-static", param=param, function=fn.name))


def _walks_cases(loop: ast.AST, scope: FunctionInfo | None, model: ModuleModel) -> bool:
    """A `for` over a literal tuple/list/set of cases, or over a name the scope binds once to one (`dims = [10,
    100, 1_000]` then `for dim in dims:`), or over a module constant that the function never binds (`NSIDES =
    [2 ** (i + 1) for i in range(10)]` at module level): a sweep, each case of which may be meant to compile (new
    shapes)."""
    it = getattr(loop, "iter", None)
    if isinstance(it, ast.Name):
        it = model.traced.bound_once(it.id, scope)
    return it is not None and _cases(it, scope, model)


# functions that arrange literal cases into more cases: `sorted(itertools.product([4, 8], [16, 32]))` is a sweep
# of shapes as much as the literal list of their pairs (not `range`: the same shapes again, the loop's classic form)
_ARRANGING = {"list", "tuple", "sorted", "reversed", "set", "zip", "itertools.product", "itertools.combinations",
              "itertools.permutations", "itertools.chain"}


def _cases(expr: ast.AST, scope: FunctionInfo | None, model: ModuleModel) -> bool:
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        return not _arrays_of_one_shape(expr.elts, scope, model)
    if isinstance(expr, (ast.ListComp, ast.SetComp)):
        return _table_of_constants(expr, scope, model)
    if isinstance(expr, ast.Call) and expr.args and not expr.keywords:
        name = model.scopes.qualname(expr.func, scope) or (expr.func.id if isinstance(expr.func, ast.Name) else "")
        return name in _ARRANGING and all(_cases(a, scope, model) for a in expr.args)
    return False


# array constructors whose first argument is the shape (and `dtype=` the dtype)
_SHAPED_CONSTRUCTORS = {f"{m}.{f}" for m in ("jax.numpy", "numpy") for f in ("zeros", "ones", "empty")}


def _arrays_of_one_shape(elts: list[ast.expr], scope: FunctionInfo | None, model: ModuleModel) -> bool:
    """`[jnp.ones(8), jnp.zeros(8), jnp.ones(8) * 2]`: two or more arrays, each built by a constructor given the
    same literal shape and dtype (or that times, plus, minus a number): one shape for the jit's cache, so the loop
    is no sweep of shapes, and a jit hoisted out of it compiles once."""
    signatures = set()
    for elt in elts:
        while isinstance(elt, ast.BinOp) and isinstance(elt.op, (ast.Mult, ast.Add, ast.Sub, ast.Div)) and (
                isinstance(elt.right, ast.Constant) or isinstance(elt.left, ast.Constant)):
            elt = elt.left if isinstance(elt.right, ast.Constant) else elt.right
        if not (isinstance(elt, ast.Call) and elt.args and model.scopes.qualname(elt.func, scope) in _SHAPED_CONSTRUCTORS
                and all(isinstance(n, (ast.Constant, ast.Tuple, ast.expr_context)) for n in walk_nodes(elt.args[0]))):
            return False
        dtype = next((ast.dump(k.value) for k in elt.keywords if k.arg == "dtype"), None)
        library = (model.scopes.qualname(elt.func, scope) or "").split(".")[0]
        signatures.add((ast.dump(elt.args[0]), dtype, library))
    return len(elts) > 1 and len(signatures) == 1


def _table_of_constants(comp: ast.ListComp | ast.SetComp, scope: FunctionInfo | None, model: ModuleModel) -> bool:
    """`[2 ** (i + 1) for i in range(10)]`: one generator, no condition, over `range` of literal ints or over
    cases, whose element is arithmetic of its variable and literals and reads the variable: a list of distinct
    constants (sizes, orders), each case of a sweep (`[jnp.ones(3) for _ in range(10)]` is not)."""
    if len(comp.generators) != 1:
        return False
    gen = comp.generators[0]
    if gen.ifs or gen.is_async or not isinstance(gen.target, ast.Name):
        return False
    it = gen.iter
    over_range = (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                  and model.scopes.qualname(it.func, scope) in (None, "range", "builtins.range") and not it.keywords
                  and 1 <= len(it.args) <= 3 and all(
                      isinstance(a, ast.Constant) and type(a.value) is int for a in it.args))
    if not (over_range or _cases(it, scope, model)):
        return False
    target = gen.target.id
    reads = False
    for node in walk_nodes(comp.elt):
        if isinstance(node, ast.Name):
            if node.id != target:
                return False
            reads = True
        elif not isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Constant, ast.operator, ast.unaryop, ast.expr_context)):
            return False
    return reads


def _unhashable_binding(model: ModuleModel, value: ast.AST) -> ast.AST | None:
    """The list/dict/set display a name passed as a static argument holds wherever it is bound (`config =
    {"depth": 2}` then `f(x, config=config)`): every binding of the name in its scope assigns such a display, so
    the value JAX hashes is a list or dict whatever path led to the call."""
    if not isinstance(value, ast.Name):
        return None
    scope = model.scopes.enclosing_function(value)
    if scope is not None and value.id in scope.params:
        return None
    displays: list[ast.AST] = []
    for node in model.scopes.own_nodes(scope):
        if isinstance(node, ast.Name) and node.id == value.id and not isinstance(node.ctx, ast.Load):
            parent = model.scopes.parents.get(node)
            if not (isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is not None and (
                    node in (parent.targets if isinstance(parent, ast.Assign) else [parent.target]))
                    and isinstance(parent.value, _UNHASHABLE)):
                return None
            displays.append(parent.value)
        elif isinstance(node, (ast.Global, ast.Nonlocal)) and value.id in node.names:
            return None
    return displays[0] if displays else None


def _may_compile(call: ast.AST) -> bool:
    """From the call's syntax alone: `NAME(arg, ...)` (the name may be an imported `jit`), or `X.attr(arg, ...)`
    with an attribute named like a compiling transformation (`jax.jit`, `eqx.filter_jit`, `jax.pmap`)."""
    func = call.func  # type: ignore[attr-defined]
    return bool(call.args) and (isinstance(func, ast.Name) or (  # type: ignore[attr-defined]
        isinstance(func, ast.Attribute) and func.attr.endswith(_COMPILING_TAILS)))


_KIND_WORDS = {"lambda": "lambda", "nested function": "nested function", "partial": "`functools.partial` object",
               "bound method": "bound method", "transformed function": "transformed function"}


_EQUINOX_WRAPPERS = frozenset({"equinox.filter_vmap", "equinox.filter_grad", "equinox.filter_value_and_grad",
                               "equinox.filter_jacfwd", "equinox.filter_jacrev", "equinox.filter_hessian",
                               "equinox.Partial"})


def _equal_equinox_wrapper(wrapped: ast.AST, region: ast.AST, scope: FunctionInfo | None, model: ModuleModel) -> bool:
    """`eqx.filter_jit(eqx.filter_vmap(f, ...))` rebuilt on each iteration: equinox's wrappers are modules,
    compared by value, and filter_jit's cache keys on that value, so a wrapper of the same function (not itself
    new each time) finds the compiled code again (checked, equinox 0.13.8: 5 iterations, 1 trace; of a lambda, 5)."""
    if not (isinstance(wrapped, ast.Call) and wrapped.args
            and model.scopes.qualname(wrapped.func, scope) in _EQUINOX_WRAPPERS):
        return False
    inner = wrapped.args[0]
    if isinstance(inner, ast.Call):
        return _equal_equinox_wrapper(inner, region, scope, model)
    return isinstance(inner, (ast.Name, ast.Attribute)) and _fresh_callable(inner, region, scope, model) is None


def _fresh_callable(wrapped: ast.AST, region: ast.AST, scope: FunctionInfo | None, model: ModuleModel) -> str | None:
    """What kind of new-each-time object `wrapped` is, when it is created inside `region`; else None."""
    if isinstance(wrapped, ast.Lambda):
        return "lambda"
    if isinstance(wrapped, ast.Call):
        q = model.scopes.qualname(wrapped.func, scope)
        if q == "functools.partial":
            return "partial"
        if model.traced.transform_of(wrapped.func, scope) is not None:
            return "transformed function"
        return None
    if isinstance(wrapped, ast.Attribute) and isinstance(wrapped.value, ast.Name) and wrapped.value.id == "self":
        if scope is None or "." not in (method := scope.outermost).qualname:
            return None
        owner = method.qualname.rsplit(".", 1)[0]
        if any(f.qualname == f"{owner}.{wrapped.attr}" and f.parent is None for f in model.scopes.functions.values()):
            return "bound method"
        return None
    if isinstance(wrapped, ast.Name):
        target = model.scopes.resolve_function(wrapped, scope)
        if target is not None and target.parent is not None and _inside(target.node, region, model):
            return "nested function"
        if target is None and scope is not None and wrapped.id in scope.local_names:
            reaching = model.fact(Execution).binding_before(wrapped, region)
            if reaching is not None:  # bound earlier in this run of the region: that binding is what is jitted
                if isinstance(reaching, ast.Assign) and any(isinstance(t, ast.Name) and t.id == wrapped.id
                                                            for t in reaching.targets):
                    kind = _fresh_callable(reaching.value, region, scope, model)
                    return kind if kind != "bound method" else None
                return None  # e.g. `init, apply = make_sim(T)`: a factory's new function, no cache to miss
            if region is scope.node:
                # a function called from a loop, the jit outside any loop of it: each call starts afresh, so the
                # read sees the parameter (or the value from outside), never a store made later in an earlier
                # call (`f = jax.jit(f)` wraps the caller's same function each call, which the cache finds)
                return None
            for node in model.scopes.own_nodes(scope):  # f = lambda ... / f = partial(...) inside the region
                if isinstance(node, ast.Name) and node.id == wrapped.id and isinstance(node.ctx, ast.Store):
                    stmt = model.scopes.parents.get(node)  # (`f = jax.jit(f)`: the wrapper the last iteration made)
                    if isinstance(stmt, ast.Assign) and _inside(stmt, region, model):
                        kind = _fresh_callable(stmt.value, region, scope, model)
                        if kind is not None and kind != "bound method":
                            return kind
    return None


def _named_outside_lambdas(node: ast.AST) -> set[str]:
    """The names an expression reads, not counting what lambdas inside it read (their free names are
    `_free_reads`'s; their parameters are their own)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Lambda):
            continue
        if isinstance(cur, ast.Name) and isinstance(cur.ctx, ast.Load):
            found.add(cur.id)
        stack.extend(ast.iter_child_nodes(cur))
    return found


def _functions_made_in(region: ast.AST) -> set[str]:
    """Names the region binds to a lambda or a `def` (a new object each time, but the same function)."""
    made = {n.name for n in walk_nodes(region) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    made.update(t.id for n in walk_nodes(region) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Lambda)
                for t in n.targets if isinstance(t, ast.Name))
    return made


def _varying_names(region: ast.AST, scope: FunctionInfo | None, in_loop: bool, model: ModuleModel) -> set[str]:
    """Names that can hold a different value each time the region runs: those assigned in the loop, or the
    parameters and locals of a function called from a loop."""
    if not in_loop and scope is not None:
        return set(scope.local_names) - _invariant_params(scope, model)
    found = {n.id for n in walk_nodes(region) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
    return found | {n.name for n in walk_nodes(region) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _invariant_params(fn: FunctionInfo, model: ModuleModel) -> set[str]:
    """The parameters of a function called from loops that hold the same value on every call: each loop call
    passes nothing there (the default), or a value read from names the loop does not assign (`evaluate(cfg, w,
    x)` with `cfg` set before the loop; the receiver of `model.evaluate(...)`). A call of another value (or with
    `*args`/`**kwargs`) makes every parameter vary."""
    calls = model.fact(Execution).loop_calls(fn)
    if isinstance(fn.node, ast.Lambda) or not calls:
        return set()
    positional = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]]
    invariant = set(fn.params) - {a.arg for a in (fn.node.args.vararg, fn.node.args.kwarg) if a is not None}
    for call in calls:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return set()
        loop = model.fact(Execution).enclosing_loop(call)
        assigned = {n.id for n in walk_nodes(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))} if (
            loop is not None) else set()
        passed: dict[str, ast.AST] = {}
        args = list(call.args)
        if isinstance(call.func, ast.Attribute) and positional[:1] in (["self"], ["cls"]):
            args.insert(0, call.func.value)  # the receiver of a method call is its first parameter
        for name, value in zip(positional, args, strict=False):
            passed[name] = value
        passed.update({k.arg: k.value for k in call.keywords if k.arg is not None})
        # a function defined in the loop that reads what the loop assigns is a different function each time
        # (`def score(...): ... cls.from_matrix(A) ...` under `for cls in (...)`, round 36's cholops)
        made = {d.name for d in walk_nodes(loop) if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in assigned for n in walk_nodes(d))} if (
            loop is not None) else set()
        for name, given in passed.items():
            if any(isinstance(n, (ast.Call, ast.Lambda)) or (isinstance(n, ast.Name) and n.id in assigned | made)
                   for n in walk_nodes(given)):
                invariant.discard(name)
    return invariant


def _free_reads(call: ast.Call, model: ModuleModel) -> set[str]:
    """Names the jitted callable reads from outside itself: free names of a lambda, of a nested def it names,
    and of `partial`/transform arguments."""
    reads: set[str] = set()
    nodes: list[ast.AST] = [call]
    scope = model.scopes.enclosing_function(call)
    wrapped = call.args[0]
    if isinstance(wrapped, ast.Name):
        target = model.scopes.resolve_function(wrapped, scope)
        if target is not None and not isinstance(target.node, ast.Lambda):
            nodes.append(target.node)
    for root in nodes:
        for node in walk_nodes(root):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                owner = model.scopes.enclosing_function(node)
                if node is wrapped:
                    continue  # the new object itself, not something it depends on
                if owner is None or not _bound_within(node.id, owner, scope):
                    reads.add(node.id)  # not a parameter or local of the lambda / nested def itself
    return reads


def _bound_callable_reads(call: ast.Call, region: ast.AST, scope: FunctionInfo | None, model: ModuleModel) -> set[str]:
    """Names read from outside itself by the callable a local name holds when it is jitted: `f = lambda r:
    init(r, specs)` (or `f = functools.partial(loss, cfg)`, `f = jax.vmap(g)`) bound earlier in this run of the
    region, then `jax.jit(f)`. That binding is the object the transformation gets, so it depends on what the
    value reads exactly as when it is written inline: `jax.jit(lambda r: init(r, specs))`."""
    wrapped = call.args[0]
    if not isinstance(wrapped, ast.Name) or scope is None or wrapped.id not in scope.local_names:
        return set()
    if model.scopes.resolve_function(wrapped, scope) is not None:
        return set()  # a nested def: `_free_reads` reads its body
    reaching = model.fact(Execution).binding_before(wrapped, region)
    if not (isinstance(reaching, ast.Assign) and len(reaching.targets) == 1 and isinstance(reaching.targets[0], ast.Name)
            and reaching.targets[0].id == wrapped.id and isinstance(reaching.value, (ast.Lambda, ast.Call))):
        return set()
    reads: set[str] = set()
    for node in walk_nodes(reaching.value):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            owner = model.scopes.enclosing_function(node)
            if owner is None or not _bound_within(node.id, owner, scope):
                reads.add(node.id)  # not a parameter or local of the lambda itself
    return reads


def _state_set_for_the_trace(call: ast.Call, region: ast.AST, scope: FunctionInfo | None,
                             model: ModuleModel) -> list[str]:
    """`self.q_ind = j` in the loop, then `jax.jit(self._obj_func)` of a method of the same class that reads
    `self.q_ind`: the trace reads the attribute as it is when it is made, so each iteration's jit traces a different
    function, one that a jit made once, before the loop, would not be (it would keep the first iteration's value;
    parmoo's pattern search, round 39). The attributes (spelled `self.NAME`) the loop sets and the method reads."""
    wrapped = call.args[0] if call.args else None
    method = model.traced.bound_method(wrapped, scope) if wrapped is not None else None
    if method is None or not isinstance(wrapped, ast.Attribute) or not isinstance(wrapped.value, ast.Name):
        return []
    receiver = wrapped.value.id
    set_in_loop = {n.attr for n in walk_nodes(region) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                   and isinstance(n.value, ast.Name) and n.value.id == receiver}
    if not set_in_loop:
        return []
    own = [n for n in walk_nodes(method.node) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
           and n.value.id == method.params[0]]
    stored = {n.attr for n in own if not isinstance(n.ctx, ast.Load)}  # (`self.loss = ...` then read: its own value)
    read = {n.attr for n in own if isinstance(n.ctx, ast.Load)} - stored
    return sorted(f"{receiver}.{name}" for name in set_in_loop & read)


def _bound_within(name: str, fn: FunctionInfo, stop: FunctionInfo | None) -> bool:
    """Whether `name` is local to `fn` or to a function between `fn` and `stop` (not to `stop` itself)."""
    cur: FunctionInfo | None = fn
    while cur is not None and cur is not stop:
        if name in cur.local_names:
            return True
        cur = cur.parent
    return False


def _root_name(expr: ast.AST) -> str | None:
    while isinstance(expr, (ast.Attribute, ast.Subscript, ast.Call)):
        expr = expr.func if isinstance(expr, ast.Call) else expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _short(expr: ast.AST) -> str:
    if isinstance(expr, ast.Lambda):
        return "lambda ..."
    if isinstance(expr, ast.Call):
        return f"{ast.unparse(expr.func)}(...)"
    text = ast.unparse(expr)
    return text if len(text) <= 30 else "..."



def _inside(node: ast.AST, region: ast.AST, model: ModuleModel) -> bool:
    cur: ast.AST | None = node
    while cur is not None:
        if cur is region:
            return True
        cur = model.scopes.parents.get(cur)
    return False


def _called_in_region(call: ast.Call, region: ast.AST, model: ModuleModel) -> ast.AST | None:
    """How the jitted function is called in the repeated region: the call itself (`jax.jit(f)(x)`), or the name it
    is assigned to (`g = jax.jit(f)` then `g(x)`); None when it is only kept, or created under a guard."""
    parent = model.scopes.parents.get(call)
    if isinstance(parent, ast.Call) and parent.func is call:
        return parent
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return None
    name = parent.targets[0].id
    cur = model.scopes.parents.get(parent)
    while cur is not None and cur is not region:
        if isinstance(cur, ast.If) and any(isinstance(n, ast.Name) and n.id == name for n in walk_nodes(cur.test)):
            return None  # `if f is None: f = jax.jit(...)`: created once
        cur = model.scopes.parents.get(cur)
    scope = model.scopes.enclosing_function(call)
    for node in model.scopes.own_nodes(scope):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
                and _inside(node, region, model)):
            return parent
    return None


def _under_once_guard(call: ast.Call, loop: ast.AST, model: ModuleModel) -> bool:
    """The call runs on one iteration of `loop` at most: it sits in the body of an `if` of the loop whose test
    requires `X is None` (alone or as one operand of `and`), that body binds `X` to a value (not the literal None)
    in a statement of its own, and nothing else in the loop binds `X` (no `X = None` that re-arms the guard):
    once the branch has run, `X` is not None on every later iteration (`if dropped is None: dropped =
    float(jax.jit(f)(x))`)."""
    child: ast.AST = call
    cur = model.scopes.parents.get(call)
    while cur is not None and cur is not loop:
        if isinstance(cur, ast.If) and any(child is s for s in cur.body):
            tests = cur.test.values if isinstance(cur.test, ast.BoolOp) and isinstance(cur.test.op, ast.And) else [cur.test]
            for test in tests:
                if not (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and len(test.ops) == 1
                        and isinstance(test.ops[0], ast.Is) and isinstance(test.comparators[0], ast.Constant)
                        and test.comparators[0].value is None):
                    continue
                name = test.left.id
                arming = [s for s in cur.body if isinstance(s, ast.Assign) and len(s.targets) == 1
                          and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name
                          and not (isinstance(s.value, ast.Constant) and s.value.value is None)]
                stores = [n for n in walk_nodes(loop) if isinstance(n, ast.Name) and n.id == name
                          and isinstance(n.ctx, (ast.Store, ast.Del))]
                if arming and len(stores) == len(arming):
                    return True
        child, cur = cur, model.scopes.parents.get(cur)
    return False


def _argument_reshaped_by_loop(call: ast.Call, called: ast.AST, loop: ast.For, model: ModuleModel) -> str | None:
    """An argument of the jitted function's calls in `loop` that the loop makes with a shape read from the loop
    variable: `x = jnp.ones((n, 4))` in `for n in sizes`, through names the loop derives from it (`m, k =
    SHAPES[name]`), a method of such an array (`b.astype(...)`), or a function of this module given such a value
    that passes its parameter inside a shape tuple (`q, k = _inputs(length)`). `jax.jit` keys its cache on the
    arguments' shapes, so each iteration compiles anyway and a hoisted jit compiles as often (a sweep over shapes).
    None when no argument is such an array."""
    if isinstance(called, ast.Call):
        invocations = [called]
    elif isinstance(called, ast.Assign) and isinstance(called.targets[0], ast.Name):
        name = called.targets[0].id
        invocations = [n for n in walk_nodes(loop) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                       and n.func.id == name]
    else:
        return None
    assigns = [n for n in walk_nodes(loop) if isinstance(n, ast.Assign)]

    def targets(node: ast.Assign) -> set[str]:
        return {n.id for t in node.targets for n in walk_nodes(t) if isinstance(n, ast.Name)}

    def reads(node: ast.AST, names: set[str]) -> bool:
        return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in names for n in walk_nodes(node))

    derived = {n.id for n in walk_nodes(loop.target) if isinstance(n, ast.Name)}  # values that follow the loop
    grown = True
    while grown:
        grown = False
        for node in assigns:
            if reads(node.value, derived) and not targets(node) <= derived:
                derived |= targets(node)
                grown = True
    shaped: set[str] = set()  # arrays whose shape follows the loop
    grown = True
    while grown:
        grown = False
        for node in assigns:
            if not targets(node) <= shaped and _shape_follows(node.value, derived, shaped, model):
                shaped |= targets(node)
                grown = True
    for invocation in invocations:
        for arg in [*invocation.args, *(k.value for k in invocation.keywords)]:
            if isinstance(arg, ast.Name) and arg.id in shaped:
                return arg.id
    return None


def _shape_follows(value: ast.AST, derived: set[str], shaped: set[str], model: ModuleModel) -> bool:
    """`value` makes an array whose shape reads a name of `derived`, or is a method/attribute of one in `shaped`."""
    def in_tuple(arg: ast.AST, names: set[str]) -> bool:
        return isinstance(arg, (ast.Tuple, ast.List)) and any(
            isinstance(n, ast.Name) and n.id in names for e in arg.elts for n in walk_nodes(e))

    if not isinstance(value, ast.Call):
        return isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id in shaped
    func = value.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in shaped:
        return True  # `b.astype(...)`, `x.reshape(...)` of an array whose shape follows the loop
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and _shape_follows(
            func.value, derived, shaped, model):
        return True  # `jax.random.uniform(key, (m, k)).astype(...)`: a method of such an array made in place
    if any(in_tuple(a, derived) for a in [*value.args, *(k.value for k in value.keywords)]):
        return True
    if not isinstance(func, ast.Name):
        return False
    fn = model.scopes.resolve_function(func, model.scopes.enclosing_function(value))
    if fn is None or isinstance(fn.node, ast.Lambda):
        return False
    positional = [a.arg for a in [*fn.node.args.posonlyargs, *fn.node.args.args]]
    params = {p for p, a in zip(positional, value.args, strict=False)
              if any(isinstance(n, ast.Name) and n.id in derived for n in walk_nodes(a))}
    params |= {k.arg for k in value.keywords if k.arg is not None
               and any(isinstance(n, ast.Name) and n.id in derived for n in walk_nodes(k.value))}
    return bool(params) and any(
        isinstance(n, ast.Call) and any(in_tuple(a, params) for a in [*n.args, *(k.value for k in n.keywords)])
        for n in walk_nodes(fn.node))


def _hoist(ctx: RuleContext, call: ast.Call, loop: ast.AST, called: ast.AST):
    """Moves the `jax.jit(...)` call (or the loop's `g = jax.jit(...)` statement) before the loop, when nothing it
    reads is assigned in the loop."""
    model, source = ctx.model, ctx.source
    assigned = {n.id for n in walk_nodes(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
    assigned |= {n.name for n in walk_nodes(loop) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    own_params = {a.arg for n in walk_nodes(call) if isinstance(n, ast.Lambda) for a in walk_nodes(n.args)
                  if isinstance(a, ast.arg)}
    reads = {n.id for n in walk_nodes(call) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if (reads - own_params) & assigned:
        return None
    # Safe only when what the function reads cannot change in the loop: the hoisted function is traced once, so
    # it keeps the values it read then. Objects changed in place in the loop (`self.w = ...`, `cfg["lr"] = ...`,
    # `hist.append(...)`) and a bound method (it reads its object's state) make the rewrite unsafe.
    mutated = {_root_name(n.value) for n in walk_nodes(loop)
               if isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, (ast.Store, ast.Del))}
    mutated |= {_root_name(n.func.value) for n in walk_nodes(loop)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
    wrapped = call.args[0]
    safe = not ((reads - own_params) & mutated) and not (
        isinstance(wrapped, ast.Attribute) and isinstance(wrapped.value, ast.Name) and wrapped.value.id == "self")
    loop_line = source.line_text(loop.lineno)  # type: ignore[attr-defined]
    indent = loop_line[: len(loop_line) - len(loop_line.lstrip())]
    if isinstance(called, ast.Assign):  # the loop's own `g = jax.jit(...)`: move the statement
        if called not in getattr(model.scopes.parents.get(called), "body", []) or model.scopes.parents.get(called) is not loop:
            return None
        first, last = called.lineno, called.end_lineno or called.lineno
        before = source.line_text(first)[: source.char_column(first, called.col_offset)]
        after = source.line_text(last)[source.char_column(last, called.end_col_offset or 0):]
        if before.strip() or after.strip():
            return None  # shares its line with other code
        target = called.targets[0]
        if not isinstance(target, ast.Name) or sum(
                1 for n in walk_nodes(loop) if isinstance(n, ast.Name) and n.id == target.id
                and isinstance(n.ctx, ast.Store)) != 1:
            return None
        text = source.segment(first, len(before), last, source.char_column(last, called.end_col_offset or 0))

        def build_move() -> Fix | None:
            delete = TextEdit(first, 1, last + 1, 1, "")
            insert = TextEdit(loop.lineno, 1, loop.lineno, 1, f"{indent}{text}\n")  # type: ignore[attr-defined]
            return Fix(safe=safe, description="Create the jitted function once, before the loop",
                       edits=(insert, delete))

        return build_move
    names = model.scopes.all_names()
    fresh = "jitted"
    n = 2
    while fresh in names:
        fresh, n = f"jitted_{n}", n + 1
    text = source.node_text(call)

    def build() -> Fix | None:
        insert = TextEdit(loop.lineno, 1, loop.lineno, 1, f"{indent}{fresh} = {text}\n")  # type: ignore[attr-defined]
        replace = TextEdit.replacing(source, call, fresh)
        return Fix(safe=safe, description=f"Create `{fresh} = {ast.unparse(call.func)}(...)` once, before the loop",
                   edits=(insert, replace))

    return build
