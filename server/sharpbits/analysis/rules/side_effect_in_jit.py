"""SB403 side-effect-in-jit: traced code changes state that outlives its trace."""

from __future__ import annotations

import ast

from sharpbits.analysis.effects import SideEffects
from sharpbits.analysis.model import FunctionInfo, ModuleModel
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.syntax import expected_to_raise

_HOST_VALUES = ("draws from the host's random generator", "reads the clock", "returns a clock reading")  # (effects.py: values baked in)


class SideEffectInJit(Rule):
    code = "SB403"
    name = "side-effect-in-jit"
    severity = "warning"
    trace_hazard = True
    messages = {
        "effect": (
            "{what}: {then}; return the value, or use `jax.debug.callback`"
        ),
        "writes": (
            "{where} writes `{target}`, declared outside its trace"
        ),
        "advances": (
            "{where} calls `next()` on the outer iterator `{target}`"
        ),
        "stores": (
            "{where} stores a traced value in `{target}`, which outlives the trace"
        ),
        "then-leaks": (
            "this runs once, at trace time, and leaks a tracer (UnexpectedTracerError when used later)"
        ),
        "then-leaks-each-call": (
            "it leaks a tracer (UnexpectedTracerError when it is used later)"
        ),
        "then-baked": (
            "this runs once, at trace time: the item it takes is baked into the compiled function"
        ),
        "then-once": (
            "this runs once, at trace time, not on every call"
        ),
        "host-draw": (
            "{where} calls `{target}`: it runs once, when JAX traces the function, and its numbers are baked into "
            "the compiled function, so every call gets the same ones; draw with `jax.random` from a key passed in"
        ),
        "clock-returned": (
            "{where} returns a time computed from `{target}`: the clock is read once, when JAX traces the function, so "
            "every call of the compiled function returns that same number; time the call outside it, after "
            "`block_until_ready()`"
        ),
        "clock-key": (
            "{where} seeds a key from `{target}`: the clock is read once, when JAX traces the function, so every "
            "call of the compiled function draws from the same key; pass a key in, or split one carried in the state"
        ),
    }
    summary = ("Flags traced code that changes state outside its trace: storing a traced value in an outer list, "
               "dict or attribute, writing a `global`/`nonlocal`, advancing an outer iterator, or drawing from "
               "NumPy's or Python's random generator (or seeding a key from the clock), which runs once.")
    why = """
`jit` runs the Python body of a function once, at trace time, with tracers standing in for its array arguments;
later calls run the compiled program and never run the Python again. A side effect in the body therefore happens
**once**, not on every call: a list of losses gets one entry, a `global` step counter stops at 1, `next(batches)`
bakes the first batch into the compiled function as a constant. A step number taken with `next(STEP)` from a
module's `itertools.count()` is baked in the same way (every call uses step 0); taken only to format a unique name
for the trace (`jax.named_scope(f"block{next(ids)}")`), it is meant to run at trace time and is not flagged.

Where the stored value is traced, what ends up in the list, dict or attribute is a **tracer**, not a number; using
it after the trace raises `UnexpectedTracerError` (a "leaked tracer").

The same holds for **host randomness**: `np.random.normal(...)` or `random.random()` in a jitted function (or a
`lax.scan`/`fori_loop` body) draws once, at trace time, and the numbers become constants of the compiled program,
so every call (every step of the loop) gets the same "noise". A key seeded from the clock there
(`jax.random.PRNGKey(int(time.time()))`) is one key for every step: the same dropout masks forever. Under
`jax.grad(f)(x)` alone, which traces `f` anew on every call, the draws are fresh and nothing is flagged; nor is a
clock read that only times the trace, or NumPy randomness inside a `jax.debug.callback`. A time computed from the
clock and returned by the jitted function (`return y, {"rollout_time": end - start}`) is a constant of the
compiled program: every call returns the first trace's figure, so it is flagged.

A global set by a once-only initialiser or latch (`if _CACHE is None: _CACHE = ...`, or `if _warned: return` and
then `_warned = True` before a warning, or a load-once function, `if _lib is not None: return _lib` on a global it
sets later in its body, which records flags on the way) is meant to be set once, so trace time is as good as any:
not flagged.

Lists and dicts built inside the traced function (and stacked or returned), values handed to
`jax.debug.callback`/`io_callback` (which run on every call, on the host), static values such as shapes, and
module state of flax.nnx/equinox transformations are not flagged. Nor is a list of an enclosing function that is
only ever counted (`len(traces)`, next to the `traces.append(x)` in the traced function): a trace counter, whose
stored tracers nothing reads, so none leaks. Under `jax.grad` alone (no `jit`) JAX computes
eagerly: only values computed from the function's arguments are tracers, so storing an array computed from one
it closes over is not flagged either.
A branch no trace takes is not flagged: in a helper that traced code calls by name (its name used nowhere but in
calls), an `if` (or ternary) whose test reads only parameters the helper never rebinds, when every traced call
passes a literal for them (or leaves a literal default) that decides the test the same way
(`energy(out, for_jit=True)` from every jitted caller never runs `if not for_jit:` under a trace).

Under `jax.grad`/`value_and_grad`/`vmap` alone (no jit) a function is traced anew on every call: an outer iterator
it advances (`next(keys)`) advances on every call, as in eager code, and is not flagged; nor is a `global` it writes
with a value that is no tracer (a constant, `jnp.zeros(n)`, an argument `grad` does not differentiate): the write
happens on every call. A tracer it stores still leaks, and is reported as such (not as something that runs once). Nor is a traced function the
module only calls inside `with pytest.raises(...)`/`assertRaises`: the test checks that the write is refused.
"""
    example = """
import jax
import jax.numpy as jnp

losses = []

@jax.jit
def step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    losses.append(loss)
    return w - 0.1 * x.T @ (x @ w)
"""
    use_instead = """
import jax
import jax.numpy as jnp

losses = []

@jax.jit
def step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    return w - 0.1 * x.T @ (x @ w), loss

def train(w, x):
    w, loss = step(w, x)
    losses.append(loss)
    return w
"""
    fix_safety = """
No automatic fix: return the value from the traced function and record it in the caller, or, to observe values
on every call, use `jax.debug.callback` (or `jax.experimental.io_callback` for ordered effects).
"""
    VALID = [
        # a method named like a container's whose result is read: list/dict/set `update` returns None, so this is
        # an object's functional update returning the new state
        "import jax\nimport jax.numpy as jnp\ndef run(xs, agg):\n    def body(state, x):\n"
        "        return agg.update(state, x), None\n    state = agg.update(agg.init(), xs[0])\n"
        "    return jax.lax.scan(body, state, xs)[0]\n",
        # effects inside one run of the function that makes the state: a cond branch traced there and then
        # advances the owner's generator (trace-time code generation), a scan body writes the jitted function's
        # own argument dict, which nothing reads after the scan
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, flag):\n    tiles = iter([x[0], x[1], x[2]])\n"
        "    first = next(tiles)\n    def more():\n        return first + next(tiles)\n"
        "    return jax.lax.cond(flag, more, lambda: first)\n",
        "import jax\n@jax.jit\ndef f(feat, keys):\n    def loop(prev, key):\n        feat['prev'] = prev\n"
        "        return prev + feat['x'], prev\n    _, out = jax.lax.scan(loop, feat['x'], keys)\n    return out\n",
        # a local list built and stacked inside the traced function
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    outs = []\n    for i in range(3):\n"
        "        outs.append(x * i)\n    return jnp.stack(outs)\n",
        # a host callback runs on every call, with concrete values
        "import jax\nLOG = []\n@jax.jit\ndef f(x):\n    jax.debug.callback(lambda v: LOG.append(v), x)\n    return x\n",
        "import jax\nLOG = []\n@jax.jit\ndef f(x):\n    def record(v):\n        LOG.append(v)\n"
        "    jax.debug.callback(record, x * 2)\n    return x\n",
        # the function given to a `functools.partial` of a host callback kept under another name runs on the host
        "import functools\nimport jax\ncb = functools.partial(jax.pure_callback, vmap_method='sequential')\n"
        "def make():\n    stage = 'idle'\n    @jax.jit\n    def f(x):\n        def host(v):\n"
        "            nonlocal stage\n            stage = 'ran'\n            return v\n"
        "        return cb(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)\n    return f\n",
        # a static value (a shape) recorded at trace time
        "import jax\nSHAPES = []\n@jax.jit\ndef f(x):\n    SHAPES.append(x.shape)\n    return x\n",
        # attributes written in __init__ / setup are not traced
        "import jax\nimport jax.numpy as jnp\nclass Model:\n    def __init__(self, n):\n        self.w = jnp.zeros(n)\n"
        "    def __call__(self, x):\n        return x @ self.w\n",
        # a nested helper appending to its traced parent's list: the same trace
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    outs = []\n    def add(v):\n"
        "        outs.append(v)\n    add(x)\n    add(x + 1)\n    return jnp.stack(outs)\n",
        # eager code may append what it likes
        "import jax.numpy as jnp\nlosses = []\ndef record(x):\n    losses.append(jnp.mean(x))\n",
        # a trace counter (written on purpose, at trace time)
        "import jax\ntrace_count = 0\n@jax.jit\ndef f(x):\n    global trace_count\n    trace_count += 1\n    return x\n",
        # a jitted method of a pytree class: `self` is traced, rebuilt from its leaves, a copy
        "import jax\nimport jax.numpy as jnp\nclass G:\n    @jax.jit\n    def f(self, x):\n"
        "        self.scale = jnp.exp(x)\n        return self.scale\n",
        # a once-only initialisation at trace time
        "import jax\n_TABLE = None\ndef table():\n    global _TABLE\n    if _TABLE is None:\n        _TABLE = {'a': 1}\n"
        "    return _TABLE\n@jax.jit\ndef f(x):\n    return x * table()['a']\n",
        # a warn-once latch: an early return on the flag, then the flag set (once per process, by design)
        "import warnings\nimport jax\n_WARNED = False\ndef warn_once():\n    global _WARNED\n    if _WARNED:\n"
        "        return\n    _WARNED = True\n    warnings.warn('deprecated')\n@jax.jit\ndef f(x):\n"
        "    warn_once()\n    return x\n",
        # unique names from itertools.count at trace time
        "import itertools\nimport jax\n_ids = itertools.count()\n@jax.jit\ndef f(x):\n"
        "    with jax.named_scope(f'b{next(_ids)}'):\n        return x * 2\n",
        # ... also through a name only formatted into the scope's name
        "import itertools\nimport jax\n_ids = itertools.count()\n@jax.jit\ndef f(x):\n    i = next(_ids)\n"
        "    with jax.named_scope(f'b{i}'):\n        return x * 2\n",
        # under jax.grad alone, a value computed only from an array closed over from eager code is concrete
        "import jax\nimport jax.numpy as jnp\ndef run(problem):\n    ts = jnp.linspace(0.0, 1.0, 3)\n"
        "    def sim(a):\n        problem.dt = ts[1] - ts[0]\n        return a * problem.dt\n"
        "    return jax.grad(sim)(1.0)\n",
        # a list that only counts traces: the tracer stored at trace time is never read as a value
        "import jax\nimport jax.numpy as jnp\ndef test_compiles_once(x):\n    traces = []\n    def f(v):\n"
        "        traces.append(v)\n        return jnp.sum(v)\n    g = jax.jit(f)\n    g(x)\n    g(x)\n"
        "    assert len(traces) == 1\n",
        # under jax.grad alone the function is traced anew on every call: NumPy draws afresh each time
        "import jax\nimport jax.numpy as jnp\nimport numpy as np\ndef g(w):\n    def loss(w):\n"
        "        return jnp.sum(w * np.random.normal(size=w.shape))\n    return jax.grad(loss)(w)\n",
        # ... and an outer iterator advanced there advances on every call, as in eager code
        "import jax\nimport jax.numpy as jnp\nkeys = iter(jax.random.split(jax.random.key(0), 10))\ndef g(w):\n"
        "    def loss(w):\n        return jnp.sum(w * jax.random.normal(next(keys), w.shape))\n"
        "    return jax.value_and_grad(loss)(w)\n",
        # ... and a global written there with no tracer (a constant array, an argument grad does not
        # differentiate) is written on every call
        "import jax\nimport jax.numpy as jnp\nstate = None\ndef loss(w, data, fixed=None):\n    global state\n"
        "    state = jnp.zeros(2) if fixed is None else fixed\n    return jnp.sum(w * data)\n"
        "def g(w, data, lam):\n    return jax.grad(loss)(w, data, fixed=lam)\n",
        # a jitted function the test only calls expecting it to raise (a library refusing the write)
        "import jax\nimport jax.numpy as jnp\nimport pytest\nLOG = []\ndef test_refused():\n    @jax.jit\n"
        "    def h(x):\n        LOG.append(x)\n        return x\n    with pytest.raises(RuntimeError):\n"
        "        h(jnp.ones(2))\n",
        # a clock read that only times the trace
        "import time\nimport jax\n@jax.jit\ndef f(x):\n    start = time.time()\n    y = x * 2\n"
        "    print('traced in', time.time() - start)\n    return y\n",
        # unknown values never warn
        "import jax\nfrom registry import describe\nCACHE = {}\n@jax.jit\ndef f(x):\n    CACHE['last'] = describe(x)\n"
        "    return x\n",
    ]
    INVALID = [
        Invalid(  # a clock reading returned from a jitted function: a constant of the compiled program (jax 0.10.2:
            # three calls return 0.00709... each); one finding for the function's two readings
            "import time\nimport jax\nimport jax.numpy as jnp\n@jax.jit\ndef rollout(x):\n    start = time.time()\n"
            "    y = jnp.tanh(x @ x)\n    end = time.time()\n    log = dict(rollout_time=end - start)\n    return y, log\n"),
        Invalid(  # the callback alias is rebound to a plain call: `host` then runs under the trace, once
            "import functools\nimport jax\ncb = functools.partial(jax.pure_callback, vmap_method='sequential')\n"
            "cb = lambda fn, shape, x: fn(x)\ndef make():\n    stage = 'idle'\n    @jax.jit\n    def f(x):\n"
            "        def host(v):\n            nonlocal stage\n            stage = 'ran'\n            return v\n"
            "        return cb(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)\n    return f\n"),
        Invalid(  # NumPy's generator in a jitted function: drawn once, a constant of the compiled program
            "import jax\nimport numpy as np\n@jax.jit\ndef noisy(x):\n    return x + np.random.normal(size=x.shape)\n"),
        Invalid(  # a key seeded from the clock inside a jitted step: one key for every step
            "import time\nimport jax\n@jax.jit\ndef step(x):\n"
            "    return x * jax.random.bernoulli(jax.random.PRNGKey(int(time.time())), 0.5, x.shape)\n"),
        Invalid(  # ... but read after the scan, the body's tracer has escaped it
            "import jax\n@jax.jit\ndef f(feat, keys):\n    def loop(prev, key):\n        feat['prev'] = prev\n"
            "        return prev + feat['x'], prev\n    _, out = jax.lax.scan(loop, feat['x'], keys)\n"
            "    return out + feat['prev']\n",
        ),
        Invalid(  # under jax.grad alone a value computed from the differentiated argument is a tracer
            "import jax\nimport jax.numpy as jnp\nlosses = []\ndef loss(w):\n    value = jnp.sum(w ** 2)\n"
            "    losses.append(value)\n    return value\ng = jax.grad(loss)(jnp.ones(3))\n"),
        Invalid("import jax\nimport jax.numpy as jnp\nlosses = []\n@jax.jit\ndef step(x):\n"
                "    loss = jnp.mean(x ** 2)\n    losses.append(loss)\n    return x - loss\n"),
        Invalid(  # under jax.jit(jax.grad(f)) the body runs once, at trace time: a global it writes is written once
            "import jax\nimport jax.numpy as jnp\ncalls = 0\ndef loss(w):\n    global calls\n    calls = 1\n"
            "    return jnp.sum(w ** 2)\nstep = jax.jit(jax.grad(loss))\n"),
        Invalid(  # under jax.grad alone a global given the differentiated value holds a tracer
            "import jax\nimport jax.numpy as jnp\nlast = None\ndef loss(w):\n    global last\n    last = w * 2\n"
            "    return jnp.sum(last)\ng = jax.grad(loss)(jnp.ones(3))\n"),
        Invalid(  # a global written through `global`: runs once
            "import jax\nstep_count = 0\n@jax.jit\ndef update(w):\n    global step_count\n    step_count += 1\n"
            "    return w * 0.9\n"),
        Invalid(  # self.attr in a jitted method
            "import functools\nimport jax\nimport jax.numpy as jnp\nclass Tracker:\n"
            "    @functools.partial(jax.jit, static_argnums=0)\n    def update(self, x):\n"
            "        self.last = jnp.mean(x)\n        return x\n"),
        Invalid(  # a step counter from itertools.count whose number enters the computation: baked in once
            "import itertools\nimport jax\nSTEP = itertools.count()\n@jax.jit\ndef update(w, g):\n"
            "    step = next(STEP)\n    return w - 0.1 / (step + 1) * g\n"),
        Invalid(  # an outer iterator advanced at trace time
            "import jax\nimport numpy as np\nbatches = iter([np.ones(3), np.zeros(3)])\n@jax.jit\ndef step(w):\n"
            "    return w + next(batches)\n"),
        Invalid(  # the eager function's dict, written by the jitted closure
            "import jax\ndef train(xs):\n    history = {}\n    @jax.jit\n    def step(x):\n"
            "        history['loss'] = (x ** 2).sum()\n        return x\n    return [step(x) for x in xs], history\n"),
        Invalid(  # ... but a list whose items are read after the trace hands out the leaked tracer
            "import jax\nimport jax.numpy as jnp\ndef test_compiles_once(x):\n    traces = []\n    def f(v):\n"
            "        traces.append(v)\n        return jnp.sum(v)\n    g = jax.jit(f)\n    g(x)\n"
            "    assert len(traces) == 1\n    return traces[-1] * 2\n"
        ),
        Invalid(  # a scan body storing its carry in the enclosing jitted function's list
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(xs):\n    seen = []\n    def body(c, x):\n"
            "        seen.append(c)\n        return c + x, None\n    c, _ = jax.lax.scan(body, 0.0, xs)\n"
            "    return c\n"),
    ]

    def check(self, ctx: RuleContext) -> None:
        returned_clock: set[int] = set()  # one finding per function for the clock readings it returns
        raising: dict[int, bool] = {}
        for effect in ctx.model.fact(SideEffects).side_effects():
            fn = effect.function
            top = fn  # the traced function the effect's trace starts from (a helper's traced caller)
            while top.parent is not None and top.parent.traced:
                top = top.parent
            if id(top) not in raising:
                raising[id(top)] = _used_only_where_expected_to_raise(ctx.model, top)
            if raising[id(top)]:
                continue  # `with self.assertRaises(TraceContextError): h(x)`: the test checks the write is refused
            where = f"`{fn.name}` ({fn.trace_reason})"
            if effect.action == _HOST_VALUES[2]:
                if id(fn) in returned_clock:
                    continue
                returned_clock.add(id(fn))
            if effect.action in _HOST_VALUES:
                if effect.action == _HOST_VALUES[0]:
                    message = self.message("host-draw", where=where, target=effect.target)
                elif effect.action == _HOST_VALUES[1]:
                    message = self.message("clock-key", where=where, target=effect.target)
                else:
                    message = self.message("clock-returned", where=where, target=effect.target)
                ctx.report(effect.node, message)
                continue
            advances = effect.action.startswith("advances")
            what = self.message("writes" if effect.action == "writes" else "advances" if advances else "stores",
                                where=where, target=effect.target)
            if effect.traced_value and not ctx.model.traced.cached(fn):
                then = self.message("then-leaks-each-call")  # (jax.grad/vmap alone: the body runs on every call)
            else:
                then = self.message("then-leaks" if effect.traced_value else "then-baked" if advances else "then-once")
            ctx.report(effect.node, self.message("effect", what=what, then=then))


def _used_only_where_expected_to_raise(model: ModuleModel, fn: FunctionInfo) -> bool:
    """Every mention of the traced function `fn` (a call `h(x)`, `jax.vmap(h)(x)`) outside its own body is in the
    body of `with pytest.raises(...)` or `self.assertRaises(...)`, and there is one: the test expects the traced
    call to fail (a library refusing the write), so the effect never outlives anything."""
    if isinstance(fn.node, ast.Lambda):
        return False
    def in_defining_scope(node: ast.AST) -> bool:  # (a test's local `h` is not another test's `h`)
        scope = model.scopes.enclosing_function(node)
        while scope is not None and scope is not fn.parent:
            scope = scope.parent
        return scope is fn.parent

    mentions = [n for n in model.scopes.nodes(ast.Name) if isinstance(n, ast.Name) and n.id == fn.name
                and isinstance(n.ctx, ast.Load) and model.scopes.enclosing_function(n) is not fn
                and in_defining_scope(n)]
    return bool(mentions) and all(expected_to_raise(n, model.scopes.parents) for n in mentions)
