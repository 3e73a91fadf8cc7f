"""SB401 global-captured-in-jit: a traced function reads a module-level name whose value can change."""

from __future__ import annotations

import ast

from sharpbits.analysis.effects import SideEffects
from sharpbits.analysis.globals import Change, GlobalChanges
from sharpbits.analysis.model import FunctionInfo, ModuleModel
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.findings import Fix, TextEdit


class GlobalCapturedInJit(Rule):
    code = "SB401"
    name = "global-captured-in-jit"
    severity = "warning"
    trace_hazard = True  # a branch no trace takes holds none (Rule.trace_hazard)
    messages = {
        "changed": (
            "`{function}` ({reason}) bakes in the global `{name}` at trace time, but it is {how} at line {line}; pass it as an argument"
        ),
    }
    summary = "Flags a traced function reading a module-level name that is reassigned, written via `global`, or mutated."
    why = """
`jit` runs the Python function once, at trace time, and bakes the values of the globals it reads into the compiled
program as constants. If the global changes later — reassigned further down the module, written through `global`
from a function, or a dict/list that is mutated (`config["relu"] = True`) — the compiled function keeps using
the old value until something forces a retrace. No error, just stale results.

Only a kept trace goes stale: `jit`, `pmap`, `checkpoint`, `eval_shape` and the bodies of `lax.scan`/`fori_loop`/
`while_loop`/`cond`/`switch` keep theirs (by function), and so does everything traced inside them. `jax.grad(f)(x)`,
`jax.vmap(f)(x)`, `jax.jacrev`, `jax.jacfwd`, `jax.hessian`, `jax.jvp`/`vjp` and an eager `shard_map` keep none: called
outside `jit` they run `f` again on every call, which reads the global as it is then, so they are not flagged
(inside a jitted function they are).

Constants assigned once, modules, functions and classes are fine and never flagged, and so are the attributes of
a `threading.local()` that functions set or push and pop: they are per-thread state (a context stack installed in
each thread and pushed and popped by the trace itself), not a value changed behind a kept trace. The object
rebound, or its attributes changed by module-level code between two calls, still is flagged.
A global that `main` (run once by the module) or a once-only test set-up hook sets before anything is traced is
not flagged either: rebound through `global` (also in a tuple assignment), or a dict filled in a loop over
command-line overrides, as long as nothing before it, nor the statement itself, calls a function of this module.
Nor is a placeholder (`None`, an empty array or container at module level) filled by an initialiser that takes no
arguments and computes what it writes afresh (a lookup table read from a file): every call writes the same value,
so a trace made after any call keeps the right one. A setter given the value, one that advances the global from
its own last value, or module code that traces the function before calling the initialiser is still flagged.
A branch no trace takes is not flagged: in a helper that traced code only calls by name, an `if` whose test
reads parameters every traced call gives the same deciding literal (`pad(x, n, exact=False)`) runs only eagerly.
"""
    example = """
import jax

scale = 1.0

@jax.jit
def apply(x):
    return x * scale

def set_scale(value):
    global scale
    scale = value
"""
    use_instead = """
import jax

scale = 1.0

@jax.jit
def apply(x, scale):
    return x * scale

def set_scale(value):
    global scale
    scale = value
"""
    fix_safety = """
The fix adds the global as the function's last parameter and passes it at every call of the function in this
module, so the current value is an argument at each call. It is **unsafe**: callers in other modules must pass it
too, and a value that must stay a Python constant (a shape, a flag used in `if`) then needs `static_argnames`.
Offered only for functions decorated directly and called by name in this module.
"""
    VALID = [
        # a global set once before anything is traced: main() before its first jitted call, a test class's set-up
        "import jax\nimport jax.numpy as jnp\nSCALE = None\n@jax.jit\ndef step(x):\n    return x * SCALE\n"
        "def main():\n    global SCALE\n    SCALE = jnp.float32(2.0)\n    for _ in range(3):\n        step(jnp.ones(2))\n"
        "if __name__ == '__main__':\n    main()\n",
        # ... also through a tuple target, and a dict filled in main's set-up (a loop over command-line overrides)
        "import jax\nP = {'gain': 1.0}\nMODE = 'a'\n@jax.jit\ndef step(x):\n"
        "    return x * P['gain'] if MODE == 'a' else x\n"
        "def main(overrides, mode):\n    global MODE\n    MODE, _ = mode, None\n    for k, v in overrides:\n"
        "        P[k] = v\n    for _ in range(3):\n        step(1.0)\nif __name__ == '__main__':\n"
        "    main([('gain', 2.0)], 'a')\n",
        "import unittest\nimport jax\nTABLE = None\n@jax.jit\ndef look(i):\n    return TABLE[i]\n"
        "class T(unittest.TestCase):\n    @classmethod\n    def setUpClass(cls):\n        global TABLE\n"
        "        TABLE = jax.numpy.arange(4)\n    def test_look(self):\n        assert look(1) == 1\n",
        # a class attribute that never changes
        "import jax\nclass Config:\n    scale = 1.0\n@jax.jit\ndef f(x):\n    return x * Config.scale\n",
        # set-up at import time: a table built in place, then used by traced code
        "import jax\nimport numpy as np\nTABLE = np.zeros((8, 8))\nfor i in range(8):\n    TABLE[i, i] = 1.0\n"
        "@jax.jit\ndef f(x):\n    return TABLE @ x\n",
        # a script that rebinds a global after its last traced use
        "import jax\nscale = 1.0\n@jax.jit\ndef apply(x):\n    return x * scale\nprint(apply(1.0))\nscale = 2.0\n"
        "print(scale)\n",
        # a constant assigned once
        "import jax\nLR = 0.1\n@jax.jit\ndef step(w, g):\n    return w - LR * g\n",
        # modules, functions, classes
        "import jax\nimport jax.numpy as jnp\ndef act(x):\n    return jnp.tanh(x)\n@jax.jit\ndef f(x):\n    return act(x)\n",
        # reassigned only before the function is defined
        "import jax\nsize = 3\nsize = size * 2\n@jax.jit\ndef f(x):\n    return x * size\n",
        # a local shadows the global
        "import jax\nscale = 1.0\n@jax.jit\ndef f(x, scale):\n    return x * scale\nscale = 2.0\n",
        # an eager function may read changing globals
        "counter = 0\ndef bump():\n    global counter\n    counter += 1\n    return counter\n",
        # traced code appending to a global list is a side effect (side-effect-in-jit), not also a stale global
        "import jax\nLOG = []\n@jax.jit\ndef f(x):\n    LOG.append(x)\n    return x\ndef reset():\n    LOG.clear()\n",
        "import jax\nsteps = 0\n@jax.jit\ndef f(x):\n    global steps\n    steps = steps + 1\n    return x\n",
        # jax.jacrev/jacfwd/hessian/grad/vmap called directly keep no trace: each call reads the global afresh
        "import jax\nimport jax.numpy as jnp\nstate = {'shift': 1.0}\ndef energy(x):\n"
        "    return jnp.sum((x - state['shift']) ** 2)\ndef relax(x):\n    state['shift'] = float(x[0])\n"
        "    return jax.hessian(energy)(x), jax.jacrev(energy)(x)\n",
        "import jax\nimport jax.numpy as jnp\ntemperature = 1.0\n@jax.vmap\ndef soft(x):\n    return jnp.exp(x / temperature)\n"
        "def set_temperature(t):\n    global temperature\n    temperature = t\n",
        # a thread-local context stack: installed per thread by a function, pushed and popped by the trace itself
        "import contextlib\nimport threading\nimport jax\nclass Contexts(threading.local):\n    def __init__(self):\n"
        "        self.stack = []\n_contexts = Contexts()\ndef install_context_stack(stack):\n    _contexts.stack = stack\n"
        "@contextlib.contextmanager\ndef context(outputs):\n    _contexts.stack.append(outputs)\n    try:\n"
        "        yield outputs\n    finally:\n        _contexts.stack.pop()\ndef add_summary(name, value):\n"
        "    _contexts.stack[-1][name] = value\n@jax.jit\ndef step(x):\n    with context({}) as outputs:\n"
        "        add_summary('mean', x.mean())\n    return x, outputs\n",
        # a lazy initialisation sets the value once
        "import jax\n_T = None\ndef table():\n    global _T\n    if _T is None:\n        _T = {'a': 2.0}\n    return _T\n"
        "@jax.jit\ndef f(x):\n    return x * table()['a']\n",
        # a registry filled by decorators at import time
        "import jax\nREGISTRY = {}\ndef register(name):\n    def decorator(fn):\n        REGISTRY[name] = fn\n        return fn\n"
        "    return decorator\n@register('relu')\ndef relu(x):\n    return x\n"
        "@jax.jit\ndef apply(x):\n    return REGISTRY['relu'](x)\n",
    ]
    INVALID = [
        Invalid(  # main() calls the jitted step, then changes the global: the second call still sees the old one
            "import jax\nimport jax.numpy as jnp\nSCALE = 1.0\n@jax.jit\ndef step(x):\n    return x * SCALE\n"
            "def main():\n    global SCALE\n    step(jnp.ones(2))\n    SCALE = 2.0\n    step(jnp.ones(2))\n"
            "if __name__ == '__main__':\n    main()\n",
            fixed=(
            'import jax\n'
            'import jax.numpy as jnp\n'
            'SCALE = 1.0\n'
            '@jax.jit\n'
            'def step(x, SCALE):\n'
            '    return x * SCALE\n'
            'def main():\n'
            '    global SCALE\n'
            '    step(jnp.ones(2), SCALE)\n'
            '    SCALE = 2.0\n'
            '    step(jnp.ones(2), SCALE)\n'
            "if __name__ == '__main__':\n"
            '    main()\n'
            ),
        ),
        Invalid(  # main's loop traces the step and then changes the dict it read: the next call keeps the old one
            "import jax\nP = {'gain': 1.0}\n@jax.jit\ndef step(x):\n    return x * P['gain']\n"
            "def main(gains):\n    for g in gains:\n        step(1.0)\n        P['gain'] = g\n"
            "if __name__ == '__main__':\n    main([2.0, 3.0])\n",
            fixed="import jax\nP = {'gain': 1.0}\n@jax.jit\ndef step(x, P):\n    return x * P['gain']\n"
            "def main(gains):\n    for g in gains:\n        step(1.0, P)\n        P['gain'] = g\n"
            "if __name__ == '__main__':\n    main([2.0, 3.0])\n",
        ),
        Invalid(  # a class attribute changed by a function after the traced function read it
            "import jax\nclass Config:\n    scale = 1.0\n@jax.jit\ndef f(x):\n    return x * Config.scale\n"
            "def set_scale(v):\n    Config.scale = v\n",
        ),
        Invalid(
            "import jax\nscale = 1.0\n@jax.jit\ndef apply(x):\n    return x * scale\ny = apply(1.0)\nscale = 2.0\n"
            "z = apply(1.0)\n",
            fixed="import jax\nscale = 1.0\n@jax.jit\ndef apply(x, scale):\n    return x * scale\ny = apply(1.0, scale)\n"
            "scale = 2.0\nz = apply(1.0, scale)\n",
        ),
        Invalid(
            "import jax\nconfig = {'relu': False}\ndef f(x):\n    return jax.nn.relu(x) if config['relu'] else x\n"
            "g = jax.jit(f)\nprint(g(-1.0))\nconfig['relu'] = True\nprint(g(-1.0))\n",
        ),
        Invalid(  # jax.grad called inside a jitted function: the loss is traced once, under jit's kept trace
            "import jax\nimport jax.numpy as jnp\ndecay = 0.1\ndef loss(w):\n    return jnp.sum(w ** 2) * decay\n"
            "@jax.jit\ndef step(w):\n    return w - jax.grad(loss)(w)\ndef set_decay(d):\n    global decay\n"
            "    decay = d\n",
        ),
        Invalid(  # lax.scan keeps the trace of a module-level body, even called eagerly
            "import jax\nfrom jax import lax\ndt = 0.1\ndef euler(x, u):\n    return x + dt * u, x\n"
            "def rollout(us):\n    return lax.scan(euler, 0.0, us)\ndef set_dt(v):\n    global dt\n    dt = v\n",
        ),
        Invalid(  # a thread-local's attribute changed by module-level code between two calls, in one thread
            "import threading\nimport jax\n_opts = threading.local()\n_opts.scale = 1.0\n@jax.jit\ndef f(x):\n"
            "    return x * _opts.scale\na = f(1.0)\n_opts.scale = 2.0\nb = f(1.0)\n",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        changes, effects = model.fact(GlobalChanges), model.fact(SideEffects)
        per_thread = _thread_local_globals(model)
        for fn in model.traced.traced_functions():
            if not model.traced.cached(fn):
                continue  # `jax.grad(f)(x)`, `jax.vmap(f)(x)` run eagerly retrace on every call: no value is kept
            seen: set[str] = set()
            for node, name in model.scopes.syntax_fact("global reads", fn.node, _global_reads, model, fn):
                if name in seen or not changes.may_change(name):
                    continue  # (most reads are of functions, modules and constants: no change to look for)
                parent = model.scopes.parents.get(node)
                read_attribute = parent.attr if (isinstance(node, ast.Name) and isinstance(parent, ast.Attribute)
                                                 and isinstance(parent.ctx, ast.Load)) else None
                change = changes.global_change_after(name, fn, read_attribute,
                                                     _set_by_its_own_thread if name in per_thread else None)
                if change is None:
                    continue
                if effects.is_side_effect(node) or (isinstance(node, ast.Name) and changes.reaches_to_mutate(node)):
                    continue  # `LOG` in `LOG.append(x)`: changes the object (side-effect-in-jit), reads no value
                seen.add(name)
                # a thread-local is no JAX type: passing it to the jitted function would not trace
                fixable = isinstance(node, ast.Name) and name not in per_thread
                ctx.report(
                    node,
                    self.message("changed", function=fn.name, reason=fn.trace_reason, name=name, how=change.how,
                                 line=change.line),
                    _fix(ctx, fn, name) if fixable else None,
                    fix_title=f"pass `{name}` as an argument (changes `{fn.name}`'s signature)" if fixable else "",
                )


_THREAD_LOCAL = {"threading.local", "_threading_local.local"}


def _thread_local_globals(model: ModuleModel) -> set[str]:
    """Module-level names bound only to a `threading.local()` (or an instance of a class of this module derived
    from it, `class ContextStack(threading.local)`)."""
    body = model.scopes.tree.body
    classes: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.ClassDef) and any(
                model.scopes.qualname(base, None) in _THREAD_LOCAL or (isinstance(base, ast.Name) and base.id in classes)
                for base in stmt.bases):
            classes.add(stmt.name)
    made: dict[str, bool] = {}
    for stmt in body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            value = stmt.value
            per_thread = isinstance(value, ast.Call) and (
                model.scopes.qualname(value.func, None) in _THREAD_LOCAL
                or (isinstance(value.func, ast.Name) and value.func.id in classes))
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if isinstance(target, ast.Name):
                    made[target.id] = made.get(target.id, True) and per_thread
    return {name for name, per_thread in made.items() if per_thread}


def _set_by_its_own_thread(change: Change) -> bool:
    """A thread-local's attributes are per-thread state: a function that sets or mutates them sets up the thread
    that calls it (`install_context_stack` in a new thread, a context pushed and popped around the work), not the
    value another thread's trace read. The object rebound, or its attributes changed by module-level code between
    two calls (one thread, in order), still is a change."""
    return change.in_function and change.how == "mutated"


def _global_reads(model: ModuleModel, fn: FunctionInfo) -> list[tuple[ast.Name | ast.Attribute, str]]:
    """The names a function reads that are not its own (`temperature`), and `Name.attr` of such names
    (`Config.scale`: a class attribute), each with the global it reads; in source order."""
    load, name_type, attribute_type = ast.Load, ast.Name, ast.Attribute
    reads: list[tuple[ast.Name | ast.Attribute, str]] = []
    for node in model.scopes.own_nodes(fn):
        cls = type(node)
        if cls is name_type:
            if type(node.ctx) is load and not model.scopes.is_local(node.id, fn):  # type: ignore[attr-defined]
                reads.append((node, node.id))  # type: ignore[arg-type,attr-defined]
        elif cls is attribute_type and type(node.ctx) is load:  # type: ignore[attr-defined]
            value = node.value  # type: ignore[attr-defined]
            if type(value) is name_type and not model.scopes.is_local(value.id, fn):
                reads.append((node, f"{value.id}.{node.attr}"))  # type: ignore[arg-type,attr-defined]
    return sorted(reads, key=lambda read: (read[0].lineno, read[0].col_offset))


def _fix(ctx: RuleContext, fn: FunctionInfo, name: str):
    """Adds `name` as the last parameter and to every direct call in the module."""
    node = fn.node
    model, source = ctx.model, ctx.source
    if isinstance(node, ast.Lambda) or fn.parent is not None:
        return None
    a = node.args
    # jit takes the new argument as it is; vmap/grad/pmap would map or differentiate over it
    if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or any(
        t.transform != "jax.jit" or t.node not in node.decorator_list for t in fn.traces
    ):
        return None
    calls = []
    for other in model.scopes.nodes(ast.Name):
        if isinstance(other, ast.Name) and other.id == fn.name and isinstance(other.ctx, ast.Load):
            parent = model.scopes.parents.get(other)
            if not (isinstance(parent, ast.Call) and parent.func is other):
                return None  # used as a value: its callers cannot all be found
            if any(isinstance(x, ast.Starred) for x in parent.args) or any(k.arg is None for k in parent.keywords):
                return None
            calls.append(parent)
    params = [*a.posonlyargs, *a.args]
    if not params:
        return None

    def after(n: ast.AST) -> tuple[int, int]:
        return n.end_lineno, source.char_column(n.end_lineno, n.end_col_offset)  # type: ignore[attr-defined]

    def build() -> Fix | None:
        edits = []
        line, col = after(params[-1])
        edits.append(TextEdit(line, col + 1, line, col + 1, f", {name}"))
        for call in calls:
            last = [*call.args, *call.keywords]
            if last:
                if call.keywords:
                    return None
                line, col = after(call.args[-1])
                edits.append(TextEdit(line, col + 1, line, col + 1, f", {name}"))
            else:
                line, col = after(call)
                edits.append(TextEdit(line, col, line, col, name))
        return Fix(safe=False, description=f"Pass `{name}` as an argument of `{fn.name}`", edits=tuple(edits))

    return build
