"""Round 23 part B (issue 22): what a jit wrapper's calls pass, when all of them are in sight.

traced-control-flow: a flag with a Python default is traced only when a call of a jit wrapper passes it. When every
jit of the function is `jax.jit(f)(...)` or a local `g = jax.jit(f)` that the function only calls, a flag no such
call passes keeps its default in every trace (booz-xform-jax's `magnetic_only`); a wrapper that may be called
elsewhere (returned, stored, a decorator, module level) or a call through a closure that passes the flag keeps the
finding.

jit-in-loop: a function called from a loop that rebinds its parameter to `jax.jit` of it wraps the caller's same
function on every call (kim-jax's `evaluate`); in a loop, `f = jax.jit(f)` wraps the previous wrapper."""

from sharpbits.analysis.engine import analyze

FLAG = '''\
import jax


def f(x, scale=1.0):
    if scale:
        x = x * scale
    return x


RUN
'''


def _lines(text: str, rule: str) -> list[int]:
    return [f.line for f in analyze(text, "case.py").findings if f.rule == rule]


def _flag(run: str) -> list[int]:
    return _lines(FLAG.replace("RUN", run), "traced-control-flow")


def test_local_wrappers_that_leave_the_flag_out():
    assert _flag("def run(x):\n    return jax.jit(f)(x)\n") == []
    assert _flag("def run(x):\n    g = jax.jit(f)\n    return g(x) + g(x * 2)\n") == []
    assert _flag("def run(x, jit=True):\n    g = f\n    if jit:\n        g = jax.jit(f)\n    return g(x, scale=2.0)\n"
                 "def other(x):\n    return jax.jit(f)(x)\n") == [5]  # the plain binding's call counts too


def test_a_call_that_passes_the_flag_keeps_the_finding():
    assert _flag("def run(x):\n    return jax.jit(f)(x, 2.0)\n") == [5]
    assert _flag("def run(x):\n    g = jax.jit(f)\n    return g(x, scale=2.0)\n") == [5]
    # through a closure of the function that made the wrapper
    assert _flag("def run(x):\n    g = jax.jit(f)\n    def inner(y):\n        return g(y, scale=2.0)\n"
                 "    return inner(x)\n") == [5]


def test_wrappers_called_out_of_sight_keep_the_finding():
    assert _flag("def make():\n    g = jax.jit(f)\n    return g\n") == [5]  # returned
    assert _flag("g = jax.jit(f)\n") == [5]  # module level: importable
    assert _flag("def run(x, table):\n    g = jax.jit(f)\n    table['f'] = g\n    return g(x)\n") == [5]  # stored
    assert _flag("def run(x, kw):\n    return jax.jit(f)(x, **kw)\n") == [5]  # spread keywords


JIT_PARAM = '''\
import jax


def double(x):
    return x * 2


def evaluate(fn, x):
    BODY


def run(xs):
    for x in xs:
        evaluate(double, x)
'''


def test_a_parameter_rebound_to_its_jit_per_call():
    text = JIT_PARAM.replace("BODY", "fn = jax.jit(fn)\n    return fn(x)")
    assert _lines(text, "jit-in-loop") == []
    text = JIT_PARAM.replace("BODY", "fn = jax.jit(jax.vmap(fn))\n    return fn(x)")
    assert _lines(text, "jit-in-loop") == [9]


def test_in_a_loop_the_rebinding_wraps_the_previous_wrapper():
    text = "import jax\ndef run(fn, xs):\n    for x in xs:\n        fn = jax.jit(fn)\n        fn(x)\n"
    assert _lines(text, "jit-in-loop") == [4]
