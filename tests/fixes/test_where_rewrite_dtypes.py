"""Auto Fix never applies a rewrite that can change the program's numbers. `jnp.where` promotes its two sides to
one dtype, where a ternary keeps the taken branch's and `.at[mask].set(v)` keeps the array's: with an int array, a
float literal gives other values or another dtype. Each pair below is run under JAX with an int array, and the fix
is safe exactly where the rewrite gives the same values in the same dtype."""

from __future__ import annotations

import pytest
from sharpbits.analysis.engine import analyze

jax = pytest.importorskip("jax")
jnp = jax.numpy


def _fix_safety(code: str, rule: str) -> list[bool | None]:
    """Per finding of `rule`, in line order: whether its fix is safe (None: no fix)."""
    findings = sorted((f for f in analyze(code, "case.py").findings if f.code == rule), key=lambda f: f.line)
    fixes = [f.fix() for f in findings]
    return [fix.safe if fix is not None else None for fix in fixes]


TERNARIES = [  # (ternary on a traced c, the rewrite, safe)
    ("x if c > 0 else 0.0", "jnp.where(c > 0, x, 0.0)", False),   # int x comes back as floats
    ("x * 2 + 1 if c > 0 else -x", "jnp.where(c > 0, x * 2 + 1, -x)", True),
    ("x if c > 0 else 1", "jnp.where(c > 0, x, 1)", True),        # an int literal keeps x's dtype
    ("x * 1.0 if c > 0 else 0.5", "jnp.where(c > 0, x * 1.0, 0.5)", True),  # floats on both sides
    ("x + 0.5 if c > 0 else x", "jnp.where(c > 0, x + 0.5, x)", False),
]


@pytest.mark.parametrize(("ternary", "rewrite", "safe"), TERNARIES)
def test_ternary_rewrite_is_safe_only_where_an_int_array_keeps_its_values_and_dtype(ternary, rewrite, safe):
    code = f"import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, c):\n    return {ternary}\n"
    assert _fix_safety(code, "SB302") == [safe]
    x = jnp.arange(-2, 3, dtype=jnp.int32)
    for c in (1, -1):  # the ternary evaluated eagerly (c concrete) against the rewrite
        before = jnp.asarray(eval(ternary, {"x": x, "c": c, "jnp": jnp}))
        after = eval(rewrite, {"x": x, "c": c, "jnp": jnp})
        same = before.dtype == after.dtype and bool((jnp.broadcast_to(before, after.shape) == after).all())
        if safe:
            assert same, (ternary, c, before, after)
        elif not same:
            break
    else:
        assert safe, f"{ternary}: the same values and dtype both ways, yet unsafe"


MASKED_SETS = [  # (x.at[mask].set(v), the rewrite, safe)
    ("x.at[x < 0].set(0.5)", "jnp.where(x < 0, 0.5, x)", False),  # .at keeps int: 0; where: 0.5
    ("x.at[x < 0].set(0)", "jnp.where(x < 0, 0, x)", True),
    ("x.at[x < 0].set(-1)", "jnp.where(x < 0, -1, x)", True),
]


@pytest.mark.parametrize(("masked", "rewrite", "safe"), MASKED_SETS)
def test_masked_set_rewrite_is_safe_only_where_an_int_array_keeps_its_values_and_dtype(masked, rewrite, safe):
    code = f"import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    x = {masked}\n    return x\n"
    assert _fix_safety(code, "SB102") == [safe]
    x = jnp.arange(-2, 3, dtype=jnp.int32)
    before, after = eval(masked, {"x": x, "jnp": jnp}), eval(rewrite, {"x": x, "jnp": jnp})
    assert (before.dtype == after.dtype and bool((before == after).all())) is safe


def test_a_float_literal_is_safe_where_the_mask_shows_the_array_holds_floats():
    code = ("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    x = x.at[jnp.isnan(x)].set(0.0)\n"
            "    return x.at[~jnp.isfinite(x)].set(1.5)\n")
    assert _fix_safety(code, "SB102") == [True, True]
    x = jnp.array([1.0, jnp.nan, jnp.inf])
    assert bool((x.at[jnp.isnan(x)].set(0.0) == jnp.where(jnp.isnan(x), 0.0, x)).all())
