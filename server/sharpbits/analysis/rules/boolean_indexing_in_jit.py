"""SB102 boolean-indexing-in-jit: `x[mask]` with a traced boolean mask inside traced code."""

from __future__ import annotations

import ast

from sharpbits.analysis.model import FunctionInfo, Kind, ModuleModel
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.syntax import walk_nodes
from sharpbits.findings import Fix, TextEdit


def _mask_in(model: ModuleModel, fn: FunctionInfo, index: ast.AST) -> ast.AST | None:
    """The part of an index that is a traced boolean array (the model's JAX_MASK kind), if any."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return next((p for p in parts if model.kinds.kind_of(p, fn) is Kind.JAX_MASK), None)


# functions that act element by element (their result has the broadcast shape of their positional arguments)
_ELEMENTWISE = frozenset(f"jax.numpy.{n}" for n in (
    "isnan", "isinf", "isfinite", "isposinf", "isneginf", "logical_and", "logical_or", "logical_not", "logical_xor",
    "signbit", "abs", "absolute", "negative", "square", "sqrt", "exp", "log", "sign", "real", "imag", "greater",
    "greater_equal", "less", "less_equal", "equal", "not_equal", "isclose", "maximum", "minimum"))
_ELEMENTWISE_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitAnd, ast.BitOr,
                    ast.BitXor)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _stores(model: ModuleModel, fn: FunctionInfo, name: str) -> list[ast.AST]:
    """The nodes of the function's own body that bind `name`."""
    return [n for n in model.scopes.own_nodes(fn) if isinstance(n, ast.Name) and n.id == name
            and isinstance(n.ctx, ast.Store)]


def _in_loop(model: ModuleModel, fn: FunctionInfo, node: ast.AST) -> bool:
    cur = model.scopes.parents.get(node)
    while cur is not None and cur is not fn.node:
        if isinstance(cur, _LOOPS):
            return True
        cur = model.scopes.parents.get(cur)
    return False


def _bound_mask(model: ModuleModel, fn: FunctionInfo, name: ast.Name, array: ast.AST, use: ast.AST) -> ast.AST | None:
    """The value a name is bound to once in the function, by `name = value` before `use` (not in a loop), with
    the names of `array` not rebound between: the mask it names is made from that array. None otherwise."""
    stores = _stores(model, fn, name.id)
    if len(stores) != 1 or _in_loop(model, fn, use):
        return None
    assign = model.scopes.parents.get(stores[0])
    if not (isinstance(assign, ast.Assign) and len(assign.targets) == 1 and assign.targets[0] is stores[0]):
        return None
    start, end = assign.lineno, use.lineno  # type: ignore[attr-defined]
    roots = {n.id for n in walk_nodes(array) if isinstance(n, ast.Name)}
    if start >= end or any(start <= s.lineno <= end for r in roots for s in _stores(model, fn, r)):  # type: ignore[attr-defined]
        return None  # bound after the use, or the array rebound between: the mask was made from another one
    return assign.value


def _broadcasts_array(model: ModuleModel, fn: FunctionInfo, node: ast.AST, array: ast.AST, use: ast.AST,
                      depth: int = 0) -> bool:
    """Whether `node` combines `array` element by element with other values: comparisons, `~`, `&`, `|`,
    arithmetic and elementwise jnp calls, with the array itself as an operand (or a name bound to such)."""
    if depth > 0 and ast.dump(node) == ast.dump(array):
        return True
    if isinstance(node, ast.Name):
        value = _bound_mask(model, fn, node, array, use) if depth < 4 else None
        return value is not None and _broadcasts_array(model, fn, value, array, use, depth + 1)
    if isinstance(node, ast.Compare):
        parts = [node.left, *node.comparators]
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Invert, ast.USub, ast.UAdd)):
        parts = [node.operand]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, _ELEMENTWISE_OPS):
        parts = [node.left, node.right]
    elif (isinstance(node, ast.Call) and not node.keywords and node.args
          and not any(isinstance(a, ast.Starred) for a in node.args)
          and model.scopes.qualname(node.func, fn) in _ELEMENTWISE):
        parts = list(node.args)
    else:
        return False
    return any(_broadcasts_array(model, fn, p, array, use, depth + 1) for p in parts)


def _same_shape_mask(model: ModuleModel, fn: FunctionInfo, mask: ast.AST, array: ast.AST, use: ast.AST) -> bool:
    """Whether `mask` has the shape of `array` wherever `array[mask]` works, which `jnp.where(mask, ..., array)`
    needs to select the same elements. A mask that combines the array itself element by element with other values
    (`x > t`, `jnp.abs(x) > 3`, `~valid` with `valid = x > 0` bound once before, the array not rebound between) has
    the broadcast shape of the array and those values: at least the array's rank, and a boolean index must match
    the leading axes of the array, so where indexing works that shape is the array's. A mask of another origin
    (rows of a matrix: `m` of shape (n,) for `x` of shape (n, k)) selects whole rows, which `jnp.where` would
    broadcast over the last axis instead."""
    return _broadcasts_array(model, fn, mask, array, use)


def _int_literal(value: ast.expr) -> bool:
    node = value.operand if isinstance(value, ast.UnaryOp) else value
    return isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool)


_INEXACT_TESTS = {"jax.numpy.isnan", "jax.numpy.isinf", "jax.numpy.isfinite", "jax.numpy.isposinf",
                  "jax.numpy.isneginf"}


def _inexact_mask(model: ModuleModel, fn: FunctionInfo, mask: ast.expr, array: ast.expr) -> bool:
    """`jnp.isnan(x)` (or `~jnp.isfinite(x)`, ...) as the mask of `x`: tests that mean x holds floats."""
    if isinstance(mask, ast.UnaryOp) and isinstance(mask.op, (ast.Invert, ast.Not)):
        mask = mask.operand
    return (isinstance(mask, ast.Call) and len(mask.args) == 1 and not mask.keywords
            and model.scopes.qualname(mask.func, fn) in _INEXACT_TESTS
            and ast.dump(mask.args[0]) == ast.dump(array))


class BooleanIndexingInJit(Rule):
    code = "SB102"
    name = "boolean-indexing-in-jit"
    severity = "error"
    trace_hazard = True  # a branch no trace takes holds none (Rule.trace_hazard)
    raises_on_trace = True  # a line a test runs under pytest.raises(<that error>) is its subject
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

A parameter of a jitted function is a mask when every call of the function in the module passes one made from an
array (`f(x, x > 0)`, `f(x, jnp.isnan(x))`, or a name bound once to such a comparison): a traced mask there too.
"""
    example = """
import jax
import jax.numpy as jnp

@jax.jit
def relu_sum(x):
    x = x.at[x < 0].set(0)
    return x[x > 1].sum()
"""
    use_instead = """
import jax
import jax.numpy as jnp

@jax.jit
def relu_sum(x):
    x = jnp.where(x < 0, 0, x)
    return jnp.where(x > 1, x, 0).sum()
"""
    fix_safety = """
Offered where the semantics allow it, and only when the mask has the shape of the array wherever the indexing
works: the mask combines that array itself element by element with other values (`x > t`, `jnp.isnan(x)`,
`jnp.abs(x) > 3`, `~valid` with `valid = x > 0` bound once before, the array not rebound between). Such a mask has
at least the array's rank, and a boolean index must match the array's leading axes, so it has the array's shape.
A mask of another origin (`rows` of shape (n,) for `x` of shape (n, k)) selects whole rows, which `jnp.where`
would broadcast over the last axis instead: no rewrite then. `x.at[mask].set(v)` becomes `jnp.where(mask, v, x)`
when `v` is a number or a Python value. It is safe for an int literal, and for a float literal only where the mask
shows `x` holds floats (`jnp.isnan(x)`, `jnp.isfinite(x)`, ...): `.at[mask].set(0.5)` keeps an int array's dtype
(the elements become 0) where `jnp.where` promotes to float (they become 0.5); otherwise it is unsafe; an array `v` gets no rewrite, since
`.at[mask].set(values)` with one value per selected element has no `where` form. The masked sum
`x[mask].sum()` / `jnp.sum(x[mask])` becomes `jnp.where(mask, x, 0).sum()` (safe). Other uses
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
        Invalid(  # a mask of another array's shape (rows of a matrix): jnp.where would broadcast it over columns
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, keep):\n    rows = keep > 0\n"
            "    return x.at[rows].set(0.0), x[rows].sum(), jnp.sum(x[keep > 0])\n",
            count=3,
        ),
        Invalid(  # an array value: one per selected element has no `where` form; the array rebound after the mask
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, y):\n    x = x.at[x > 0].set(y)\n    m = x > 0\n"
            "    x = x.reshape(-1)\n    return x[m].sum()\n",
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
                if isinstance(node.slice, (ast.Constant, ast.Slice)):
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
            # one number for every selected element; an array value (one per selected element, or of another
            # shape) has no `where` form that can be shown to match
            literal = (isinstance(value, ast.Constant) and isinstance(value.value, (int, float)) and not isinstance(
                value.value, bool)) or (isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant))
            # a Python value (a number, most likely: `set(limit)`) is unsafe, like before
            python = isinstance(value, ast.Name) and model.kinds.kind_of(value, fn) is Kind.PYTHON
            # `.at[mask].set(0.5)` keeps x's dtype (an int array gets 0), `jnp.where(mask, 0.5, x)` promotes to float:
            # other numbers. A float literal is safe only where the mask shows x inexact (`jnp.isnan(x)`).
            safe = literal and (_int_literal(value) or _inexact_mask(model, fn, mask, sub.value.value))
            if (literal or python) and _same_shape_mask(model, fn, mask, sub.value.value, sub):
                replace, new = grand, f"{jnp}.where({source.node_text(mask)}, {source.node_text(value)}, {source.node_text(sub.value.value)})"
        elif (not isinstance(sub.value, ast.Attribute) and isinstance(parent, ast.Attribute) and parent.attr == "sum"
              and isinstance(grand, ast.Call) and not grand.args and not grand.keywords
              and _same_shape_mask(model, fn, mask, sub.value, sub)):
            replace, new = grand, f"{jnp}.where({source.node_text(mask)}, {source.node_text(sub.value)}, 0).sum()"
        elif (isinstance(parent, ast.Call) and model.scopes.qualname(parent.func, fn) == "jax.numpy.sum"
              and len(parent.args) == 1 and parent.args[0] is sub and not parent.keywords
              and _same_shape_mask(model, fn, mask, sub.value, sub)):
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
    return not isinstance(node.ctx, ast.Del) and not isinstance(node.slice, (ast.Constant, ast.Slice))  # type: ignore[attr-defined]
