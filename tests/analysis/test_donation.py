"""The model's donation knowledge (donated positions, donating calls) and its `reads_after` query; and the
static facts dynamic-shape relies on (nondiff_argnums, lax.broadcast_shapes)."""

import ast

import pytest
from sharpbits.analysis.model import Kind, ModuleModel
from sharpbits.analysis.rules.donated_buffer_reuse.donation import Donations


def model_of(code: str) -> ModuleModel:
    return ModuleModel(ast.parse(code))


def donated(code: str) -> list[tuple[str, int, list[str]]]:
    m = model_of(code)
    return [(d.callee, d.call.lineno, [ast.unparse(a) for a in d.arguments]) for d in m.fact(Donations).donated_calls()]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # decorator with partial, positional and keyword
        ("import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=(0,))\ndef f(a, b):\n"
         "    return a\nf(x, y)\nf(b=y, a=w)\n", [("f", 6, ["x"]), ("f", 7, ["w"])]),
        # donate_argnames reaches keywords and positions
        ("import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnames='a')\ndef f(a, b):\n"
         "    return a\nf(x, y)\nf(b=y, a=z)\n", [("f", 6, ["x"]), ("f", 7, ["z"])]),
        # call form: only calls through g donate
        ("import jax\ndef f(a):\n    return a\ng = jax.jit(f, donate_argnums=0)\nf(x)\ng(y)\n", [("g", 6, ["y"])]),
        # inline
        ("import jax\ndef f(a):\n    return a\njax.jit(f, donate_argnums=0)(x)\n", [("jax.jit(...)", 4, ["x"])]),
        # a method: self is position 0 of the function, not of the call
        ("import jax\nfrom functools import partial\nclass T:\n    @partial(jax.jit, static_argnums=0, donate_argnums=1)\n"
         "    def step(self, w):\n        return w\n    def run(self, w):\n        return self.step(w)\n",
         [("self.step", 8, ["w"])]),
        # no donation
        ("import jax\n@jax.jit\ndef f(a):\n    return a\nf(x)\n", []),
    ],
)
def test_donated_calls(code, expected):
    assert donated(code) == expected


def test_donated_params_of_a_decorated_function():
    m = model_of("import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=(0, 2))\n"
                 "def f(a, b, c):\n    return a\n")
    (info,) = m.traced.traced_functions()
    assert info.donated_params == {"a", "c"}
    assert info.traces[0].donate_argnums == (0, 2)


def reads(code: str, name: str) -> list[int]:
    """Lines of the reads of `name` after the first call of `step` in `code`."""
    m = model_of(code)
    call = next(n for n in m.scopes.nodes(ast.Call) if isinstance(n.func, ast.Name) and n.func.id == "step")
    return [r.lineno for r in m.fact(Donations).reads_after(call, name)]


@pytest.mark.parametrize(
    ("code", "lines"),
    [
        ("y = step(x)\nprint(x)\n", [2]),
        ("x = step(x)\nprint(x)\n", []),  # rebound by the call's own statement
        ("y = step(x) + x\n", [1]),  # later in the same statement
        ("y = x + step(x)\n", []),  # read before the call
        ("for i in range(3):\n    y = step(x)\n", [2]),  # the next iteration
        ("for i in range(3):\n    x = make()\n    y = step(x)\n", []),  # rebound at the top of the loop
        ("while x.any():\n    y = step(x)\n", [1, 2]),  # the loop test and the next call
        ("if c:\n    y = step(x)\nelse:\n    y = 0\nprint(x)\n", [5]),  # after the if
        ("y = step(x)\nif c:\n    x = y\nelse:\n    x = 0\nprint(x)\n", []),  # rebound on every path
        ("y = step(x)\nif c:\n    x = y\nprint(x)\n", [4]),  # not rebound on one path
        ("def f(x):\n    y = step(x)\n    g = lambda: x\n    return y\n", []),  # a lambda body runs later
        ("def f(x):\n    y = step(x)\n    return y\n    print(x)\n", []),  # after return
        ("y = step(x)\ndel x\nprint(x)\n", []),
    ],
)
def test_reads_after(code, lines):
    assert reads(code, "x") == lines


def test_nondiff_argnums_are_static_and_broadcast_shapes_is_python():
    m = model_of("import jax\nimport functools\nfrom jax import lax\n"
                 "@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))\ndef f(shape, x):\n"
                 "    s = lax.broadcast_shapes(shape, x.shape)\n    return s\n")
    (info,) = m.traced.traced_functions()
    assert info.static_params == {"shape"}
    assert info.param_kinds["shape"] is Kind.PYTHON
    s = next(n for n in m.scopes.nodes(ast.Name) if isinstance(n, ast.Name) and n.id == "s" and isinstance(n.ctx, ast.Load))
    assert m.kinds.kind_at(s) is Kind.PYTHON


def test_static_argnums_from_a_variable_leave_parameter_kinds_unknown():
    m = model_of("import jax\nfrom functools import partial\nSTATIC = (1,)\n"
                 "@partial(jax.jit, static_argnums=STATIC)\ndef f(x, n):\n    return x\n"
                 "@partial(jax.jit, static_argnums=None)\ndef g(x):\n    return x\n")
    kinds = {f.name: f.param_kinds for f in m.traced.traced_functions()}
    assert kinds["f"] == {"x": Kind.UNKNOWN, "n": Kind.UNKNOWN}
    assert kinds["g"] == {"x": Kind.JAX}


def test_vmap_in_axes_none_parameters_hold_what_the_caller_passes():
    m = model_of("import jax\ndef f(x, n):\n    return x\ng = jax.vmap(f, in_axes=(0, None))\n")
    (info,) = m.traced.traced_functions()
    assert info.param_kinds == {"x": Kind.JAX, "n": Kind.UNKNOWN}
