"""What the model learned from the libraries added to bench/realcode.py (flax, equinox, dm-haiku, jax-md, brax):
each fact removed a class of false alarm there, and its counterpart keeps the real bug."""

import ast

from sharpbits.analysis.execution import Execution
from sharpbits.analysis.globals import GlobalChanges
from sharpbits.analysis.model import Kind, ModuleModel
from sharpbits.analysis.rules.donated_buffer_reuse.donation import Donations
from sharpbits.analysis.tracers import TracerValues


def model_of(code: str) -> ModuleModel:
    return ModuleModel(ast.parse(code))


def function(m: ModuleModel, name: str):
    return next(f for f in m.scopes.functions.values() if f.name == name)


def name_loads(m: ModuleModel, name: str) -> list[ast.Name]:
    found = [n for n in m.scopes.nodes(ast.Name) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def test_a_parameter_written_whole_is_a_reference_unless_callers_pass_arrays():
    m = model_of("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(v, x):\n    v[...] += x\n    return v[...] * x\n"
                 "@jax.jit\ndef fill(y):\n    y[...] = 0.0\n    return y\nfill(jnp.ones(3))\n")
    assert function(m, "step").param_kinds == {"v": Kind.REF, "x": Kind.JAX}
    assert function(m, "fill").param_kinds["y"] is Kind.JAX  # the caller passes an array it made
    read = next(n for n in m.scopes.nodes(ast.Subscript) if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load))
    assert m.kinds.kind_of(read, function(m, "step")) is Kind.JAX  # reading a reference gives its array


def test_a_reference_inside_a_trace_is_a_tracer():
    m = model_of("import jax\n@jax.jit\ndef f(v):\n    v[...] = 1.0\n    print(v)\n")
    (printed,) = name_loads(m, "v")[-1:]
    assert m.fact(TracerValues).is_tracer(printed, function(m, "f"))


def test_nnx_jit_deletes_only_plain_arrays_in_donated_positions():
    m = model_of("import jax.numpy as jnp\nfrom flax import nnx\n@nnx.jit(donate_argnums=(0, 1))\n"
                 "def step(model, x):\n    return model(x)\nmodel = make_model()\nx = jnp.ones(3)\nstep(model, x)\n")
    (donated,) = m.fact(Donations).donated_calls()
    assert [ast.unparse(a) for a in donated.arguments] == ["x"]
    m = model_of("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef noop(a):\n    return a\n"
                 "g = jax.jit(noop, donate_argnums=0)\nstate = make_state()\ng(state)\n")
    (donated,) = m.fact(Donations).donated_calls()
    assert [ast.unparse(a) for a in donated.arguments] == ["state"]  # jax.jit deletes every leaf


def test_setting_one_attribute_of_a_global_does_not_change_the_others():
    m = model_of("import jax\nfrom types import SimpleNamespace\nFLAGS = SimpleNamespace(lr=0.1)\n@jax.jit\n"
                 "def f(x):\n    return x * FLAGS.lr\ndef main():\n    FLAGS.verbose = True\ndef tune():\n"
                 "    FLAGS.lr = 0.5\n")
    f = function(m, "f")
    assert m.fact(GlobalChanges).global_change_after("FLAGS", f, "lr") is not None
    m = model_of("import jax\nfrom types import SimpleNamespace\nFLAGS = SimpleNamespace(lr=0.1)\n@jax.jit\n"
                 "def f(x):\n    return x * FLAGS.lr\ndef main():\n    FLAGS.verbose = True\n")
    f = function(m, "f")
    assert m.fact(GlobalChanges).global_change_after("FLAGS", f, "lr") is None
    assert m.fact(GlobalChanges).global_change_after("FLAGS", f) is not None  # the object itself did change


def test_a_factory_registering_under_a_key_it_made_is_not_a_change():
    made_here = ("import jax\nRULES = {}\ndef make(name, rule):\n    op = Op(name)\n    RULES[op] = rule\n"
                 "    return op\n@jax.jit\ndef f(x, op):\n    return RULES[op](x)\n")
    assert model_of(made_here).fact(GlobalChanges).global_change_after("RULES", function(model_of(made_here), "f")) is None
    replaced = ("import jax\nRULES = {}\ndef override(op, rule):\n    RULES[op] = rule\n@jax.jit\ndef f(x, op):\n"
                "    return RULES[op](x)\n")
    m = model_of(replaced)
    assert m.fact(GlobalChanges).global_change_after("RULES", function(m, "f")) is not None


def test_the_binding_a_read_sees_in_this_run_of_a_loop():
    m = model_of("import jax\ndef run(make, temps, apply):\n    for t in temps:\n        if t:\n            pass\n"
                 "        init, apply = make(t)\n        apply = jax.jit(apply)\n    for t in temps:\n"
                 "        apply = jax.jit(apply)\n")
    first, second = [n for n in name_loads(m, "apply")]
    loops = [n for n in m.scopes.nodes(ast.For)]
    assert isinstance(m.fact(Execution).binding_before(first, loops[0]), ast.Assign)  # `init, apply = make(t)`
    assert m.fact(Execution).binding_before(second, loops[1]) is None  # only the previous iteration's wrapper


def test_a_name_bound_by_an_eager_enclosing_function_is_concrete_in_the_trace():
    m = model_of("import jax\nimport jax.numpy as jnp\ndef train(n):\n    u = jnp.round(n / 3)\n"
                 "    def epoch(x):\n        return jnp.arange(u)\n    return jax.pmap(epoch)\n"
                 "@jax.jit\ndef outer(n):\n    w = jnp.round(n / 3)\n    def inner(x):\n        return jnp.arange(w)\n"
                 "    return inner(n)\n")
    assert not m.fact(TracerValues).bound_in_trace("u", function(m, "epoch"))
    assert m.fact(TracerValues).bound_in_trace("w", function(m, "inner"))
