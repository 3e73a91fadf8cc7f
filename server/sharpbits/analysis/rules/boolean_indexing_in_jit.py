"""SB102 boolean-indexing-in-jit: `x[mask]` with a traced boolean mask inside traced code."""

from __future__ import annotations

import ast

from sharpbits.analysis.model import FunctionInfo, Kind, ModuleModel
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.findings import Fix, TextEdit


def _mask_in(model: ModuleModel, fn: FunctionInfo, index: ast.AST) -> ast.AST | None:
    """The part of an index that is a traced boolean array (the model's JAX_MASK kind), if any."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return next((p for p in parts if model.kinds.kind_of(p, fn) is Kind.JAX_MASK), None)


class BooleanIndexingInJit(Rule):
    code = "SB102"
    name = "boolean-indexing-in-jit"
    severity = "error"
    trace_hazard = True  # a branch no trace takes holds none (Rule.trace_hazard)
    reuse = "function"  # findings per function, reused across edits elsewhere (analysis/rule_results.py)
    messages = {
        "mask": (
            "boolean-mask indexing {what} inside `{function}` ({reason}) raises NonConcreteBooleanIndexError; use `jnp.where(mask, x, fill)` or `size=`"
        ),
    }
    summary = "Flags `x[mask]`, `x[x < 0]` and `x.at[mask].set(v)` with a traced boolean mask inside traced code."
    why = """
The shape of `x[mask]` depends on how many elements of `mask` are true — a value, not a shape. Under `jit`, values
are unknown at trace time, so JAX raises `NonConcreteBooleanIndexError`. The same holds for `x.at[mask].set(v)`
and for masks built inside the function (`x[x < 0]`, `x[jnp.isnan(x)]`, `x[~valid]`).

Eager code may use boolean masks (it knows the values), and so may traced code whose mask is static.
A branch no trace takes is not flagged: in a helper that traced code only calls by name, an `if` whose test
reads parameters every traced call gives the same deciding literal (`pad(x, n, exact=False)`) runs only eagerly.
"""
    example = """
import jax
import jax.numpy as jnp

@jax.jit
def relu_sum(x):
    x = x.at[x < 0].set(0.0)
    return x[x > 1].sum()
"""
    use_instead = """
import jax
import jax.numpy as jnp

@jax.jit
def relu_sum(x):
    x = jnp.where(x < 0, 0.0, x)
    return jnp.where(x > 1, x, 0).sum()
"""
    fix_safety = """
Offered where the semantics allow it: `x.at[mask].set(v)` becomes `jnp.where(mask, v, x)` (safe when `v` is a
number; unsafe otherwise, since `.at[mask].set(values)` with one value per selected element has no `where` form),
and the masked sum `x[mask].sum()` / `jnp.sum(x[mask])` becomes `jnp.where(mask, x, 0).sum()` (safe). Other uses
(e.g. `x[mask]` returned as is) have no fixed-shape equivalent: use `jnp.where`, or the `size=` argument of
`jnp.nonzero`/`jnp.where(mask, size=...)` to get a padded, fixed-size result.
"""
    VALID = [
        # eager code knows the mask's values
        "import jax.numpy as jnp\nx = jnp.arange(5.0)\nprint(x[x > 2])\n",
        # jnp.where keeps the shape
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    return jnp.where(x > 0, x, 0.0)\n",
        # an integer index array is fine
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, idx):\n    i = jnp.argmax(x)\n    return x[i], x[idx]\n",
        # a static mask (NumPy, known at trace time)
        "import jax\nimport numpy as np\n@jax.jit\ndef f(x):\n    keep = np.array([True, False, True])\n    return x[keep]\n",
        # a name rebound to a non-mask before use
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    m = x > 0\n    m = jnp.argmax(m)\n    return x[m]\n",
    ]
    INVALID = [
        Invalid(  # a helper of this module that returns a comparison returns a mask
            "import jax\ndef above(x, t):\n    return x > t\n@jax.jit\ndef f(x):\n    keep = above(x, 0.5)\n"
            "    return x[keep]\n",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    return x[x < 0]\n",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    x = x.at[jnp.isnan(x)].set(0.0)\n    return x\n",
            fixed="import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    x = jnp.where(jnp.isnan(x), 0.0, x)\n"
            "    return x\n",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    valid = x > 0\n    return x[~valid].sum() + jnp.sum(x[valid])\n",
            fixed="import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    valid = x > 0\n"
            "    return jnp.where(~valid, x, 0).sum() + jnp.sum(jnp.where(valid, x, 0))\n",
            count=2,
        ),
        Invalid(  # a vmapped function and a mask from a helper comparison
            "import jax\ndef f(row, t):\n    big = row > t\n    return row[big, ...]\nbatched = jax.vmap(f, in_axes=(0, None))\n",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        for node in model.scopes.candidates("maybe masks", (ast.Subscript,), _may_index_with_a_mask):
            assert isinstance(node, ast.Subscript)
            fn = model.scopes.enclosing_function(node)
            if fn is None or not fn.traced or isinstance(node.ctx, ast.Del):
                continue
            if True:
                if model.kinds.kind_of(node.value, fn) not in (Kind.JAX, Kind.JAX_MASK, Kind.JAX_AT, Kind.NUMPY):
                    continue
                if isinstance(node.slice, ast.Constant | ast.Slice):
                    continue  # x[0], x[1:]: never a mask
                mask = _mask_in(model, fn, node.slice)
                if mask is None:
                    continue
                at = model.kinds.kind_of(node.value, fn) is Kind.JAX_AT
                mask_text = ast.unparse(mask)
                mask_text = mask_text if len(mask_text) <= 24 else "mask"
                what = f"`.at[{mask_text}]`" if at else f"`[{mask_text}]`"
                builder, title = self._fix(ctx, fn, node, mask) if isinstance(node.ctx, ast.Load) else (None, "")
                ctx.report(
                    node,
                    self.message("mask", what=what, function=fn.name, reason=fn.trace_reason),
                    builder,
                    fix_title=title,
                )

    def _fix(self, ctx: RuleContext, fn: FunctionInfo, sub: ast.Subscript, mask: ast.AST):
        model, source = ctx.model, ctx.source
        jnp = model.scopes.spelling_of("jax.numpy")
        if jnp is None or sub.slice is not mask:
            return None, ""
        parent = model.scopes.parents.get(sub)
        grand = model.scopes.parents.get(parent) if parent is not None else None


        replace: ast.AST | None = None
        new = ""
        safe = True
        if (isinstance(sub.value, ast.Attribute) and sub.value.attr == "at" and isinstance(parent, ast.Attribute)
                and parent.attr == "set" and isinstance(grand, ast.Call) and len(grand.args) == 1
                and not grand.keywords):
            value = grand.args[0]
            safe = isinstance(value, ast.Constant) or (isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant))
            replace, new = grand, f"{jnp}.where({source.node_text(mask)}, {source.node_text(value)}, {source.node_text(sub.value.value)})"
        elif (not isinstance(sub.value, ast.Attribute) and isinstance(parent, ast.Attribute) and parent.attr == "sum"
              and isinstance(grand, ast.Call) and not grand.args and not grand.keywords):
            replace, new = grand, f"{jnp}.where({source.node_text(mask)}, {source.node_text(sub.value)}, 0).sum()"
        elif (isinstance(parent, ast.Call) and model.scopes.qualname(parent.func, fn) == "jax.numpy.sum"
              and len(parent.args) == 1 and parent.args[0] is sub and not parent.keywords):
            replace, new = sub, f"{jnp}.where({source.node_text(mask)}, {source.node_text(sub.value)}, 0)"
        if replace is None:
            return None, ""
        node = replace

        def build() -> Fix | None:
            line, end_line = node.lineno, node.end_lineno or node.lineno  # type: ignore[attr-defined]
            col = source.char_column(line, node.col_offset)  # type: ignore[attr-defined]
            end_col = source.char_column(end_line, node.end_col_offset)  # type: ignore[attr-defined]
            return Fix(safe=safe, description=f"Use `{new[:60]}`", edits=(TextEdit(line, col + 1, end_line, end_col + 1, new),))

        return build, f"use `{jnp}.where(...)`"


def _may_index_with_a_mask(node: ast.AST) -> bool:
    """`x[...]` read or written (not deleted) with an index that is no constant and no slice: maybe a mask."""
    return not isinstance(node.ctx, ast.Del) and not isinstance(node.slice, ast.Constant | ast.Slice)  # type: ignore[attr-defined]
