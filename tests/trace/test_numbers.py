"""The numbers a trace states agree with each other: one equation count (JaxprInfo.eqns) that the per-line split
adds up to, with a helper's and a transformation's equations counted at the calling line; a reused key is a
finding, not a failed trace; the module body's time and output come back. Through the real worker."""

from __future__ import annotations

from sharpbits.trace import protocol

TRAIN = '''
import jax
import jax.numpy as jnp


def mlp(params, x):
    for w in params:
        x = jnp.tanh(x @ w)
    return x


def loss(params, x, y):
    return jnp.mean((mlp(params, x) - y) ** 2)


@jax.jit
def train_step(params, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    per_row = jax.vmap(lambda r: jnp.sum(r * r))(x)
    positive = jnp.where(x > 0, x, 0.0)  # jnp.where is a jit of its own: a nested jaxpr
    new = [p - 0.01 * g for p, g in zip(params, grads)]
    return value + per_row.sum() + positive.sum(), new


print("module body ran")
if __name__ == "__main__":
    print("main block ran")
'''
SPEC = "params=[f32[16,16], f32[16,16]], x=f32[4,16], y=f32[4,16]"

KEYS = '''
import jax


def reuse(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))
    return a + b
'''


def lines_of(jaxpr: protocol.JaxprInfo, line: int) -> int:
    return sum(e["equations"] for e in jaxpr["by_line"] if e["line"] == line)


def test_one_count_split_over_the_functions_lines(client, make_doc):
    doc = make_doc(TRAIN)
    r = doc.trace(client, "train_step", SPEC, show=["jaxpr"])
    assert r["ok"], r.get("error")
    j = r["jaxpr"]
    # the one count: every equation at every depth, one entry of `equations` each
    assert j["eqns"] == len(j["equations"]) > j["eqns_top_level"]
    assert j["eqns_leaves"] < j["eqns"]
    # the per-line split adds up to it, and every line is one of train_step's
    first, last = j["function_lines"]
    assert (first, last) == (doc.line_of("@jax.jit"), doc.line_of("return value + per_row"))
    assert lines_of(j, doc.line_of("jnp.where(x > 0")) >= 2  # the jit equation and what it holds
    assert sum(e["equations"] for e in j["by_line"]) + j["eqns_outside"] == j["eqns"]
    assert all(first <= e["line"] <= last for e in j["by_line"])
    lines = {e["line"]: e for e in j["by_line"]}
    grad_line = doc.line_of("jax.value_and_grad(loss)")
    # mlp's and loss's equations (forward and backward) count at the value_and_grad line, not at their own
    assert lines[grad_line]["equations"] > lines[doc.line_of("new = [p")]["equations"]
    assert {"dot_general", "tanh"} <= set(lines[grad_line]["primitives"])
    assert lines[doc.line_of("jax.vmap")]["equations"] >= 2  # the vmapped lambda's mul and reduce_sum
    # ... while each equation still names the line that wrote it (the listings colour by it)
    assert {e["line"] for e in j["equations"] if e["primitive"] == "tanh"} == {doc.line_of("jnp.tanh(x @ w)")}
    assert {e["call_line"] for e in j["equations"] if e["primitive"] == "tanh"} == {grad_line}
    assert j["eqns_outside"] == 0


def test_module_body_time_and_output_come_back_and_main_does_not_run(client, make_doc):
    doc = make_doc(TRAIN)
    r = doc.trace(client, "train_step", SPEC, show=["jaxpr"])
    module = r["module"]
    assert module["seconds"] > 0 and module["seconds"] == r["timings"]["module_s"]
    assert module["output"] == "module body ran\n"
    # the document runs as another module: its `if __name__ == "__main__":` block never runs during a trace
    assert module["name"] != "__main__" and module["main_block"] is True
    assert "main block ran" not in r["stdout"] and r["stdout"].startswith("module body ran")


def test_module_output_comes_back_when_the_module_fails(client, make_doc):
    doc = make_doc("print('before the failure')\nraise RuntimeError('boom')\n\n\ndef f(x):\n    return x\n")
    r = doc.trace(client, "f", "x=f32[2]", show=["jaxpr"])
    assert not r["ok"] and r["error"]["phase"] == "module"
    assert r["module"]["output"] == "before the failure\n" and r["module"]["main_block"] is False


def test_a_reused_key_is_a_finding_and_the_trace_goes_on(client, make_doc):
    doc = make_doc(KEYS)
    r = doc.trace(client, "reuse", "key=key", show=["jaxpr", "cost"])
    assert r["ok"], r.get("error")
    assert r["jaxpr"]["eqns"] > 0 and "cost" in r  # the jaxpr and figures are there
    (finding,) = r["findings"]
    assert finding["code"] == "key-reuse" and finding["type"] == "KeyReuseError"
    assert finding["line"] == doc.line_of("b = jax.random.normal") and finding["message"]
    off = doc.trace(client, "reuse", "key=key", show=["jaxpr"], check_key_reuse=False)
    assert off["ok"] and "findings" not in off


def test_the_run_spread_says_noisy_only_for_a_wide_spread():
    from sharpbits.lsp.trace_text import run_figure

    steady: protocol.RunStats = {"n": 200, "median_s": 548e-6, "min_s": 512e-6, "p10_s": 520e-6, "p90_s": 600e-6,
                                 "noisy": False}
    assert run_figure(steady) == "run 548.0 µs (min 512.0 µs, 200 runs)"
    busy: protocol.RunStats = {**steady, "p90_s": 3.1e-3, "noisy": True}
    assert run_figure(busy) == "run 548.0 µs (noisy: 520.0 µs to 3.10 ms, 200 runs)"
    assert "±" not in run_figure(busy)  # type: ignore[operator]


def test_a_persistent_cache_hit_says_cached_and_the_lens_states_the_hovers_total(client, make_doc):
    """"compile 2.82 ms" on a cache hit read as a fast compile, and the lens's XLA-only figure disagreed with the
    hover's total: the lens states CompileBreakdown.total_s (tracing + lowering + XLA), `(cached)` on a hit."""
    from sharpbits.lsp.trace_text import compile_lines, summary
    from sharpbits.trace.render import duration

    doc = make_doc("import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sinh(x) * 1.75\n")
    first = doc.trace(client, "f", "x=f32[5]", show=["jaxpr", "timing"], eager=False)
    again = doc.trace(client, "f", "x=f32[5]", show=["jaxpr", "timing"], eager=False)
    assert first["compile"]["cache"] == "miss" and again["compile"]["cache"] == "hit"
    for result, cached in ((first, ""), (again, " (cached)")):
        comp = result["compile"]
        figure = f"compile {duration(comp['total_s'])}{cached}"
        assert f" · {figure} · " in summary(result)
        assert compile_lines(comp).startswith(f"{figure} = tracing ")
    assert "XLA compile" in compile_lines(again["compile"]) and "read from the persistent cache" in compile_lines(
        again["compile"])
    assert summary(first).startswith("jaxpr 2 eqns · ")


def test_one_equation_is_one_eqn_and_the_device_is_named_once(client, make_doc):
    from sharpbits.lsp.trace_text import device_label, summary

    r = make_doc("def g(x):\n    return x * 2\n").trace(client, "g", "x=f32[3]", show=["jaxpr"])
    assert summary(r) == "jaxpr 1 eqn · cpu"  # not "1 eqns", not "cpu (cpu)"
    assert device_label({"platform": "gpu", "device_kind": "NVIDIA H100 80GB HBM3"}) == "NVIDIA H100 80GB HBM3 (gpu)"
