"""The shared model: aliases, traced contexts, static arguments, value kinds."""

import ast

import pytest
from sharpbits.analysis.model import Kind, ModuleModel


def model_of(code: str) -> ModuleModel:
    return ModuleModel(ast.parse(code))


def traced_names(code: str) -> set[str]:
    return {f.qualname for f in model_of(code).traced.traced_functions()}


@pytest.mark.parametrize(
    ("imports", "expr", "qualified"),
    [
        ("import jax.numpy as jnp", "jnp.zeros", "jax.numpy.zeros"),
        ("import jax.numpy as np", "np.zeros", "jax.numpy.zeros"),
        ("import jax", "jax.numpy.zeros", "jax.numpy.zeros"),
        ("from jax import jit, random as jr", "jr.split", "jax.random.split"),
        ("from jax import jit, random as jr", "jit", "jax.jit"),
        ("import jax.random as random", "random.normal", "jax.random.normal"),
        ("import jax\njnp = jax.numpy", "jnp.ones", "jax.numpy.ones"),
        ("import numpy as np", "np.zeros", "numpy.zeros"),
    ],
)
def test_aliases_resolve(imports, expr, qualified):
    m = model_of(f"{imports}\n{expr}\n")
    node = m.tree.body[-1].value
    assert m.scopes.qualname(node) == qualified


@pytest.mark.parametrize(
    "code",
    [
        "import jax\n@jax.jit\ndef f(x): return x\n",
        "from jax import jit\n@jit\ndef f(x): return x\n",
        "from jax import jit as J\n@J\ndef f(x): return x\n",
        "import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\ndef f(x, n): return x\n",
        "import jax\ndef f(x): return x\ng = jax.jit(f)\n",
        "import jax\ndef f(x): return x\ny = jax.jit(f)(1.0)\n",
        "import jax\n@jax.vmap\ndef f(x): return x\n",
        "import jax\ndef f(x): return x\ng = jax.grad(f)\n",
        "import jax\n@jax.checkpoint\ndef f(x): return x\n",
        "from jax import lax\ndef f(i, c): return c\nlax.fori_loop(0, 3, f, 0)\n",
        "import jax\ndef f(c, x): return c, x\njax.lax.scan(f, 0, None)\n",
        "import jax\ndef helper(x): return x\n@jax.jit\ndef g(x): return helper(x)\nf = helper\n",
    ],
)
def test_traced_spellings(code):
    traced = traced_names(code)
    assert "f" in traced or "helper" in traced, traced


def test_nested_and_helper_functions_are_traced():
    code = (
        "import jax\n"
        "def leaf(x): return x\n"
        "def mid(x): return leaf(x)\n"
        "def untouched(x): return x\n"
        "@jax.jit\n"
        "def top(x):\n"
        "    def inner(y): return y\n"
        "    return mid(inner(x))\n"
    )
    assert traced_names(code) == {"leaf", "mid", "top", "top.inner"}


def test_static_arguments_are_python_values():
    code = (
        "import jax\nfrom functools import partial\n"
        "@partial(jax.jit, static_argnums=(1,), static_argnames='mode')\n"
        "def f(x, n, mode, y):\n    return x\n"
    )
    m = model_of(code)
    (f,) = m.traced.traced_functions()
    assert f.param_kinds == {"x": Kind.JAX, "n": Kind.PYTHON, "mode": Kind.PYTHON, "y": Kind.JAX}


@pytest.mark.parametrize(
    ("wrapped", "static"),
    [
        # round 24 part A (ace-jax): grad-like transformations keep f's signature and hand the arguments they do
        # not differentiate through as given, so the jit's static arguments reach f as Python values
        ("jax.jit(jax.value_and_grad(f), static_argnames='joint')", {"joint"}),
        ("jax.jit(jax.grad(f), static_argnums=2)", {"joint"}),
        ("jax.jit(jax.checkpoint(jax.grad(f)), static_argnames=('joint',))", {"joint"}),
        # a vmap between maps its arguments: the jit's names do not reach f; and no static argument at all
        ("jax.jit(jax.vmap(jax.grad(f)), static_argnames='joint')", set()),
        ("jax.jit(jax.value_and_grad(f))", set()),
    ],
)
def test_static_arguments_of_a_jit_around_a_grad(wrapped, static):
    code = f"import jax\ndef f(h, data, joint):\n    return (h * data).sum()\ng = {wrapped}\n"
    f = next(fn for fn in model_of(code).traced.traced_functions() if fn.name == "f")
    assert f.static_params == static


@pytest.mark.parametrize(
    ("wrap", "static"),
    [
        ("jax.jit(jax.value_and_grad(f, argnums=0), static_argnames=['n'])", {"n"}),
        ("jax.jit(jax.grad(f), static_argnums=(1,))", {"n"}),
        ("partial(jax.jit, static_argnums=2)(jax.jacfwd(f))", {"mode"}),
        ("jax.pmap(jax.grad(f), static_broadcasted_argnums=(1, 2))", {"n", "mode"}),
        # the jit over a vmap, or a grad under vmap: the outer statics are not taken over (not modelled)
        ("jax.jit(jax.vmap(f), static_argnums=(1,))", set()),
        ("jax.vmap(jax.grad(f))", set()),
    ],
)
def test_statics_of_a_jit_over_grad_are_the_functions(wrap, static):
    """`jax.jit(jax.grad(f), static_argnames=...)`: grad keeps f's signature and hands the other arguments on as
    they came, so the jit's static arguments are static in `f` (checked on jax 0.10.2)."""
    code = f"import jax\nfrom functools import partial\ndef f(x, n, mode):\n    return x\ng = {wrap}\n"
    f = next(fn for fn in model_of(code).traced.traced_functions() if fn.name == "f")
    assert f.static_params == static


def kinds_of_last_reads(code: str) -> dict[str, Kind]:
    m = model_of(code)
    out = {}
    for node in ast.walk(m.tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and id(node) in m.kinds.name_kinds:
            out[node.id] = m.kinds.kind_at(node)
    return out


def test_value_kinds_flow_through_assignments():
    code = (
        "import jax, jax.numpy as jnp, numpy as np\n"
        "a = jnp.zeros(3)\nb = a * 2 + 1\nc = np.ones(3)\nd = {'k': 1}\ne = a.shape\nk = jax.random.key(0)\n"
        "k1, k2 = jax.random.split(k)\nu = a.sum()\nv = np.asarray(a)\n"
        "print(a, b, c, d, e, k, k1, k2, u, v)\n"
    )
    kinds = kinds_of_last_reads(code)
    assert kinds["a"] is Kind.JAX and kinds["b"] is Kind.JAX and kinds["u"] is Kind.JAX
    assert kinds["c"] is Kind.NUMPY and kinds["v"] is Kind.NUMPY
    assert kinds["d"] is Kind.CONTAINER
    assert kinds["e"] is Kind.PYTHON
    assert kinds["k"] is Kind.KEY and kinds["k1"] is Kind.KEY and kinds["k2"] is Kind.KEY


def test_branches_that_disagree_make_a_value_unknown():
    code = "import jax.numpy as jnp, numpy as np\nif c:\n    a = jnp.zeros(3)\nelse:\n    a = np.zeros(3)\nprint(a)\n"
    assert kinds_of_last_reads(code)["a"] is Kind.UNKNOWN


def test_container_parameters_are_not_arrays():
    code = "import jax\n@jax.grad\ndef loss(params, x):\n    for k, v in params.items():\n        pass\n    return x\n"
    (f,) = model_of(code).traced.traced_functions()
    # x is not differentiated: jax.grad passes it through as the caller gave it (not known to be a tracer)
    assert f.param_kinds["params"] is Kind.CONTAINER and f.param_kinds["x"] is Kind.UNKNOWN


def test_grad_traces_only_its_argnums():
    code = ("import jax\n@jax.grad\ndef f(t, i):\n    return t * i\n"
            "g = jax.grad(lambda a, b: a * b, argnums=1)\nh = jax.jit(jax.grad(lambda a, b: a * b))\n")
    model = model_of(code)
    kinds = [(fn.qualname, fn.param_kinds) for fn in model.traced.traced_functions()]
    assert ("f", {"t": Kind.JAX, "i": Kind.UNKNOWN}) in kinds
    lambdas = [k for name, k in kinds if "lambda" in name]
    assert {"a": Kind.UNKNOWN, "b": Kind.JAX} in lambdas  # argnums=1
    assert {"a": Kind.JAX, "b": Kind.JAX} in lambdas  # inside jax.jit: every argument is traced


def test_traced_functions_report_the_name_range():
    from sharpbits.analysis.engine import analyze

    code = "import jax\nclass M:\n    @jax.jit\n    def fdef(self, x): return x\n@jax.jit\nasync  def  f(x): return x\n"
    fns = analyze(code, "m.py").functions
    assert [(f.qualname, f.line, f.column, f.end_column) for f in fns] == [("M.fdef", 4, 9, 13), ("f", 6, 13, 14)]
