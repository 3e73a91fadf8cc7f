"""The `jnp.where` rewrite of a traced ternary (traced-control-flow): offered only where, under JAX, it gives the
values and the shape of the branch the ternary takes; refused where the branches differ in shape (jax-pcmci's
`data[: T - tau, :] if tau > 0 else data`). Each case is run under JAX with a concrete condition both ways."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sharpbits.analysis.engine import analyze
from sharpbits.findings import Fix, apply_edits

jnp = pytest.importorskip("jax.numpy")
SERVER = Path(__file__).resolve().parents[2] / "server"


def _where_fixes(code: str) -> list[str | None]:
    """The rewrite text offered for each traced ternary of `code`, in line order (None: no fix)."""
    result = analyze(code, "case.py")
    findings = sorted((f for f in result.findings if f.code == "SB302"), key=lambda f: f.line)
    fixes = [f.fix() for f in findings]
    return [fix.edits[0].new_text if fix is not None else None for fix in fixes]


def _wrap(ternary: str) -> str:
    return f"import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, y, c):\n    return {ternary}\n"


# (ternary a if c else b, as a lambda of concrete arrays)
KEPT = [
    "x if c > 0 else 0.0",
    "x * 2 + 1 if c > 0 else -x",
    "x - y if c > 0 else x * y",
    "jnp.log(x) if c > 0 else x",
    "jnp.maximum(x, y) if c > 0 else x + y",
    "1.0 if c > 0 else 0.0",
]
REFUSED = [
    "x[: 3 - c, :] if c > 0 else x",  # the parcorr pattern: a slice of one branch
    "x[0] if c > 0 else x",
    "x.reshape(-1) if c > 0 else x",
    "jnp.sum(x) if c > 0 else x",
    "x if c > 0 else y[:1]",
    "x.T if c > 0 else x",
]


def _values() -> dict[str, object]:
    x = jnp.arange(1.0, 7.0).reshape(3, 2)
    return {"x": x, "y": x + 0.5, "jnp": jnp}


@pytest.mark.parametrize("ternary", KEPT)
def test_kept_rewrite_gives_the_taken_branch(ternary: str) -> None:
    (fix,) = _where_fixes(_wrap(ternary))
    assert fix is not None and fix.startswith("jnp.where(")
    for c in (1, 0):  # concrete condition both ways: the ternary as Python, the rewrite as JAX
        env = {**_values(), "c": c}
        want = jnp.asarray(eval(ternary, env))
        got = eval(fix, {**env, "c": jnp.asarray(c)})
        # the taken branch's values; a Python number branch is broadcast to the other branch's shape
        assert jnp.allclose(got, jnp.broadcast_to(want, got.shape))
        assert want.shape == got.shape or want.shape == ()


@pytest.mark.parametrize("ternary", REFUSED)
def test_refused_rewrite_would_fail_or_change_the_shape(ternary: str) -> None:
    assert _where_fixes(_wrap(ternary)) == [None]
    body, rest = ternary.split(" if ", 1)
    orelse = rest.split(" else ", 1)[1]
    changed = []
    for c in (1, 0):  # the condition concrete both ways: the branch taken against what jnp.where would give
        env = {**_values(), "c": c}
        taken = jnp.asarray(eval(body if c else orelse, env))
        try:
            got = jnp.where(c > 0, eval(body, env), eval(orelse, env))
        except (TypeError, ValueError):
            changed.append("fails")  # jnp.where cannot even broadcast the branches
            continue
        changed += ["shape"] if got.shape != taken.shape else []
    assert changed  # on one side at least, the rewrite fails or broadcasts the branch into another shape


def test_cli_offers_no_fix_for_the_parcorr_pattern(tmp_path) -> None:
    src = tmp_path / "parcorr.py"
    src.write_text(textwrap.dedent("""\
        import jax
        import jax.numpy as jnp

        def correlations(data: jax.Array):
            T, N = data.shape

            @jax.jit
            def compute_corrs_for_tau(tau):
                X_data = data[: T - tau, :] if tau > 0 else data
                Y_data = data[tau:, :] if tau > 0 else data
                return X_data, Y_data

            return compute_corrs_for_tau
        """))
    env = {**os.environ, "PYTHONPATH": str(SERVER)}  # this checkout's engine
    out = subprocess.run([sys.executable, "-m", "sharpbits", "check", "--no-cache", "--format", "json", "--select",
                          "SB302", str(src)], capture_output=True, text=True, check=False, env=env)
    findings = json.loads(out.stdout)
    findings = findings if isinstance(findings, list) else findings["findings"]
    assert [f["line"] for f in findings] == [9, 10]
    for f in findings:
        assert not f.get("fix")
        assert "no `jnp.where` rewrite is offered" in f["message"]
        assert "static_argnames=('tau',)" in f["message"]


# boolean-indexing-in-jit: `x.at[mask].set(v)` -> `jnp.where(mask, v, x)`, `x[mask].sum()` -> `jnp.where(mask, x, 0).sum()`
MASK_KEPT = ["x.at[x > 2].set(0.0)", "x.at[jnp.isnan(x)].set(-1.0)", "x[(x > 1) & (x < 5)].sum()",
             "jnp.sum(x[~(x > 2)])", "x[x > y[0]].sum()", "x.at[jnp.abs(x) > y.mean()].set(0.0)"]
MASK_REFUSED = ["x.at[keep > 0].set(0.0)", "x[keep > 0].sum()", "x.at[x > 2].set(y)"]


def _mask_code(expr: str) -> str:
    return f"import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, y, keep):\n    return {expr}\n"


def _mask_fixes(expr: str) -> list[Fix | None]:
    result = analyze(_mask_code(expr), "case.py")
    fixes = [f.fix() for f in result.findings if f.code == "SB102"]
    assert fixes
    return fixes


def _run(code: str, jit: bool, *args: object) -> object:
    env: dict[str, object] = {}
    exec(code if jit else code.replace("@jax.jit\n", ""), env)  # eagerly, the original knows the mask's values
    return env["f"](*args)  # type: ignore[operator]


@pytest.mark.parametrize("expr", MASK_KEPT)
def test_kept_mask_rewrite_gives_the_same_values(expr: str) -> None:
    (fix,) = _mask_fixes(expr)
    assert fix is not None
    x = jnp.arange(6.0).reshape(2, 3).at[0, 1].set(jnp.nan)
    code = _mask_code(expr)
    want = _run(code, False, x, x, x)
    got = _run(apply_edits(code, list(fix.edits)), True, x, x, x)  # the rewrite runs under jit
    assert jnp.shape(got) == jnp.shape(want)
    assert jnp.allclose(got, want, equal_nan=True)


@pytest.mark.parametrize("expr", MASK_REFUSED)
def test_refused_mask_rewrite(expr: str) -> None:
    assert _mask_fixes(expr) == [None]  # the row mask, an array value


def test_a_row_mask_is_broadcast_over_columns_by_where() -> None:
    """Why a mask of another shape gets no rewrite: `x.at[rows].set(0)` clears rows, the `where` form columns."""
    x, rows = jnp.arange(9.0).reshape(3, 3), jnp.array([True, False, False])
    assert not jnp.array_equal(x.at[rows].set(0.0), jnp.where(rows, 0.0, x))
    assert x[rows].sum() != jnp.where(rows, x, 0).sum()
