"""TracedCode.cached: which traced functions run under a trace that JAX keeps and reuses (jit, pmap, checkpoint,
eval_shape, lax bodies, and code traced inside them), as opposed to `jax.grad(f)(x)`/`jax.vmap(f)(x)` run eagerly,
which retrace on every call (checked on jax 0.10.2; the round 15 pairs in tests/corpus/README.md)."""

import ast

import pytest
from sharpbits.analysis.model import ModuleModel

H = "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n"


def kept_and_retraced(code: str) -> tuple[set[str], set[str]]:
    model = ModuleModel(ast.parse(H + code))
    traced = list(model.traced.traced_functions())
    return ({f.name for f in traced if model.traced.cached(f)}, {f.name for f in traced if not model.traced.cached(f)})


@pytest.mark.parametrize(
    ("code", "kept", "retraced"),
    [
        # caching transformations, as decorators and calls
        ("@jax.jit\ndef f(x):\n    return x\n", {"f"}, set()),
        ("def f(x):\n    return x\ng = jax.jit(f)\n", {"f"}, set()),
        ("def f(x):\n    return x\ny = jax.pmap(f)(x)\n", {"f"}, set()),
        ("def f(x):\n    return x\ny = jax.checkpoint(f)(x)\n", {"f"}, set()),
        ("def f(x):\n    return x\ny = jax.eval_shape(f, x)\n", {"f"}, set()),
        # gradient and batching transformations called directly: retraced on every call
        ("def f(x):\n    return x\ny = jax.jacrev(f)(x)\n", set(), {"f"}),
        ("def f(x):\n    return x\ny = jax.hessian(f)(x)\nz = jax.jacfwd(f)(x)\n", set(), {"f"}),
        ("@jax.vmap\ndef f(x):\n    return x\n", set(), {"f"}),
        ("def f(x):\n    return x\ndef run(x):\n    return jax.grad(f)(x)\n", set(), {"f"}),
        # ... and their helpers and nested functions
        ("def h(x):\n    return x\n@jax.grad\ndef f(x):\n    def g(y):\n        return y\n    return h(g(x))\n",
         set(), {"f", "g", "h"}),
        # inside a caching transformation they are kept
        ("def f(x):\n    return x\ng = jax.jit(jax.value_and_grad(f))\n", {"f"}, set()),
        ("def f(x):\n    return x\ng = jax.jit(jax.vmap(jax.grad(f)))\n", {"f"}, set()),
        ("def f(x):\n    return x\n@jax.jit\ndef step(x):\n    return jax.grad(f)(x)\n", {"f", "step"}, set()),
        ("def h(x):\n    return x\ndef f(x):\n    return h(x)\n@jax.jit\ndef step(x):\n    return jax.vmap(f)(x)\n",
         {"f", "h", "step"}, set()),
        # a helper reached from both kinds is kept (its jitted caller keeps it)
        ("def h(x):\n    return x\n@jax.jit\ndef a(x):\n    return h(x)\n@jax.grad\ndef b(x):\n    return h(x)\n",
         {"a", "h"}, {"b"}),
        # lax keeps the trace of a module-level body even eagerly; a body defined in a function follows it
        ("def body(c, x):\n    return c, x\ndef run(xs):\n    return lax.scan(body, 0.0, xs)\n", {"body"}, set()),
        ("@jax.grad\ndef f(x):\n    def body(c, y):\n        return c + y, y\n    return lax.scan(body, 0.0, x)[0]\n",
         set(), {"f", "body"}),
        ("@jax.jit\ndef f(x):\n    def body(c, y):\n        return c + y, y\n    return lax.scan(body, 0.0, x)[0]\n",
         {"f", "body"}, set()),
        # a body defined in a function not traced here: lax runs under jit in practice
        ("def run(xs):\n    def body(c, y):\n        return c + y, y\n    return lax.scan(body, 0.0, xs)\n", {"body"}, set()),
        # lax.map wraps its function anew on each call: eagerly, retraced
        ("def f(x):\n    return x\nys = lax.map(f, xs)\n", set(), {"f"}),
    ],
)
def test_kept_traces(code, kept, retraced):
    assert kept_and_retraced(code) == (kept, retraced)
