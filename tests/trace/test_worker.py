"""Traces through a real worker (one warm worker for the suite): results, source lines, errors as data."""

from __future__ import annotations

import pytest
from conftest import listing

LOOPS = '''
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def inner(x):
    return jnp.sin(x) * 2.0


def f(x, n):
    def body(i, c):
        return c + inner(c)
    y = lax.fori_loop(0, n, body, x)
    def step(c, xs):
        return c * 0.5, jnp.cos(xs)
    c, ys = lax.scan(step, y, x)
    return jnp.exp(ys).sum() + c.sum()


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
'''


@pytest.fixture(scope="module")
def loops(tmp_path_factory, client):
    from conftest import Doc

    doc = Doc(tmp_path_factory.mktemp("loops"), LOOPS)
    before = listing(doc.folder)
    result = doc.trace(client, "f", "x=f32[16], n=3", show=["jaxpr", "stablehlo", "hlo", "cost", "timing", "lines"])
    return doc, result, before


def jaxpr_lines(result):
    out = {}
    for eq in result["jaxpr"]["equations"]:
        out.setdefault(eq["line"], set()).add(eq["primitive"])
    return out


def test_full_result_is_present(loops):
    _doc, r, _ = loops
    assert r["ok"], r.get("error")
    assert r["device"]["platform"] == "cpu" and r["device"]["count"] >= 1 and r["device"]["device_kind"]
    assert r["jaxpr"]["eqns_top_level"] >= 3
    assert r["jaxpr"]["eqns_leaves"] > r["jaxpr"]["eqns_top_level"]
    assert r["jaxpr"]["eqns"] == len(r["jaxpr"]["equations"]) > r["jaxpr"]["eqns_leaves"]
    assert "scan[" in r["jaxpr"]["text"] and "#" not in r["jaxpr"]["text"]
    assert "stablehlo.while" in r["stablehlo"]["text"]
    assert "while(" in r["hlo"]["text"]
    assert r["arguments"] == [{"name": "x", "static": False, "spec": "f32[16]"},
                              {"name": "n", "static": True, "spec": "3"}]


def test_jaxpr_lines_include_nested_bodies(loops):
    doc, r, _ = loops
    by_line = jaxpr_lines(r)
    assert "sin" in by_line[doc.line_of("jnp.sin(x) * 2.0")]  # nested jit inside the fori_loop body
    assert "add" in by_line[doc.line_of("c + inner(c)")]  # the fori_loop body itself
    assert "cos" in by_line[doc.line_of("jnp.cos(xs)")]  # the scan body
    assert "scan" in by_line[doc.line_of("lax.scan(step")]
    assert "exp" in by_line[doc.line_of("jnp.exp(ys)")]
    depths = {eq["primitive"]: eq["depth"] for eq in r["jaxpr"]["equations"]}
    assert depths["sin"] >= 2 and depths["cos"] >= 1
    # the jaxpr text's own lines point at document lines too
    assert r["jaxpr"]["text_lines"] and all(1 <= ln <= len(doc.text.splitlines())
                                            for _, ln in r["jaxpr"]["text_lines"])


def test_stablehlo_and_hlo_lines(loops):
    doc, r, _ = loops
    sin_line = str(doc.line_of("jnp.sin(x) * 2.0"))
    assert "stablehlo.sine" in r["stablehlo"]["lines"][sin_line]
    assert "stablehlo.cosine" in r["stablehlo"]["lines"][str(doc.line_of("jnp.cos(xs)"))]
    assert "sine" in r["hlo"]["lines"][sin_line]
    assert "exponential" in r["hlo"]["lines"][str(doc.line_of("jnp.exp(ys)"))]


def test_cost_and_memory(loops):
    _, r, _ = loops
    cost = r["cost"]
    assert cost["flops"] > 0 and cost["transcendentals"] > 0 and cost["bytes_accessed"] > 0
    assert cost["memory"]["argument_size_bytes"] == 16 * 4
    assert cost["memory"]["output_size_bytes"] == 4


def test_timings_are_sane(loops):
    _, r, _ = loops
    t = r["timings"]
    for k in ("trace_s", "lower_s", "compile_s", "first_call_s"):
        assert 0 < t[k] < 60, k
    run = t["run"]
    assert run["n"] >= 5 and 0 < run["min_s"] <= run["p10_s"] <= run["median_s"] <= run["p90_s"] <= run["max_s"]
    assert t["eager"]["run"]["median_s"] > 0


def test_nothing_written_next_to_the_document(loops):
    doc, _, before = loops
    assert listing(doc.folder) == before


def test_selu_through_nested_library_jit(client, make_doc):
    doc = make_doc(LOOPS)
    r = doc.trace(client, "selu", "x=f32[1000]", show=["jaxpr", "lines"])
    assert r["ok"], r.get("error")
    line = doc.line_of("jnp.where")
    # select_n lives inside jnp.where's own jit: it inherits the call site's line
    assert {"gt", "exp", "select_n", "mul"} <= jaxpr_lines(r)[line]
    assert r["stablehlo"]["lines"][str(line)].get("stablehlo.select") == 1
    assert "cost" not in r and "compile_s" not in r["timings"]  # not asked for, not computed


def test_only_jaxpr_skips_lowering(client, make_doc):
    r = make_doc(LOOPS).trace(client, "selu", "x=f32[4]", show=["jaxpr"])
    assert r["ok"] and "jaxpr" in r and "stablehlo" not in r and "lower_s" not in r["timings"]


def test_static_args_plain_and_jitted(client, make_doc):
    doc = make_doc('''
        import functools
        import jax
        import jax.numpy as jnp

        def plain(x, neg, scale=1.0):
            return -x * scale if neg else x * scale

        @functools.partial(jax.jit, static_argnames=("neg",))
        def jitted(x, neg, scale):
            return -x * scale if neg else x * scale

        def tree(params, x):
            return params["W"] @ x + params["b"]

        def keyed(key, n):
            return jax.random.normal(key, (n,))
    ''')
    r = doc.trace(client, "plain", "x=f32[3], neg=True", show=["jaxpr", "timing"])
    assert r["ok"] and "neg" in r["jaxpr"]["text"] and r["arguments"][1]["static"]
    r = doc.trace(client, "jitted", "x=f32[3], neg=False, scale=2.0", show=["jaxpr", "timing"])
    assert r["ok"], r.get("error")
    assert r["jitted_by_user"] and [a["static"] for a in r["arguments"]] == [False, True, False]
    # jit's own static args are honoured: scale is a traced (weak-typed) scalar argument, neg is static
    assert r["jaxpr"]["text"].splitlines()[0].count(":") == 2
    r = doc.trace(client, "tree", 'params={"W": f32[4,3], "b": f32[4]}, x=f32[3]', show=["jaxpr", "timing"])
    assert r["ok"] and "dot_general" in r["jaxpr"]["text"]
    r = doc.trace(client, "keyed", "key=key, n=5", show=["jaxpr", "timing"])
    assert r["ok"], r.get("error")
    assert "key<" in r["jaxpr"]["text"]


def test_spec_that_does_not_fit_the_signature(client, make_doc):
    r = make_doc("def f(x):\n    return x\n").trace(client, "f", "y=f32[3]", show=["jaxpr"])
    assert not r["ok"] and r["error"]["phase"] == "arguments" and "f(x)" in r["error"]["message"]


def test_method_target(client, make_doc):
    doc = make_doc('''
        import jax.numpy as jnp
        class Net:
            scale = 3.0
            def apply(self, x):
                return jnp.tanh(x) * self.scale
            @staticmethod
            def pure(x):
                return x + 1
    ''')
    assert doc.trace(client, "Net.apply", "x=f32[2]", show=["jaxpr"])["ok"]
    assert doc.trace(client, "Net.pure", "x=f32[2]", show=["jaxpr"])["ok"]


JAX_ERRORS = '''
import jax
import jax.numpy as jnp
import numpy as np


def boolean_index(x):
    return x[x < 0]


def python_if(x):
    if x.sum() > 0:
        return x
    return -x


def concrete_needed(x, n):
    return jnp.arange(n)


def mutate(x):
    x[0] = 1.0
    return x


def int_conversion(x, n):
    return [i for i in range(n)]


def to_numpy(x):
    return np.asarray(x)


def key_reuse(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))
    return a + b


def helper(x):
    return jnp.full((x.shape[0] * x.sum(),), 1.0)


def calls_helper(x):
    return helper(x) + 1
'''


@pytest.mark.parametrize(
    ("function", "spec", "etype", "needle"),
    [
        ("boolean_index", "x=f32[8]", "NonConcreteBooleanIndexError", "return x[x < 0]"),
        ("python_if", "x=f32[8]", "TracerBoolConversionError", "if x.sum() > 0"),
        ("concrete_needed", "x=f32[8], n=i32[]", "ConcretizationTypeError", "jnp.arange(n)"),
        ("mutate", "x=f32[8]", "TypeError", "x[0] = 1.0"),
        ("int_conversion", "x=f32[8], n=i32[]", "TracerIntegerConversionError", "in range(n)"),
        ("to_numpy", "x=f32[8]", "TracerArrayConversionError", "np.asarray(x)"),
        ("calls_helper", "x=f32[8]", "TypeError", "jnp.full"),  # the innermost line in the document
    ],
)
def test_jax_errors_are_data_with_their_line(client, make_doc, function, spec, etype, needle):
    doc = make_doc(JAX_ERRORS)
    r = doc.trace(client, function, spec, show=["jaxpr"])
    assert not r["ok"]
    err = r["error"]
    assert err["type"] == etype, err
    assert err["phase"] == "trace"
    assert err["line"] == doc.line_of(needle), (err["line"], err["frames"])
    assert err["message"]
    if etype not in ("TypeError",):
        assert err["qualified_type"] == f"jax.errors.{etype}"


def test_next_trace_after_an_error_works(client, make_doc):
    doc = make_doc(JAX_ERRORS)
    assert not doc.trace(client, "python_if", "x=f32[8]", show=["jaxpr"])["ok"]
    assert doc.trace(client, "to_numpy", "x=f32[8]", show=["jaxpr"])["error"]["type"] == "TracerArrayConversionError"
    r = make_doc(LOOPS, name="other.py").trace(client, "selu", "x=f32[8]", show=["jaxpr"])
    assert r["ok"]


def test_unsaved_text_is_what_gets_traced(client, make_doc):
    doc = make_doc("import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sin(x)\n")
    edited = "import jax.numpy as jnp\n\n\ndef f(x):\n    y = jnp.cos(x)\n    return jnp.tanh(y)\n"
    r = doc.trace(client, "f", "x=f32[3]", show=["jaxpr"], text=edited)
    assert r["ok"]
    prims = {eq["primitive"]: eq["line"] for eq in r["jaxpr"]["equations"]}
    assert prims == {"cos": 5, "tanh": 6}  # the lines the user sees in the editor, not the file on disk


def test_main_block_does_not_run_and_prints_are_captured(client, make_doc):
    doc = make_doc('''
        import os
        import sys
        import jax.numpy as jnp

        print("module-level print")
        os.write(1, b"C-level write to fd 1\\n")
        os.write(2, b"C-level write to fd 2\\n")
        print("to stderr", file=sys.stderr)

        def f(x):
            print("traced with", x.shape)
            return x + 1

        if __name__ == "__main__":
            print("MAIN BLOCK RAN")
            os.write(1, b"MAIN BLOCK RAN (fd)\\n")
    ''')
    r = doc.trace(client, "f", "x=f32[3]", show=["jaxpr"])
    assert r["ok"], r.get("error")
    out = r["stdout"]
    for needle in ("module-level print", "C-level write to fd 1", "C-level write to fd 2", "to stderr",
                   "traced with (3,)"):
        assert needle in out, out
    assert "MAIN BLOCK RAN" not in out
    # the protocol survived all of that: the next request is fine
    assert client.ping()["ok"]


def test_retraces_are_explained(client, make_doc):
    doc = make_doc('''
        import jax
        import jax.numpy as jnp

        @jax.jit
        def helper(x):
            return x * 2

        def f(x):
            return helper(x).sum() + helper(x[:2]).sum()
    ''')
    r = doc.trace(client, "f", "x=f32[4]", show=["jaxpr"])
    assert r["ok"]
    helper = next(e for e in r["retraces"] if e["function"] == "helper")
    assert helper["traces"] == 2 and helper["line"] == doc.line_of("@jax.jit")  # co_firstlineno: the decorator
    assert "f32[2]" in helper["reasons"][0]["text"] and helper["reasons"][0]["line"] == doc.line_of("helper(x[:2])")


def test_sibling_module_import_and_edits_are_seen(client, make_doc):
    doc = make_doc("from helpers_mod import scale\n\ndef f(x):\n    return scale(x)\n")
    (doc.folder / "helpers_mod.py").write_text("import jax.numpy as jnp\ndef scale(x):\n    return x * 2\n")
    before = listing(doc.folder)
    r = doc.trace(client, "f", "x=f32[3]", show=["jaxpr"])
    assert r["ok"], r.get("error") and "mul" in r["jaxpr"]["text"]
    (doc.folder / "helpers_mod.py").write_text("import jax.numpy as jnp\ndef scale(x):\n    return jnp.sin(x)\n")
    r = doc.trace(client, "f", "x=f32[3]", show=["jaxpr"])
    assert r["ok"] and "sin" in r["jaxpr"]["text"]
    assert listing(doc.folder) == before  # no __pycache__ next to the user's modules


def test_module_errors_are_data(client, make_doc):
    doc = make_doc("import jax\n\nx = 1\nimport definitely_not_a_module_xyz\n\ndef f(x):\n    return x\n")
    r = doc.trace(client, "f", "x=f32[3]", show=["jaxpr"])
    assert r["error"]["type"] == "ModuleNotFoundError" and r["error"]["phase"] == "module"
    assert r["error"]["line"] == 4
    r = make_doc("def f(x):\n    return x +\n", name="syntax.py").trace(client, "f", "x=f32[3]", show=["jaxpr"])
    assert r["error"]["type"] == "SyntaxError" and r["error"]["line"] == 2
    r = make_doc("def g(x):\n    return x\n", name="missing.py").trace(client, "f", "x=f32[3]", show=["jaxpr"])
    assert r["error"]["phase"] == "target" and "'f' is not defined" in r["error"]["message"]


def test_persistent_cache_hit_is_reported(client, make_doc):
    doc = make_doc("import jax.numpy as jnp\n\ndef f(x):\n    return jnp.cosh(x) * 3.25\n")
    first = doc.trace(client, "f", "x=f32[7]", show=["timing"], eager=False)
    again = doc.trace(client, "f", "x=f32[7]", show=["timing"], eager=False)
    assert first["timings"]["compile_cache"] == "miss"
    assert again["timings"]["compile_cache"] == "hit"


def test_every_dtype_builds_real_inputs_for_timing(client, make_doc):
    doc = make_doc('''
        import jax
        import jax.numpy as jnp

        def f(a, b, c, d, e, g, keys, pair):
            k = jax.vmap(lambda kk: jax.random.uniform(kk, ()))(keys)
            return (a.astype(jnp.float32).sum() + b.sum() + c.sum() + jnp.where(d, 1.0, 0.0).sum()
                    + jnp.abs(e).sum() + g.astype(jnp.float32).sum() + k.sum() + pair[0].sum() + pair[1])
    ''')
    r = doc.trace(client, "f", "a=bf16[4,4], b=f16[3], c=i32[2], d=bool[8], e=c64[2], g=u8[5], keys=key[4], "
                               "pair=(f32[2], i32[])", show=["timing"], eager=True)
    assert r["ok"], r.get("error")
    # (how many eager runs fit the budget depends on the machine's speed: a loaded one may time just one)
    assert r["timings"]["run"]["median_s"] > 0 and r["timings"]["eager"]["run"]["n"] >= 1
    assert r["timings"]["eager"]["run"]["median_s"] > 0 and "skipped" not in r["timings"]["eager"]


def test_many_traces_do_not_grow_the_worker_without_bound(client, make_doc):
    psutil = pytest.importorskip("psutil")
    doc = make_doc("import jax.numpy as jnp\n\ndef f(x):\n    return jnp.tanh(x) @ x.T\n")
    for _ in range(10):
        assert doc.trace(client, "f", "x=f32[16,16]", show=["jaxpr", "stablehlo"])["ok"]
    proc = psutil.Process(client.ping()["pid"])
    before = proc.memory_info().rss
    for _ in range(60):
        assert doc.trace(client, "f", "x=f32[16,16]", show=["jaxpr", "stablehlo"])["ok"]
    grown = proc.memory_info().rss - before
    assert grown < 60 * 1024 * 1024, f"worker grew {grown / 1e6:.1f} MB over 60 traces"


def test_lower_for_another_platform(client, make_doc):
    doc = make_doc("import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sin(x) @ x.T\n")
    r = doc.trace(client, "f", "x=f32[4,4]", show=["stablehlo", "hlo", "timing"], lower_for="tpu")
    assert r["ok"], r.get("error")
    assert r["stablehlo"]["lowered_for"] == "tpu" and "stablehlo.dot_general" in r["stablehlo"]["text"]
    assert r["stablehlo"]["lines"]["4"]
    assert "hlo" not in r and "compile_s" not in r["timings"] and "tpu worker" in r["notes"][0]


def test_config_changes_do_not_leak_into_the_next_trace(client, make_doc):
    x64 = make_doc("import jax\njax.config.update('jax_enable_x64', True)\nimport jax.numpy as jnp\n\n"
                   "def f(x):\n    return x + jnp.arange(3.0)\n", name="x64.py")
    r = x64.trace(client, "f", "x=f64[3]", show=["jaxpr"])
    assert r["ok"] and "f64[3]" in r["jaxpr"]["text"] and r["config_restored"] == ["jax_enable_x64"]
    plain = make_doc("import jax.numpy as jnp\n\ndef f(x):\n    return x + jnp.arange(3.0)\n", name="plain.py")
    r = plain.trace(client, "f", "x=f32[3]", show=["jaxpr"])
    assert r["ok"] and "f64" not in r["jaxpr"]["text"]


def test_static_list_literal_and_unbuildable_method(client, make_doc):
    doc = make_doc('''
        import jax.numpy as jnp

        def f(x, sizes):
            return [x[:n].sum() for n in sizes]

        class Model:
            def __init__(self, width):
                self.width = width

            def apply(self, x):
                return x * self.width
    ''')
    r = doc.trace(client, "f", "x=f32[8], sizes=[2, 4]", show=["jaxpr", "timing"], eager=False)
    assert r["ok"], r.get("error")
    r = doc.trace(client, "Model.apply", "x=f32[8]", show=["jaxpr"])
    assert r["error"]["phase"] == "target" and "@staticmethod" in r["error"]["message"]
