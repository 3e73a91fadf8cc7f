"""SB104 dynamic-shape: a shape that depends on a traced value, inside traced code."""

from __future__ import annotations

import ast

from sharpbits.analysis.model import ARRAYS, FunctionInfo, Kind, ModuleModel
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.tracers import TracerValues

# Functions whose result has as many elements as their input has non-zero/distinct values: `size=` fixes it.
_VALUE_SIZED = {f"jax.numpy.{n}" for n in ("nonzero", "argwhere", "flatnonzero", "unique", "unique_values",
                                           "unique_counts", "unique_inverse", "unique_all", "extract", "compress",
                                           "setdiff1d", "union1d", "intersect1d")}
# Functions with size arguments -> the positions (and keyword names) of those arguments.
_SIZED_BY: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "jax.numpy.zeros": ((0,), ("shape",)),
    "jax.numpy.ones": ((0,), ("shape",)),
    "jax.numpy.empty": ((0,), ("shape",)),
    "jax.numpy.full": ((0,), ("shape",)),
    "jax.numpy.zeros_like": ((), ("shape",)),
    "jax.numpy.ones_like": ((), ("shape",)),
    "jax.numpy.empty_like": ((), ("shape",)),
    "jax.numpy.full_like": ((), ("shape",)),
    "jax.numpy.arange": ((0, 1, 2), ("start", "stop", "step")),
    "jax.numpy.eye": ((0, 1), ("N", "M")),
    "jax.numpy.identity": ((0,), ("n",)),
    "jax.numpy.tri": ((0, 1), ("N", "M")),
    "jax.numpy.linspace": ((2,), ("num",)),
    "jax.numpy.reshape": ((1,), ("shape", "newshape")),
    "jax.numpy.broadcast_to": ((1,), ("shape",)),
    "jax.numpy.tile": ((1,), ("reps",)),
    "jax.numpy.repeat": ((1,), ("repeats",)),  # unless total_repeat_length= is given
    "jax.numpy.split": ((1,), ("indices_or_sections",)),
    "jax.lax.dynamic_slice": ((2,), ("slice_sizes",)),
    "jax.lax.broadcast": ((1,), ("sizes",)),
    "jax.lax.iota": ((1,), ("size",)),
}
_SAMPLERS_WITH_SHAPE_SECOND = {f"jax.random.{n}" for n in (
    "normal", "uniform", "randint", "bits", "gumbel", "laplace", "logistic", "cauchy", "exponential", "rademacher",
    "orthogonal", "ball")}
# What JAX raises for a traced size; TypeError ("Shapes must be 1D sequences of concrete values") otherwise.
_CONCRETIZATION = {"jax.numpy.arange", "jax.numpy.linspace", "jax.numpy.repeat", "jax.numpy.split"}


def _is_tracer(model: ModuleModel, fn: FunctionInfo, expr: ast.AST) -> bool:
    """Whether a size or slice bound is a tracer: a JAX array computed inside the traced function (under jit
    every jnp operation is staged, also on constants), not a module-level array read as it is (`x[:N]` with a
    global `N = jnp.array(2)`, or one computed by an eager enclosing function, works), and not under `ensure_compile_time_eval`. Unlike `model.is_tracer`, a value
    computed from module-level arrays counts: a size is staged whatever its inputs."""
    if model.kinds.kind_of(expr, fn) not in ARRAYS or model.fact(TracerValues).in_compile_time_eval(expr):
        return False
    return not (isinstance(expr, ast.Name) and not model.fact(TracerValues).bound_in_trace(expr.id, fn))


def _traced_part(model: ModuleModel, fn: FunctionInfo, size: ast.AST) -> ast.AST | None:
    """The part of a size argument (a number or a tuple of numbers) that is a traced array, if any."""
    parts = size.elts if isinstance(size, (ast.Tuple, ast.List)) else [size]
    return next((p for p in parts if _is_tracer(model, fn, p)), None)


class DynamicShape(Rule):
    code = "SB104"
    name = "dynamic-shape"
    severity = "error"
    trace_hazard = True  # a branch no trace takes holds none (Rule.trace_hazard)
    raises_on_trace = True  # a line a test runs under pytest.raises(<that error>) is its subject
    reuse = "function"  # findings per function, reused across edits elsewhere (analysis/rule_results.py)
    messages = {
        "slice": (
            "slice bound `{bound}` is traced inside `{function}` ({reason}): IndexError; use `lax.dynamic_slice` with a static length, or make it static"
        ),
        "value-sized": (
            "{what} inside `{function}` ({reason}) has a size set by the values of `{operand}`: ConcretizationTypeError; pass `size=`"
        ),
        "sized-by": (
            "`{call}` sized by the traced `{traced}` inside `{function}` ({reason}) raises {error}; use a static size or a shape"
        ),
    }
    summary = ("Flags shapes that depend on traced values: `jnp.nonzero`/`argwhere`/`unique`/one-argument "
               "`jnp.where` without `size=`, `jnp.zeros`/`ones`/`full`/`arange`/`reshape`/`repeat`/random "
               "shapes sized by a traced value, and slices `x[:n]` with traced bounds.")
    why = """
Under `jit` (and `vmap`, `scan` bodies, ...) JAX knows the shapes of arrays but not their values, and every
array it builds must have a shape known at trace time. A result whose size depends on values cannot be traced:

- `jnp.nonzero(x)`, `jnp.argwhere(x)`, `jnp.flatnonzero(x)`, `jnp.unique(x)` and `jnp.where(cond)` (one
  argument) raise `ConcretizationTypeError` unless `size=` says how many elements to return — under `jit`
  even for a constant or NumPy operand, since the comparison with zero is itself staged (use `np.nonzero` on
  NumPy data at trace time);
- `jnp.zeros((n,))`, `jnp.ones(n)`, `jnp.full((n, 3), v)`, `jnp.eye(n)`, `x.reshape(n, -1)`,
  `jnp.broadcast_to(x, (n, d))`, `jax.random.normal(key, (n,))`, `lax.dynamic_slice(x, start, (n,))` with a
  traced `n` raise `TypeError: Shapes must be 1D sequences of concrete values of integer type`, and
  `jnp.arange(n)`, `jnp.linspace(a, b, n)`, `jnp.repeat(x, n)` (without `total_repeat_length=`) raise
  `ConcretizationTypeError`;
- `x[:n]`, `x[i:i + k]` with traced bounds raise `IndexError: Slice entries must be static integers`.

Sizes taken from shapes (`x.shape[0]`, `len(x)`), from static arguments (`static_argnums`), from Python
constants or from `vmap` arguments with `in_axes=None` are known at trace time and are fine; so is `size=` given
explicitly, and so is everything computed inside `with jax.ensure_compile_time_eval():`. Boolean masks (`x[mask]`) are
the separate rule `boolean-indexing-in-jit`, and `range(n)` over a traced `n` is `python-loop-in-jit`'s.
A branch no trace takes is not flagged: in a helper that traced code only calls by name, an `if` whose test
reads parameters every traced call gives the same deciding literal (`pad(x, n, exact=False)`) runs only eagerly.
"""
    example = """
import jax
import jax.numpy as jnp

@jax.jit
def positives(x, start, length):
    idx = jnp.nonzero(x > 0)
    window = x[start:start + length]
    return idx, window
"""
    use_instead = """
import jax
import jax.numpy as jnp
from functools import partial

@partial(jax.jit, static_argnames="length")
def positives(x, start, length):
    idx = jnp.nonzero(x > 0, size=x.shape[0], fill_value=-1)
    window = jax.lax.dynamic_slice(x, (start,), (length,))
    return idx, window
"""
    fix_safety = """
No fix is offered: there is no mechanical rewrite that keeps behaviour. `size=` pads (or truncates) the result
to a fixed length, so the caller must know which entries are padding (`fill_value=`); `lax.dynamic_slice` needs
a static slice length; a size that is really a configuration value belongs in `static_argnums`/`static_argnames`.
The message names which of these applies.
"""
    VALID = [
        # in shard_map, psum(1, axis) is a Python int and an argument whose in_specs entry is None arrives as passed
        "import jax\nimport jax.numpy as jnp\nfrom jax.sharding import PartitionSpec as P\n@jax.jit\ndef f(x):\n"
        "    def per_device(b, n):\n        k = jax.lax.psum(1, 'i')\n        return b + jnp.zeros((n * k,)).sum()\n"
        "    return jax.shard_map(per_device, mesh=jax.sharding.Mesh(jax.devices()[:1], ('i',)), in_specs=(P('i'), None),\n"
        "                         out_specs=P('i'))(x, 4)\n",
        # size= given
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    return jnp.nonzero(x > 0, size=3, fill_value=0)\n",
        # sizes from shapes
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    n = x.shape[0]\n"
        "    return jnp.zeros((n, 2)) + jnp.arange(n)[:, None] + x[: n // 2].sum()\n",
        # a static argument
        "import jax\nimport jax.numpy as jnp\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
        "def f(x, n):\n    return jnp.ones((n,)) * x[:n].sum()\n",
        # Python constants, len()
        "import jax\nimport jax.numpy as jnp\nWIDTH = 4\n@jax.jit\ndef f(x):\n"
        "    return jnp.zeros(WIDTH) + x[:WIDTH] + jnp.arange(len(x))[:WIDTH]\n",
        # eager code knows values
        "import jax.numpy as jnp\nx = jnp.arange(5)\nprint(jnp.nonzero(x > 2), x[: jnp.argmax(x)])\n",
        # three-argument where keeps the shape; a scalar traced index is fine
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, i):\n    return jnp.where(x > 0, x, 0) + x[i]\n",
        # total_repeat_length= fixes repeat's size; shapes from shapes
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, r):\n"
        "    return jnp.repeat(x, r, total_repeat_length=8), x.reshape(x.shape[0] // 2, -1)\n",
        # concrete values: a module-level array read as it is, and ensure_compile_time_eval
        "import jax\nimport jax.numpy as jnp\nN = jnp.array(2)\nMASK = jnp.array([True, False, True])\n@jax.jit\n"
        "def f(x):\n    with jax.ensure_compile_time_eval():\n        n = jnp.sum(MASK)\n"
        "        pad = jnp.zeros((n,))\n        (idx,) = jnp.nonzero(MASK)\n    return x[:N], x[idx], pad\n",
        # a boolean mask is boolean-indexing-in-jit's
        "import jax\n@jax.jit\ndef f(x):\n    return x[x > 0]\n",
        # static arguments given by a variable: which parameters are traced is unknown
        "import jax\nfrom functools import partial\nSTATIC = (1,)\n@partial(jax.jit, static_argnums=STATIC)\n"
        "def f(x, n):\n    return x[:n]\n",
        # vmap passes in_axes=None arguments through as the caller gave them (here a Python int)
        "import jax\nimport jax.numpy as jnp\ndef window(x, n):\n    return x[:n].sum() + jnp.zeros(n).sum()\n"
        "print(jax.vmap(window, in_axes=(0, None))(jnp.ones((2, 4)), 3))\n",
        # grad alone runs on concrete values
        "import jax\nimport jax.numpy as jnp\ndef loss(w, n):\n    return (w * jnp.arange(n)).sum()\ng = jax.grad(loss)\n",
        # NumPy's own nonzero on a NumPy array runs at trace time
        "import jax\nimport numpy as np\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n"
        "    idx = np.nonzero(np.array([1, 0, 1]))\n    return x[idx]\n",
    ]
    INVALID = [
        Invalid("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    return jnp.nonzero(x > 0)\n"),
        Invalid("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    return jnp.where(x > 0)[0]\n"),
        Invalid("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    return jnp.unique(x)\n"),
        # under jit even a NumPy or module-level operand fails: the comparison with zero is staged
        Invalid("import jax\nimport numpy as np\nimport jax.numpy as jnp\nKEEP = jnp.array([True, False])\n@jax.jit\n"
                "def f(x):\n    return jnp.nonzero(np.array([1, 0])), jnp.argwhere(KEEP)\n", count=2),
        Invalid("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    return (x > 0).nonzero()\n"),
        Invalid("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    n = jnp.sum(x > 0)\n"
                "    return jnp.zeros((n, 3))\n"),
        Invalid("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, n):\n    return jnp.arange(n) * x\n"),
        Invalid("import jax\n@jax.jit\ndef f(x, n):\n    return x[:n]\n"),
        Invalid("import jax\n@jax.jit\ndef f(x, key, n):\n    return x.reshape(n, -1) + jax.random.normal(key, (n,))\n",
                count=2),
        Invalid("import jax\nimport jax.numpy as jnp\ndef body(i, acc):\n    return acc + acc[i:i + 2].sum()\n"
                "def f(x):\n    return jax.lax.fori_loop(0, 3, body, x)\n"),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        for node in model.scopes.nodes(ast.Call):
            assert isinstance(node, ast.Call)
            fn = model.scopes.enclosing_function(node)
            if fn is None or not fn.abstract:
                continue
            self._check_call(ctx, fn, node)
        for node in model.scopes.candidates("sliced subscripts", (ast.Subscript,), _has_a_slice):
            assert isinstance(node, ast.Subscript)
            fn = model.scopes.enclosing_function(node)
            if fn is None or not fn.abstract:
                continue
            slices = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            for part in slices:
                if not isinstance(part, ast.Slice):
                    continue
                bound = next((b for b in (part.lower, part.upper, part.step)
                              if b is not None and _is_tracer(model, fn, b)), None)
                if bound is None:
                    continue
                ctx.report(
                    node,
                    self.message("slice", bound=_short(bound), function=fn.name, reason=fn.trace_reason),
                )
                break

    def _check_call(self, ctx: RuleContext, fn: FunctionInfo, node: ast.Call) -> None:
        model = ctx.model
        q = model.scopes.qualname(node.func, fn)
        keywords = {kw.arg for kw in node.keywords}
        if q in _VALUE_SIZED or (q == "jax.numpy.where" and len(node.args) == 1 and not (
                keywords & {"x", "y"})) or (q is None and isinstance(node.func, ast.Attribute)
                                            and node.func.attr == "nonzero" and not node.args):
            if "size" in keywords:
                return
            operand: ast.AST | None = None
            if q is None and isinstance(node.func, ast.Attribute):
                operand = node.func.value  # mask.nonzero()
            elif node.args:
                operand = node.args[0]
            # under jit the function stages `operand != 0` even for a constant or NumPy operand, then needs its sum
            if (operand is None or isinstance(operand, ast.Starred) or model.kinds.kind_of(operand, fn) not in (
                    *ARRAYS, Kind.NUMPY) or model.fact(TracerValues).in_compile_time_eval(node)):
                return
            what = ("`.nonzero()`" if q is None else f"`{q.replace('jax.numpy.', 'jnp.')}(...)`"
                    + (" with one argument" if q == "jax.numpy.where" else ""))
            ctx.report(
                node,
                self.message("value-sized", what=what, function=fn.name, reason=fn.trace_reason,
                             operand=_short(operand)),
            )
            return
        if q in _SIZED_BY:
            positions, names = _SIZED_BY[q]
        elif q is not None and q.startswith("jax.random."):
            positions, names = ((1,) if q in _SAMPLERS_WITH_SHAPE_SECOND else ()), ("shape",)
        elif (q is None and isinstance(node.func, ast.Attribute) and node.func.attr == "reshape"
              and model.kinds.kind_of(node.func.value, fn) in ARRAYS):  # x.reshape(n, -1)
            positions, names = tuple(range(len(node.args))), ("shape",)
            q = "x.reshape"
        else:
            return
        if q == "jax.numpy.repeat" and "total_repeat_length" in keywords:
            return
        sizes = [a for i, a in enumerate(node.args) if i in positions and not isinstance(a, ast.Starred)]
        sizes += [kw.value for kw in node.keywords if kw.arg in names]
        traced = next((p for p in (_traced_part(model, fn, s) for s in sizes) if p is not None), None)
        if traced is None:
            return
        error = "ConcretizationTypeError" if q in _CONCRETIZATION else "TypeError"
        ctx.report(
            node,
            self.message("sized-by", call=q.replace("jax.numpy.", "jnp."), traced=_short(traced), function=fn.name,
                         reason=fn.trace_reason, error=error),
        )


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 30 else text[:27] + "..."


def _has_a_slice(node: ast.AST) -> bool:
    """`x[a:b]`, `x[i, a:b]`: a subscript with a slice among its indices."""
    index = node.slice  # type: ignore[attr-defined]
    return any(isinstance(part, ast.Slice) for part in (index.elts if isinstance(index, ast.Tuple) else [index]))
