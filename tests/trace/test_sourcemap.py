"""StableHLO `loc(...)` tables and optimized-HLO StackFrames back to document lines (text only, no jax).

The fixtures were produced by jax 0.10.2 from fixtures/nested_model.py compiled under the name /ws/model.py:
    5: return jnp.sin(x) * 2            (inner, a nested jit)
    8: return c + inner(c)              (the fori_loop body)
    9: y = lax.fori_loop(0, n, body, x)
   10: return jnp.exp(y).sum()
"""

from __future__ import annotations

from pathlib import Path

from sharpbits.trace.sourcemap import map_hlo, map_stablehlo, strip_hlo_metadata

FIX = Path(__file__).with_name("fixtures")
DOC = "/ws/model.py"


def ops_at(result, line):
    return result["lines"].get(str(line), {})


def test_stablehlo_ops_map_through_callsite_chains():
    r = map_stablehlo((FIX / "nested.stablehlo.mlir").read_text(), DOC)
    assert "loc(" not in r["text"] and "#loc" not in r["text"]
    assert "stablehlo.sine" in ops_at(r, 5) and "stablehlo.multiply" in ops_at(r, 5)  # nested jit body
    assert "stablehlo.add" in ops_at(r, 8)  # fori_loop body
    assert "stablehlo.compare" in ops_at(r, 9)  # the loop condition belongs to the fori_loop line
    assert "stablehlo.while" in ops_at(r, 9)  # its loc sits on the closing brace of its regions
    assert "stablehlo.exponential" in ops_at(r, 10) and "stablehlo.reduce" in ops_at(r, 10)
    # every op points at a real line of the cleaned text with that op on it
    lines = r["text"].splitlines()
    for op in r["ops"]:
        assert op["op"].split(".")[-1] in lines[op["text_line"] - 1]
    # frames from another file (the harness) never count as the document
    assert all(op["line"] in (None, 5, 8, 9, 10) for op in r["ops"])


def test_hlo_stack_frames():
    r = map_hlo((FIX / "nested.hlo.txt").read_text(), DOC)
    assert "FileLocations" not in r["text"] and "StackFrames" not in r["text"]
    assert ops_at(r, 5).get("sine") == 1 and ops_at(r, 5).get("multiply") == 1
    assert "exponential" in ops_at(r, 10) and "reduce" in ops_at(r, 10)
    assert "while" in ops_at(r, 9)
    assert r["op_count"] == sum(1 for op in r["ops"])
    assert all(op["line"] in (None, 5, 8, 9, 10) for op in r["ops"])


def test_other_document_gets_no_lines():
    r = map_hlo((FIX / "nested.hlo.txt").read_text(), "/ws/other.py")
    assert r["lines"] == {}
    assert map_stablehlo((FIX / "nested.stablehlo.mlir").read_text(), "/ws/other.py")["lines"] == {}


def test_strip_hlo_metadata_keeps_ops():
    text = (FIX / "nested.hlo.txt").read_text()
    stripped = strip_hlo_metadata(map_hlo(text, DOC)["text"])
    assert "metadata=" not in stripped and "backend_config" not in stripped
    assert "sine(" in stripped and "while(" in stripped


def test_inline_and_fused_locations():
    text = '''module @m {
  func.func public @main(%arg0: tensor<2xf32> loc("x")) -> tensor<2xf32> {
    %0 = stablehlo.sine %arg0 : tensor<2xf32> loc("/ws/model.py":3:4)
    %1 = stablehlo.cosine %0 : tensor<2xf32> loc(#loc3)
    return %1 : tensor<2xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("/site/lib.py":10:1)
#loc2 = loc("/ws/model.py":7:2)
#loc3 = loc(fused[#loc1, "cos"(#loc2)])
'''
    r = map_stablehlo(text, DOC)
    assert r["lines"] == {"3": {"stablehlo.sine": 1}, "7": {"stablehlo.cosine": 1}}
