"""The model's knowledge added for issue 11: host callbacks, side effects of traced code, `global` declarations,
loops, calls that dispatch JAX work and calls that wait for it."""

import ast

from sharpbits.analysis.effects import SideEffects
from sharpbits.analysis.execution import Execution
from sharpbits.analysis.model import Kind, ModuleModel


def model_of(code: str) -> ModuleModel:
    return ModuleModel(ast.parse(code))


def function(m: ModuleModel, name: str):
    return next(f for f in m.scopes.functions.values() if f.name == name)


def test_host_callbacks_defined_in_traced_code_are_not_traced():
    m = model_of("import jax\n@jax.jit\ndef f(x):\n    def log(v):\n        print(v)\n"
                 "    jax.debug.callback(log, x)\n    jax.debug.callback(lambda v: print(v), x)\n    return x\n")
    assert not function(m, "log").traced
    assert not function(m, "<lambda>").traced
    assert function(m, "f").traced


def test_a_global_declaration_keeps_the_name_out_of_the_locals_whatever_the_walk_order():
    m = model_of("n = 0\ndef f():\n    global n\n    n += 1\n    n = n + 1\n")
    assert "n" not in function(m, "f").local_names


def test_side_effects_cross_the_trace_boundary_only():
    m = model_of(
        "import jax\nimport jax.numpy as jnp\nLOG = []\n"
        "@jax.jit\ndef f(x):\n    LOG.append(jnp.sin(x))\n    outs = []\n    def add(v):\n        outs.append(v)\n"
        "    add(x)\n    def body(c, v):\n        outs.append(c)\n        return c, v\n"
        "    jax.lax.scan(body, 0.0, x)\n    return jnp.stack(outs)\n")
    effects = {(e.function.name, e.target) for e in m.fact(SideEffects).side_effects()}
    assert effects == {("f", "LOG"), ("body", "outs")}  # `add` runs under f's own trace
    f = function(m, "f")
    assert m.fact(SideEffects).outlives_trace("LOG", f) and not m.fact(SideEffects).outlives_trace("outs", f)


def test_static_values_and_once_only_initialisation_are_not_side_effects():
    m = model_of("import jax\nSHAPES = []\n_T = None\n@jax.jit\ndef f(x):\n    global _T\n    SHAPES.append(x.shape)\n"
                 "    if _T is None:\n        _T = {}\n    return x\n")
    assert m.fact(SideEffects).side_effects() == []


def test_enclosing_loop_and_calls_in_loops():
    m = model_of("def step(x):\n    return x\nfor i in range(3):\n    y = step(i)\nz = [step(j) for j in range(2)]\n"
                 "for k in step(4):\n    pass\n")
    calls = sorted((n for n in m.scopes.nodes(ast.Call) if isinstance(n.func, ast.Name) and n.func.id == "step"),
                   key=lambda n: n.lineno)
    loops = [m.fact(Execution).enclosing_loop(c) for c in calls]
    assert isinstance(loops[0], ast.For) and isinstance(loops[1], ast.ListComp) and loops[2] is None
    assert m.fact(Execution).called_in_loop(function(m, "step")) in calls[:2]


def test_dispatch_and_host_sync():
    m = model_of("import jax\nimport jax.numpy as jnp\nimport numpy as np\n@jax.jit\ndef f(x):\n    return x, x + 1\n"
                 "g = jax.jit(lambda x: x * 2)\nx = jnp.ones(3)\na = jnp.sin(x)\nb = f(x)\nc = g(x)\nd = np.sin(1.0)\n"
                 "e = jnp.linalg.svd(x)\nfloat(a)\na.block_until_ready()\njax.device_get(a)\n")
    calls = {ast.unparse(n.func): n for n in m.scopes.nodes(ast.Call) if m.scopes.enclosing_function(n) is None}
    assert m.fact(Execution).dispatch_kind(calls["jnp.sin"], None) is Kind.JAX
    assert m.fact(Execution).dispatch_kind(calls["f"], None) is not None
    assert m.fact(Execution).dispatch_kind(calls["g"], None) is Kind.UNKNOWN  # a pytree of unknown shape
    assert m.fact(Execution).dispatch_kind(calls["np.sin"], None) is None
    assert m.fact(Execution).dispatch_kind(calls["jnp.linalg.svd"], None) is Kind.UNKNOWN  # a tuple: no .block_until_ready()
    assert all(m.fact(Execution).host_sync(calls[name], None) for name in ("float", "a.block_until_ready", "jax.device_get"))
    assert not m.fact(Execution).host_sync(calls["jnp.sin"], None)


def test_compiled_function_that_computes_nothing_dispatches_nothing():
    m = model_of("import jax\n@jax.jit\ndef empty(model, opt):\n    pass\n@jax.jit\ndef same(graphdef, state):\n"
                 "    'identity'\n    return graphdef, state\n@jax.jit\ndef works(state):\n    return state * 2, None\n"
                 "empty(1, 2)\nsame(1, 2)\njax.jit(lambda s: s)(3)\nworks(4)\n")
    calls = {ast.unparse(n.func): n for n in m.scopes.nodes(ast.Call) if m.scopes.enclosing_function(n) is None}
    assert m.fact(Execution).dispatch_kind(calls["empty"], None) is None
    assert m.fact(Execution).dispatch_kind(calls["same"], None) is None
    assert m.fact(Execution).dispatch_kind(calls["jax.jit(lambda s: s)"], None) is None
    assert m.fact(Execution).dispatch_kind(calls["works"], None) is not None
