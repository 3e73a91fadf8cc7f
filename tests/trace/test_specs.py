"""The argument-spec language, directives and jaxtyping annotations (pure parsing: no worker, no jax)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sharpbits.trace.specs import (
    DTYPES,
    SpecError,
    format_spec,
    has_array,
    parse_spec,
    resolve_spec,
    split_target,
)


def arr(dtype, *shape):
    return {"kind": "array", "dtype": dtype, "shape": list(shape)}


def lit(v):
    return {"kind": "literal", "value": v}


@pytest.mark.parametrize(
    ("text", "kwargs"),
    [
        ("x=f32[1000,10]", {"x": arr("float32", 1000, 10)}),
        ("n=i32[]", {"n": arr("int32")}),
        ("mask=bool[8]", {"mask": arr("bool", 8)}),
        ("w=bf16[128,128]", {"w": arr("bfloat16", 128, 128)}),
        ("key=key", {"key": {"kind": "key", "shape": []}}),
        ("keys=key[4]", {"keys": {"kind": "key", "shape": [4]}}),
        ("neg=True, steps=10, lr=-0.5, name='a', nothing=None",
         {"neg": lit(True), "steps": lit(10), "lr": lit(-0.5), "name": lit("a"), "nothing": lit(None)}),
        ('params={"W": f32[4,3], "b": f32[4]}',
         {"params": {"kind": "dict", "items": [["W", arr("float32", 4, 3)], ["b", arr("float32", 4)]]}}),
        ("xs=[f32[2], f32[2]], pair=(f32[3], i32[])",
         {"xs": {"kind": "list", "items": [arr("float32", 2), arr("float32", 2)]},
          "pair": {"kind": "tuple", "items": [arr("float32", 3), arr("int32")]}}),
        ("x=float32[3], y=u8[2, 2], z=c64[1], s=f64", {"x": arr("float32", 3), "y": arr("uint8", 2, 2),
                                                         "z": arr("complex64", 1), "s": arr("float64")}),
        ("(x=f32[3])", {"x": arr("float32", 3)}),
    ],
)
def test_valid_specs(text, kwargs):
    spec = parse_spec(text)
    assert spec["kwargs"] == kwargs
    assert spec["args"] == []


def test_positional_and_keyword():
    spec = parse_spec("f32[3], 2, neg=True")
    assert spec["args"] == [arr("float32", 3), lit(2)]
    assert spec["kwargs"] == {"neg": lit(True)}


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("x=q32[3]", "unknown dtype"),
        ("x=f32[n]", "non-negative integers"),
        ("x=f32[-1]", "non-negative"),
        ("x=f32[3", "cannot parse"),
        ("**kw", "'**'"),
        ("x=f32[1], x=f32[2]", "twice"),
        ("x=np.ones(3)", "cannot use"),
        ("x=foo", "neither a dtype"),
        ("x={f32[1]: f32[2]}", "dict keys"),
        ("x=-True", "sign"),
    ],
)
def test_invalid_specs(text, needle):
    with pytest.raises(SpecError, match=None) as info:
        parse_spec(text)
    assert needle in str(info.value)


def test_static_detection():
    spec = parse_spec('a=f32[2], b=3, c={"w": f32[1], "lr": 0.1}, d=(1, 2)')
    assert [has_array(v) for v in spec["kwargs"].values()] == [True, False, True, False]


@given(
    st.lists(
        st.tuples(st.sampled_from(sorted(k for k in DTYPES if k != "pred")),
                  st.lists(st.integers(0, 4096), max_size=4)),
        min_size=1, max_size=5,
    )
)
def test_format_round_trips(items):
    text = ", ".join(f"a{i}={dt}[{','.join(map(str, shape))}]" for i, (dt, shape) in enumerate(items))
    spec = parse_spec(text)
    assert parse_spec(format_spec(spec))["kwargs"] == spec["kwargs"]


def test_split_target():
    assert split_target("a/b.py::f") == ("a/b.py", "f")
    assert split_target("C:/x/b.py::Net.apply") == ("C:/x/b.py", "Net.apply")
    for bad in ("b.py", "b.py::", "::f", "b.py::1f", "b.py::f-g"):
        with pytest.raises(SpecError):
            split_target(bad)


DOC = '''
import functools
import jax
from jaxtyping import Array, Float, Int, PRNGKeyArray

# sharpbits: trace(x=f32[1000,10], neg=True)
def plain(x, neg):
    return -x if neg else x

# sharpbits: trace(x=f32[8])
@functools.partial(jax.jit, static_argnames="k")
def decorated(x, k=2):
    return x * k

@jax.jit
# sharpbits: trace(x=i32[2])
def between(x):
    return x

def annotated(x: Float[Array, "1000 10"], n: Int[Array, ""], key: PRNGKeyArray, scale: float = 2.0):
    return x

def symbolic(x: Float[Array, "batch 10"]):
    return x

def needs_spec(x, y=1):
    return x

def no_args():
    return 1

plain_jit = jax.jit(plain, static_argnames="neg")
plain_partial = functools.partial(jax.jit, static_argnames="neg")(plain)

class Net:
    # sharpbits: trace(x=f32[3])
    def apply(self, x):
        return x
'''


def test_directive_above_def_and_decorators():
    r = resolve_spec(DOC, "plain", None)
    assert r.source == "directive" and r.line == 6
    assert r.spec["kwargs"] == {"x": arr("float32", 1000, 10), "neg": lit(True)}
    assert resolve_spec(DOC, "decorated", None).spec["kwargs"] == {"x": arr("float32", 8)}
    assert resolve_spec(DOC, "between", None).spec["kwargs"] == {"x": arr("int32", 2)}
    assert resolve_spec(DOC, "Net.apply", None).spec["kwargs"] == {"x": arr("float32", 3)}


def test_explicit_spec_wins_over_directive():
    r = resolve_spec(DOC, "plain", "x=f32[2], neg=False")
    assert r.source == "explicit" and r.spec["kwargs"]["x"] == arr("float32", 2)


def test_jaxtyping_annotations():
    r = resolve_spec(DOC, "annotated", None)
    assert r.source == "jaxtyping"
    assert r.spec["kwargs"] == {"x": arr("float32", 1000, 10), "n": arr("int32"), "key": {"kind": "key", "shape": []}}


def test_symbolic_jaxtyping_asks_for_a_spec():
    with pytest.raises(SpecError) as info:
        resolve_spec(DOC, "symbolic", None)
    assert "symbolic" in str(info.value) and "--args" in str(info.value)


def test_missing_spec_message_names_the_parameters():
    with pytest.raises(SpecError) as info:
        resolve_spec(DOC, "needs_spec", None)
    msg = str(info.value)
    assert "x=..." in msg and "y=..." not in msg and "# sharpbits: trace(" in msg


def test_no_arguments_needed():
    assert resolve_spec(DOC, "no_args", None).source == "none-needed"


def test_unknown_function_asks_for_a_spec():
    with pytest.raises(SpecError, match="no argument spec"):
        resolve_spec(DOC, "missing", None)


def test_directive_of_a_jit_wrapped_alias():
    for alias in ("plain_jit", "plain_partial"):
        r = resolve_spec(DOC, alias, None)
        assert r.source == "directive" and r.spec["kwargs"]["neg"] == lit(True)


def test_an_array_names_its_sharding_after_an_at_sign():
    spec = parse_spec("x=f32[16,8] @ rows, w=bf16[4]@mesh_setup.cols, n=3")
    assert spec["kwargs"]["x"] == {**arr("float32", 16, 8), "sharding": "rows"}
    assert spec["kwargs"]["w"]["sharding"] == "mesh_setup.cols"
    assert format_spec(spec) == "x=f32[16,8] @ rows, w=bf16[4] @ mesh_setup.cols, n=3"
    for bad in ("x=3 @ rows", "x=f32[2] @ P('x')", "x=f32[2] @ 1"):
        with pytest.raises(SpecError, match=r"module-level jax\.sharding\.Sharding"):
            parse_spec(bad)


def test_a_spec_nested_deeper_than_the_parser_allows_is_a_spec_error():
    """`ast.parse` raises MemoryError (not SyntaxError) past its stack: a directive a user (or the fuzzer) writes so
    must be a clear error, never an exception out of the invalid-trace-directive rule."""
    for text in ["x=" + "not " * 20000 + "1", "x=" + "~" * 100000 + "1"]:
        with pytest.raises(SpecError, match="nested too deeply"):
            parse_spec(text)
