"""SB103 host-conversion-in-jit: `float(x)`, `int(x)`, `x.item()`, `x.tolist()`, `np.asarray(x)`, NumPy and `math`
functions on a traced value inside traced code."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from sharpbits.analysis.model import FunctionInfo
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.tracers import TracerValues
from sharpbits.findings import Fix, TextEdit

# NumPy functions that work on a tracer (checked under jit on jax 0.10.2 / NumPy 2): they call the array's own
# method (`np.sum(x)` is `x.sum()`), or only read its shape or dtype.
NUMPY_DELEGATING = frozenset([
    "all", "amax", "amin", "any", "argmax", "argmin", "argsort", "around", "cumprod", "cumsum", "flip",
    "imag", "max", "mean", "min", "permute_dims", "prod", "real", "round", "squeeze", "std", "sum",
    "transpose", "unstack", "var", "reshape", "swapaxes", "repeat", "searchsorted", "moveaxis", "shape",
    "ndim", "size", "result_type", "isscalar", "iscomplexobj", "isrealobj", "iterable", "common_type",
    "printoptions", "info", "bmat", "dtype", "iinfo", "finfo", "issubdtype", "promote_types", "can_cast",
    "broadcast_shapes", "get_printoptions", "set_printoptions",
])
# Shape-sized constructors: a traced size is `dynamic-shape`'s finding, not a host conversion.
NUMPY_SIZED = frozenset([
    "zeros", "ones", "empty", "full", "arange", "eye", "identity", "tri", "indices", "linspace", "logspace",
    "geomspace",
])
# NumPy functions with a `jax.numpy` twin of the same name (checked on jax 0.10.2): the fix's target.
JNP_TWINS = frozenset([
    "abs", "absolute", "acos", "acosh", "add", "allclose", "angle", "append", "arange", "arccos", "arccosh",
    "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "argpartition", "argwhere", "array", "array_equal",
    "array_equiv", "array_split", "asarray", "asin", "asinh", "atan", "atan2", "atanh", "atleast_1d",
    "atleast_2d", "atleast_3d", "average", "bincount", "bitwise_and", "bitwise_not", "bitwise_or",
    "bitwise_xor", "block", "broadcast_arrays", "broadcast_to", "cbrt", "ceil", "choose", "clip",
    "column_stack", "compress", "concat", "concatenate", "conj", "conjugate", "convolve", "copy", "copysign",
    "corrcoef", "correlate", "cos", "cosh", "count_nonzero", "cov", "cross", "cumulative_prod",
    "cumulative_sum", "deg2rad", "degrees", "delete", "diag", "diagflat", "diagonal", "diff", "digitize",
    "divide", "divmod", "dot", "dsplit", "dstack", "ediff1d", "einsum", "empty_like", "equal", "exp", "exp2",
    "expand_dims", "expm1", "extract", "fabs", "fliplr", "flipud", "float_power", "floor", "floor_divide",
    "fmax", "fmin", "fmod", "frexp", "full_like", "gcd", "gradient", "greater", "greater_equal", "heaviside",
    "histogram", "hsplit", "hstack", "hypot", "i0", "inner", "insert", "interp", "intersect1d", "invert",
    "isclose", "iscomplex", "isfinite", "isin", "isinf", "isnan", "isneginf", "isposinf", "kron", "lcm",
    "ldexp", "less", "less_equal", "log", "log10", "log1p", "log2", "logaddexp", "logaddexp2", "logical_and",
    "logical_not", "logical_or", "logical_xor", "matmul", "maximum", "median", "meshgrid", "minimum", "mod",
    "modf", "multiply", "nan_to_num", "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax",
    "nanmean", "nanmedian", "nanmin", "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar",
    "negative", "nextafter", "nonzero", "not_equal", "ones_like", "outer", "pad", "partition", "percentile",
    "piecewise", "polyval", "positive", "pow", "power", "ptp", "quantile", "rad2deg", "radians", "ravel",
    "reciprocal", "remainder", "rint", "roll", "rot90", "select", "sign", "signbit", "sin", "sinc", "sinh",
    "sort", "split", "sqrt", "square", "stack", "subtract", "take", "take_along_axis", "tan", "tanh",
    "tensordot", "tile", "trace", "trapezoid", "tril", "triu", "true_divide", "trunc", "unique", "vdot",
    "vsplit", "vstack", "where", "zeros_like", "float32", "float64", "float16", "int32", "int64", "int8",
    "int16", "uint8", "uint32", "bool_", "complex64", "complex128",
])
_CONVERTERS = {"float": "float()", "int": "int()", "complex": "complex()"}
_METHODS = {"item": "`.item()`", "tolist": "`.tolist()`", "tobytes": "`.tobytes()`", "__array__": "`__array__()`"}


class HostConversionInJit(Rule):
    code = "SB103"
    name = "host-conversion-in-jit"
    severity = "error"
    trace_hazard = True
    raises_on_trace = True
    reuse = "function"  # findings per function, reused across edits elsewhere (analysis/rule_results.py)
    messages = {
        "converter": (
            "`{converter}()` of a traced value {where} raises ConcretizationTypeError; keep it an array (`x.astype(...)`) or mark the argument static"
        ),
        "method": (
            "{method} of a traced value {where} raises {error}; keep it an array and convert after the call"
        ),
        "math": (
            "`{function}` of a traced value {where} raises ConcretizationTypeError (it needs a Python float); use "
            "`jnp.{twin}`"
        ),
        "numpy": (
            "`{function}` on a traced value {where} raises TracerArrayConversionError; use `jax.numpy` in traced code"
        ),
    }
    summary = ("Flags `float(x)`, `int(x)`, `x.item()`, `x.tolist()`, `np.asarray(x)`/`np.array(x)` and NumPy or "
               "`math` functions on a traced value inside traced code.")
    why = """
Inside traced code an array argument is a tracer: it stands for values that do not exist yet (under `jit`), or it
carries derivative information (under `grad`). Converting it to a Python number (`float(x)`, `int(x)`, `x.item()`,
`math.exp(x)`) raises `ConcretizationTypeError`; converting it to a NumPy array (`np.asarray(x)`, `np.exp(x)`,
`np.dot(x, w)`, `np.clip(x, 0, 1)`, `x.tolist()`) raises `TracerArrayConversionError`, also under `jax.grad`.

A few NumPy functions work on a tracer because NumPy calls the array's own method (`np.sum`, `np.mean`,
`np.reshape`, `np.transpose`, ...) or only reads its shape (`np.shape`, `np.ndim`); they are not flagged, nor are
conversions in eager code or of static values (shapes, static arguments, Python numbers).

`jax.custom_vjp` and `jax.custom_jvp` are not tracing transformations: called eagerly, a custom-derivative function
runs on the caller's arrays, and under `jax.grad` alone JAX calls its rules with concrete primals and cotangents
(wrappers around C or NumPy libraries rely on this). Its body is flagged only when code in the module traces it
(calls it from a jitted, vmapped or scanned function).
A branch no trace takes is not flagged: in a helper that traced code calls by name (its name used nowhere but in
calls), an `if` (or ternary) whose test reads only parameters the helper never rebinds, when every traced call
passes a literal for them (or leaves a literal default) that decides the test the same way
(`energy(out, for_jit=True)` from every jitted caller never runs `if not for_jit:` under a trace).
A conversion inside a `try` whose handler catches what JAX raises (a bare `except:`, `Exception`, `TypeError`, or
JAX's `ConcretizationTypeError`/`TracerArrayConversionError`) is code that expects the error under a trace and takes
its handler's path; it is not flagged. A helper's parameter that every traced call fills with a concrete value (an
array the caller closes over from eager code, a Python number) is no tracer. Nor is a value in the branch of
`isinstance(x[0], np.ndarray)` (or of `isinstance(n, int)`, another Python number), or in the `else` of
`isinstance(x, jax.core.Tracer)`: no tracer is an instance of those classes, so no trace takes that branch.
A Pallas kernel (the function `pl.pallas_call` and its variants are given) is traced too, also with
`interpret=True`: what it reads from its refs and `pl.program_id(...)` are tracers; a ref's `.shape`, what
`functools.partial` binds and keyword-only parameters are Python values.
"""
    example = """
import jax
import numpy as np

@jax.jit
def normalise(x):
    scale = float(x.max())
    return np.exp(x) / scale
"""
    use_instead = """
import jax
import jax.numpy as jnp

@jax.jit
def normalise(x):
    scale = x.max()
    return jnp.exp(x) / scale
"""
    fix_safety = """
`np.<f>(...)` on a traced value becomes `jnp.<f>(...)` where `jax.numpy` has a function of that name (and the module
imports `jax.numpy`). The fix is **unsafe**: the result becomes a traced JAX array (immutable, 32-bit by default,
with JAX's semantics for out-of-bounds indices), which is usually what was meant but may not be what later lines
expect. `float()`, `int()`, `.item()`, `.tolist()` and `math` functions have no mechanical fix: keep the value
as an array (`x.astype(jnp.float32)`, `jnp.exp`) inside the function and convert after the call, or mark the
argument static.
"""
    VALID = [
        # an array-namespace switch whose JAX branch never runs: np is NumPy, so numpy.__name__ has no "jax"
        "import jax\nimport numpy as np\ndef series(z):\n    return np.where(np.abs(z) < 0.5, z, 1.0 / z)\n"
        "def apply(z):\n    if 'jax' in np.__name__:\n        return jax.vmap(series)(z)\n    return series(z)\n",
        # shapes, sizes and static arguments are Python values at trace time
        "import jax\nimport numpy as np\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\n"
        "def f(x, n):\n    k = int(np.prod(x.shape)) + int(n) + len(x)\n    return x.reshape(k // len(x), -1)\n",
        # conversions outside traced code
        "import jax\nimport numpy as np\n@jax.jit\ndef f(x):\n    return x * 2\ny = f(1.0)\nprint(float(y), np.asarray(y), y.item())\n",
        # NumPy functions that call the array's method, and NumPy on NumPy constants
        "import jax\nimport numpy as np\n@jax.jit\ndef f(x):\n    w = np.exp(np.arange(3.0))\n"
        "    return np.sum(x) + np.mean(x) + np.reshape(x, (-1,)) * w\n",
        # jnp instead of np
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    return jnp.exp(x) + x.astype(float)\n",
        # inside ensure_compile_time_eval values are concrete
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    with jax.ensure_compile_time_eval():\n"
        "        n = int(jnp.array(3))\n    return x * n\n",
        # under grad alone only the differentiated argument is a tracer
        "import jax\nimport numpy as np\ndef loss(w, data):\n    return w * np.asarray(data).mean() * float(data[0])\n"
        "g = jax.grad(loss)\n",
        # custom_vjp is not a tracing transformation: called eagerly, or differentiated by jax.grad alone, the
        # function and its rules run on concrete arrays (only a jit/vmap around the call would trace them)
        "import jax\nimport jax.numpy as jnp\nimport numpy as np\n@jax.custom_vjp\ndef host_sum(x):\n"
        "    return jnp.asarray(np.sum(np.array(x) ** 2))\ndef host_sum_fwd(x):\n    return host_sum(x), x\n"
        "def host_sum_bwd(x, g):\n    return (2 * np.array(x) * g,)\nhost_sum.defvjp(host_sum_fwd, host_sum_bwd)\n"
        "def run(x):\n    return host_sum(x), jax.grad(host_sum)(x)\n",
        # a parameter with a Python default may be a number
        "import jax\n@jax.jit\ndef f(x, scale=1.0):\n    return x * float(scale)\n",
    ]
    INVALID = [
        Invalid(  # a Pallas kernel is traced: `int()` of its grid position raises ConcretizationTypeError
            "import functools\nimport jax\nimport jax.numpy as jnp\nfrom jax.experimental import pallas as pl\n"
            "def kernel(x_ref, o_ref, *, block):\n    i = int(pl.program_id(0))\n    o_ref[...] = x_ref[...] * i\n"
            "def run(x, block=8):\n    return pl.pallas_call(functools.partial(kernel, block=block), grid=(2,),\n"
            "        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)\n",
        ),
        Invalid(  # ... and the same switch taken: the mapped function calls NumPy on a tracer
            "import jax\nimport numpy as np\ndef series(z):\n    return z * np.abs(z)\n"
            "def apply(z):\n    if np.__name__ == 'numpy':\n        return jax.vmap(series)(z)\n    return series(z)\n",
            fixed="import jax\nimport numpy as np\ndef series(z):\n    return z * jax.numpy.abs(z)\n"
            "def apply(z):\n    if np.__name__ == 'numpy':\n        return jax.vmap(series)(z)\n    return series(z)\n",
        ),
        Invalid(
            "import jax\n@jax.jit\ndef f(x):\n    return x * float(x.max())\n",
        ),
        Invalid(  # np.exp on a tracer: jnp.exp (unsafe fix, applied in the test)
            "import jax\nimport jax.numpy as jnp\nimport numpy as np\n@jax.jit\ndef f(x):\n    return np.exp(x) + np.dot(x, x)\n",
            fixed="import jax\nimport jax.numpy as jnp\nimport numpy as np\n@jax.jit\ndef f(x):\n"
            "    return jnp.exp(x) + jnp.dot(x, x)\n",
            count=2,
        ),
        Invalid(  # ... but called from jitted code the custom_vjp function is traced
            "import jax\nimport jax.numpy as jnp\nimport numpy as np\n@jax.custom_vjp\ndef host_sum(x):\n"
            "    return jnp.asarray(np.array(x) ** 2)\ndef host_sum_fwd(x):\n    return host_sum(x), x\n"
            "def host_sum_bwd(x, g):\n    return (2 * x * g,)\nhost_sum.defvjp(host_sum_fwd, host_sum_bwd)\n"
            "@jax.jit\ndef run(x):\n    return host_sum(x)\n",
            fixed="import jax\nimport jax.numpy as jnp\nimport numpy as np\n@jax.custom_vjp\ndef host_sum(x):\n"
            "    return jnp.asarray(jnp.array(x) ** 2)\ndef host_sum_fwd(x):\n    return host_sum(x), x\n"
            "def host_sum_bwd(x, g):\n    return (2 * x * g,)\nhost_sum.defvjp(host_sum_fwd, host_sum_bwd)\n"
            "@jax.jit\ndef run(x):\n    return host_sum(x)\n",
        ),
        Invalid(  # .item() / .tolist() in a vmapped function
            "import jax\n@jax.vmap\ndef f(x):\n    values = x.tolist()\n    return x * x.item()\n",
            count=2,
        ),
        Invalid(  # np.asarray under jax.grad alone raises too
            "import jax\nimport numpy as np\ndef loss(w):\n    return np.asarray(w).sum()\ng = jax.grad(loss)\n",
            fixed="import jax\nimport numpy as np\ndef loss(w):\n    return jax.numpy.asarray(w).sum()\ng = jax.grad(loss)\n",
        ),
        Invalid(  # math functions convert to a Python float
            "import math\nimport jax\ndef body(i, c):\n    return c + math.exp(c)\nout = jax.lax.fori_loop(0, 3, body, 1.0)\n",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        for fn in model.traced.traced_functions():
            for node in model.scopes.own_nodes(fn):
                if isinstance(node, ast.Call) and not model.scopes.catches_tracer_errors(node):
                    self._call(ctx, fn, node)

    def _call(self, ctx: RuleContext, fn: FunctionInfo, node: ast.Call) -> None:
        model = ctx.model
        where = f"inside `{fn.name}` ({fn.trace_reason})"
        func = node.func
        if isinstance(func, ast.Name) and func.id in _CONVERTERS and not model.scopes.is_local(func.id, fn) and (
                func.id not in model.scopes.aliases) and len(node.args) == 1:
            if model.fact(TracerValues).is_tracer(node.args[0], fn, concrete_traces=True):
                ctx.report(node, self.message("converter", converter=func.id, where=where))
            return
        if isinstance(func, ast.Attribute) and func.attr in _METHODS and model.scopes.qualname(func, fn) is None:
            if model.fact(TracerValues).is_tracer(func.value, fn, concrete_traces=True):
                error = "ConcretizationTypeError" if func.attr == "item" else "TracerArrayConversionError"
                ctx.report(node, self.message("method", method=_METHODS[func.attr], where=where, error=error))
            return
        q = model.scopes.qualname(func, fn)
        if q is None:
            return
        if q.startswith("math."):
            if any(model.fact(TracerValues).is_tracer(a, fn, concrete_traces=True) for a in node.args):
                ctx.report(node, self.message("math", function=q, where=where, twin=q.rsplit(".", 1)[1]))
            return
        if not q.startswith("numpy.") or q.startswith(("numpy.random.", "numpy.testing.")):
            return
        tail = q.rsplit(".", 1)[1]
        if tail in NUMPY_DELEGATING or tail in NUMPY_SIZED:
            return
        values = [*node.args, *(kw.value for kw in node.keywords)]
        if not any(model.fact(TracerValues).is_tracer(v, fn, concrete_traces=True) for v in _array_arguments(values)):
            return
        builder, title = self._jnp_fix(ctx, node, q)
        ctx.report(node, self.message("numpy", function=ast.unparse(func), where=where), builder, fix_title=title)

    @staticmethod
    def _jnp_fix(ctx: RuleContext, node: ast.Call, q: str):
        model, source = ctx.model, ctx.source
        tail = q.rsplit(".", 1)[1]
        jnp = model.scopes.spelling_of("jax.numpy")
        # numpy.linalg.norm -> jnp.linalg.norm: only plain numpy.<f> here
        if jnp is None or q != f"numpy.{tail}" or tail not in JNP_TWINS:
            return None, ""
        func = node.func
        new = f"{jnp}.{tail}"

        def build() -> Fix | None:
            return Fix(safe=False, description=f"Use `{new}`", edits=(TextEdit.replacing(source, func, new),))

        return build, f"use `{new}`"


def _array_arguments(values: Sequence[ast.AST]) -> list[ast.AST]:
    """The arguments, with list/tuple literals opened (`np.stack([x, y])`)."""
    out: list[ast.AST] = []
    for v in values:
        if isinstance(v, (ast.List, ast.Tuple)):
            out.extend(e.value if isinstance(e, ast.Starred) else e for e in v.elts)
        else:
            out.append(v.value if isinstance(v, ast.Starred) else v)
    return out
