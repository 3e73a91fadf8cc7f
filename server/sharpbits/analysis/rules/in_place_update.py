"""SB101 in-place-update: `x[i] = v` on a JAX array."""

from __future__ import annotations

import ast

from sharpbits.analysis.facts import Fact
from sharpbits.analysis.model import ARRAYS, FunctionInfo, Kind, ModuleModel
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.syntax import expected_to_raise
from sharpbits.findings import Fix, TextEdit

_AUG_METHOD: dict[type, str] = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply", ast.Div: "divide", ast.Pow: "power"}
_AUG_SYMBOL: dict[type, str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.FloorDiv: "//",
               ast.Mod: "%", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
               ast.RShift: ">>", ast.MatMult: "@"}
_MINMAX = {"jax.numpy.minimum": "min", "jax.numpy.maximum": "max"}


class InPlaceUpdate(Rule):
    code = "SB101"
    name = "in-place-update"
    severity = "error"
    reuse = "function"  # findings per function, reused across edits elsewhere (analysis/rule_results.py)
    messages = {
        "augmented": (
            "JAX arrays are immutable: `{name}[{index}] {op}= ...` raises TypeError; "
            "use `{name} = {name}.at[{index}].{method}(...)`"
        ),
        "assigned": (
            "JAX arrays are immutable: assigning to `{name}[{index}]` raises TypeError; "
            "use `{name} = {name}.at[{index}].{method}(...)`"
        ),
        "discarded": (
            "`{name}.at[{index}].{method}(...)` returns an updated copy, and this statement throws it away: "
            "`{name}` is unchanged; use `{name} = {name}.at[{index}].{method}(...)`"
        ),
    }
    summary = ("Flags `x[i] = v` and `x[i] += v` (any operator, slices, fancy indices) where `x` is a JAX array, and "
               "`x.at[i].set(v)` as a statement of its own (the updated copy thrown away).")
    why = """
JAX arrays are immutable. Assigning into one, as NumPy code does, raises
`TypeError: JAX arrays are immutable and do not support in-place item assignment` — eagerly and under `jit`.
JAX's functional equivalent is the `.at[]` property, which returns an updated copy (under `jit`, XLA turns it
into an in-place update when it can, so it costs nothing extra).

`x` counts as a JAX array when it is a parameter of a traced function (`jit`, `grad`, `vmap`, ..., unless it is
static), or a value built by `jax`/`jax.numpy` calls under any import alias — including `import jax.numpy as np` —,
also one held in a module-level dict (`BUFFERS = {"x": jnp.zeros((4, 3))}`, then `BUFFERS["x"][0] = row`) whose
entry nothing replaces with another kind of value.
NumPy arrays, dicts and lists are never flagged (an item of a dict pytree's entry that the module builds only as
a Python list, `state["combs"][i] = c`, is a list item; no array takes a string index, so `ctx["slide_" + k] = v`
writes a dict item), nor is a parameter written whole through `p[...] = v`: that is
how a mutable reference (`jax.new_ref`, flax's `nnx.Variable`) is written, in place by design, unless the callers
are seen passing it an array.

The functional form has its own trap: `x.at[i].set(v)` as a statement of its own computes the updated copy and
throws it away, so `x` stays as it was (a warning: nothing raises). Flagged when `x` is a local name or a `self`
attribute holding a JAX array built in the code, never a parameter (a Pallas kernel's `o_ref.at[i]` is a view
of a reference, whose `.set` does write in place), nor inside `with pytest.raises(...)`, where the test wants the
call to raise.

A field a record class of the module declares as a JAX array (`obs: jnp.ndarray` of a NamedTuple, `x: jax.Array`
of a dataclass) is one wherever the object goes: `buf.obs[i] = x` raises too. Pallas kernels write their references
in place by design: a name spelled as Pallas spells refs (`o_ref`, `acc_ref`, `scratch_refs`) in a module that
imports Pallas is never flagged, whatever its annotation says (`acc_ref: jax.Array` is common), and neither is a
name that says the memory space it lives in (`dy_vmem`, `x_hbm`, `acc_scratch`).
"""
    example = """
import jax
import jax.numpy as jnp

@jax.jit
def clip_first(x):
    x[0] = 0.0
    x[1:] += 1.0
    return x
"""
    use_instead = """
import jax
import jax.numpy as jnp

@jax.jit
def clip_first(x):
    x = x.at[0].set(0.0)
    x = x.at[1:].add(1.0)
    return x
"""
    fix_safety = """
The fix rewrites `x[i] = v` to `x = x.at[i].set(v)`; `+=`, `-=`, `*=`, `/=`, `**=` become `.add`, `.subtract`,
`.multiply`, `.divide`, `.power`; `x[i] = jnp.minimum(x[i], v)` becomes `.min(v)` (and `maximum` `.max`); other
operators become `.set(x[i] op v)`. Comments and formatting inside the statement are kept.

It is **safe** when `x` is a local variable and the index is basic (integers, slices, loop counters).
It is **unsafe** when `x` is a parameter (NumPy-style code may expect the caller to see the change; with the fix
only the local name is rebound, so return `x`), or when an accumulating operator meets an index array that may
hold duplicates (NumPy applies `x[idx] += 1` once per distinct index, `.at[idx].add(1)` once per occurrence).
No fix is offered for chained (`x[i][j] = v`) or multiple targets, or when `x` is a global or closed-over name
(rebinding it locally would raise `UnboundLocalError`).
"""
    VALID = [
        # jnp.split (array_split, meshgrid, broadcast_arrays, ...) returns a Python list: parts[k] = v sets an item
        "import jax.numpy as jnp\nimport numpy as np\ndef f(x):\n    parts = jnp.split(x, 2)\n"
        "    parts[0] = np.asarray(parts[0])\n    return parts\n",
        # lax.map keeps the structure its function returns: a list of lists, so res[i][j] = v writes a list
        "import jax\nimport jax.numpy as jnp\ndef f(xs):\n    def one(s):\n        out = []\n"
        "        out.append([s * 2.0, s + 1.0])\n        return out\n    res = jax.lax.map(one, xs)\n"
        "    res[0][1] = res[0][1] / 2\n    return res\n",
        # a scan carry that is a tuple holding an object with its own item assignment (jax_galsim's Image), and a
        # parameter annotated with such a class: written through its `__setitem__`, no array
        "import jax\nimport jax.numpy as jnp\nfrom functools import partial\nclass Image:\n"
        "    def __init__(self, array):\n        self.array = array\n    def __setitem__(self, index, value):\n"
        "        self.array = self.array.at[index].set(value)\n@partial(jax.jit, static_argnames=('n',))\n"
        "def add(carry, x, n):\n    image = carry[0]\n    image[0:n] += x\n    return (image,), None\n"
        "@jax.jit\ndef paste(image: Image, stamp):\n    image[0:2] = stamp\n    return image\n"
        "def run(stamps):\n    return jax.lax.scan(partial(add, n=2), (Image(jnp.zeros(4)),), stamps)\n",
        # a Pallas kernel's parameters are references: `o_ref[...] = v` and stores through views are its output
        "import jax\nimport jax.numpy as jnp\nfrom jax.experimental import pallas as pl\ndef kernel(x_ref, o_ref):\n"
        "    o_ref.at[:, :2][...] = x_ref[:, :2]\n    o_ref[:, 2:] = x_ref[:, 2:] * 2\n"
        "    o_ref.bitcast(jnp.int32)[0, 0] = 1\n@jax.jit\ndef f(x):\n"
        "    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)\n",
        # a kernel helper whose reference is named by its memory space (`dy_vmem`, annotated `jax.Array`; round
        # 37's e3j), in a module that imports Pallas
        "import jax\nimport jax.numpy as jnp\nfrom jax.experimental import pallas as pl\n"
        "def write_dy(dy_vmem: jax.Array, yi: int, acc: jax.Array) -> None:\n    dy_vmem[:, yi] = jnp.sum(acc, -1)\n",
        # a discarded `.at[...]` update the test expects to raise (round 37's saiunit)
        "import jax.numpy as jnp\nimport pytest\ndef test_bad_factor():\n    q = jnp.ones(3)\n"
        "    with pytest.raises(TypeError):\n        q.at[0].multiply('x')\n",
        # a loop carry that starts as a Python list stays one: `acc[0] += ...` rebinds a list item
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    def body(i, acc):\n        acc[0] += x[i]\n"
        "        acc[1] = acc[1] * 2\n        return acc\n    return jax.lax.fori_loop(0, 3, body, [x[0], x[1]])\n",
        # an attribute that holds a NumPy array (or anything else) is not flagged
        "import numpy as np\nclass Buffer:\n    def __init__(self, n):\n        self.data = np.zeros(n)\n"
        "    def write(self, i, v):\n        self.data[i] = v\n",
        # a helper that returns a Python list: not an array
        "import jax\ndef slots(n):\n    return [0] * n\n@jax.jit\ndef f(x):\n    out = slots(3)\n    out[0] = 1\n    return x\n",
        # NumPy in-place updates are fine
        "import numpy as np\nx = np.zeros(3)\nx[0] = 1\n",
        # dicts and lists
        "import jax\n@jax.jit\ndef f(x):\n    d = {}\n    d['a'] = x\n    out = [0, 0]\n    out[0] = x\n    return d, out\n",
        # a dict carry written per key of its template (autopdex's stage update in a fori_loop body)
        "import jax\ndef body(i, q):\n    for key in ('a', 'b'):\n        pass\n    for key in q.keys():\n"
        "        q[key] = q[key].at[i].set(0.0)\n    return q\ndef run(q):\n    return jax.lax.fori_loop(0, 2, body, q)\n",
        # a dict pytree parameter written by string key
        "import jax\n@jax.grad\ndef loss(params):\n    params['w'] = params['w'] * 2\n    return params['w'].sum()\n",
        # a scan slice that is a dict: `res.pop(name)` (a method no JAX array has) says so (maxtext's residuals)
        "import jax\ndef body(c, xs):\n    res, i = xs\n    for name in ('a', 'b'):\n        r = res.pop(name)\n"
        "        res[name] = r * 2\n    return c + i, None\ndef run(res, n):\n    return jax.lax.scan(body, 0.0, (res, n))\n",
        # the functional form
        "import jax.numpy as jnp\nx = jnp.zeros(3)\nx = x.at[0].set(1.0)\n",
        # unknown values never warn
        "def f(x):\n    x[0] = 1\n    return x\n",
        # a static argument is a Python value
        "from functools import partial\nimport jax\n@partial(jax.jit, static_argnums=1)\ndef f(x, buf):\n    buf[0] = 1\n    return x\n",
        # numpy names under a jnp-looking alias are still numpy
        "import numpy as jnp\nx = jnp.ones(4)\nx[1:] += 2\n",
        # a parameter written whole through `[...]` is a mutable reference (jax.new_ref, flax nnx.Variable)
        "import jax\n@jax.jit\ndef observe(count, total, x):\n    count[...] += 1\n    total[...] = total[...] + x.sum()\n",
        # a local name that shadows the alias
        "import jax.numpy as jnp\ndef f(jnp):\n    x = jnp.zeros(3)\n    x[0] = 1\n",
        # `.at[i].set(v)` as a statement on a parameter: a Pallas kernel's reference writes in place through its
        # view; and `.at[i].get()` alone only reads
        "import jax.numpy as jnp\ndef kernel(x_ref, o_ref):\n    o_ref.at[:2].set(x_ref[:2] * 2)\n"
        "def f():\n    x = jnp.zeros(3)\n    x.at[0].get()\n    return x\n",
        # an item of a dict pytree's entry the module builds only as a Python list: a list item
        "import jax\nimport jax.numpy as jnp\ndef init_state():\n    return {'combs': [jnp.zeros(3) for _ in range(2)]}\n"
        "@jax.jit\ndef tick(state, x):\n    state['combs'][0] = state['combs'][0] + x\n    return state\n",
        # a dict of arrays handed to a function, which may put NumPy buffers in it
        "import jax.numpy as jnp\nCACHE = {'k': jnp.zeros((4, 8))}\ndef reset():\n    to_host(CACHE)\n"
        "def append(t, k):\n    CACHE['k'][t] = k\n",
        # a module's dict rebound by a function through `global`
        "import jax.numpy as jnp\nimport numpy as np\nCACHE = {'k': jnp.zeros((4, 8))}\ndef reset():\n"
        "    global CACHE\n    CACHE = {'k': np.zeros((4, 8))}\ndef append(t, k):\n    CACHE['k'][t] = k\n",
        # an entry stored a NumPy array elsewhere
        "import jax.numpy as jnp\nimport numpy as np\nCACHE = {'k': jnp.zeros((4, 8))}\ndef reset():\n"
        "    CACHE['k'] = np.zeros((4, 8))\ndef append(t, k):\n    CACHE['k'][t] = k\n",
    ]
    INVALID = [
        Invalid(  # an entry of a dict display that holds a JAX array (a KV cache kept at module level)
            "import jax.numpy as jnp\nCACHE = {'k': jnp.zeros((4, 8)), 'v': jnp.zeros((4, 8))}\n"
            "def append(t, k, v):\n    CACHE['k'][t] = k\n    CACHE['v'] = CACHE['v'].at[t].set(v)\n"),
        Invalid(  # the updated copy thrown away: a local array and an array kept on `self`
            "import jax.numpy as jnp\ndef f(n):\n    mask = jnp.zeros(n)\n    mask.at[0].set(1.0)\n    return mask\n"
            "class Split:\n    def __init__(self, n):\n        self.train = jnp.zeros(n)\n"
            "    def pick(self, i):\n        self.train.at[i].set(1.0)\n",
            count=2, severity="warning",
        ),
        Invalid(  # a JAX array held in a module-level dict, written row by row
            "import jax.numpy as jnp\nBUFFERS = {'x': jnp.zeros((4, 3))}\ndef write(row):\n    BUFFERS['x'][0] = row\n",
        ),
        Invalid(  # ... but `copy` and `sort` are array methods too: the slice stays an array
            "import jax\ndef body(c, xs):\n    x, i = xs\n    saved = x.copy()\n    x[0] = 0.0\n    return c + saved.sum() + i, None\n"
            "def run(xs, n):\n    return jax.lax.scan(body, 0.0, (xs, n))\n",
            fixed="import jax\ndef body(c, xs):\n    x, i = xs\n    saved = x.copy()\n    x = x.at[0].set(0.0)\n"
            "    return c + saved.sum() + i, None\ndef run(xs, n):\n    return jax.lax.scan(body, 0.0, (xs, n))\n",
        ),
        Invalid(  # ... and a name popped from and then rebound to an array is that array
            "import jax\nimport jax.numpy as jnp\ndef body(c, xs):\n    res, i = xs\n    r = res.pop('a')\n    res = jnp.zeros(3)\n    res[0] = r\n"
            "    return c, None\ndef run(res, n):\n    return jax.lax.scan(body, 0.0, (res, n))\n",
            fixed="import jax\nimport jax.numpy as jnp\ndef body(c, xs):\n    res, i = xs\n    r = res.pop('a')\n"
            "    res = jnp.zeros(3)\n    res = res.at[0].set(r)\n    return c, None\ndef run(res, n):\n"
            "    return jax.lax.scan(body, 0.0, (res, n))\n",
        ),
        Invalid(  # ... whose items are JAX arrays: parts[0][0] = v writes into one
            "import jax.numpy as jnp\ndef f(x):\n    parts = jnp.split(x, 2)\n    parts[0][0] = 0.0\n    return parts\n",
        ),
        Invalid(  # ... but a function returning a tuple of arrays gives stacked arrays: res[0] is one
            "import jax\nimport jax.numpy as jnp\ndef f(xs):\n    def one(s):\n        return jnp.sin(s), jnp.cos(s)\n"
            "    res = jax.lax.map(one, xs)\n    res[0][1] = 0.0\n    return res\n",
        ),
        Invalid(  # an array kept in an attribute keeps its kind
            "import jax.numpy as jnp\nclass Buffer:\n    def __init__(self, n):\n        self.data = jnp.zeros(n)\n"
            "    def write(self, i, v):\n        self.data[i] = v\n",
        ),
        Invalid(  # a value returned by a helper of this module keeps its kind (here a tuple of arrays)
            "import jax\ndef stats(x):\n    return x.mean(0), x.var(0)\n@jax.jit\ndef f(x):\n    mean, var = stats(x)\n"
            "    mean[0] = 0.0\n    return mean / var\n",
            fixed="import jax\ndef stats(x):\n    return x.mean(0), x.var(0)\n@jax.jit\ndef f(x):\n    mean, var = stats(x)\n"
            "    mean = mean.at[0].set(0.0)\n    return mean / var\n",
        ),
        Invalid(
            "import jax\n@jax.jit\ndef f(x):\n    y = x * 2\n    y[0] = 1.0\n    return y\n",
            fixed="import jax\n@jax.jit\ndef f(x):\n    y = x * 2\n    y = y.at[0].set(1.0)\n    return y\n",
        ),
        Invalid(
            "import jax.numpy as np\nx = np.zeros((3, 3))\nx[0, :] += 1  # bump the first row\n",
            fixed="import jax.numpy as np\nx = np.zeros((3, 3))\nx = x.at[0, :].add(1)  # bump the first row\n",
        ),
        Invalid(
            "from jax import numpy as jnp\nx = jnp.arange(4.0)\nx[1:3] -= 1\nx[0] *= 2\nx[-1] /= 4\n",
            fixed="from jax import numpy as jnp\nx = jnp.arange(4.0)\nx = x.at[1:3].subtract(1)\nx = x.at[0].multiply(2)\n"
            "x = x.at[-1].divide(4)\n",
            count=3,
        ),
        Invalid(
            "import jax.numpy as jnp\nx = jnp.zeros(5)\nx[2] = jnp.minimum(x[2], 0.5)\nx[3] = jnp.maximum(1.0, x[3])\n",
            fixed="import jax.numpy as jnp\nx = jnp.zeros(5)\nx = x.at[2].min(0.5)\nx = x.at[3].max(1.0)\n",
            count=2,
        ),
        Invalid(
            "import jax.numpy as jnp\nx = jnp.arange(6)\nx[::2] //= 3 + 1\n",
            fixed="import jax.numpy as jnp\nx = jnp.arange(6)\nx = x.at[::2].set(x[::2] // (3 + 1))\n",
        ),
        Invalid(  # a parameter of a vmapped function, multi-line statement with a comment inside
            "import jax\ndef f(row, i):\n    row[i] = (\n        row[i] + 1  # shift\n    )\n    return row\ng = jax.vmap(f)\n",
            fixed="import jax\ndef f(row, i):\n    row = row.at[i].set((\n        row[i] + 1  # shift\n    ))\n    return row\ng = jax.vmap(f)\n",
        ),
        Invalid(  # a helper called from jit sees the array its caller passes
            "import jax\nimport jax.numpy as jnp\ndef helper(a):\n    a[0] = 0\n    return a\n@jax.jit\ndef f(x):\n"
            "    return helper(jnp.sin(x))\n",
            fixed="import jax\nimport jax.numpy as jnp\ndef helper(a):\n    a = a.at[0].set(0)\n    return a\n@jax.jit\n"
            "def f(x):\n    return helper(jnp.sin(x))\n",
        ),
        Invalid("import jax.numpy as jnp\nx = jnp.zeros((2, 2))\nx[0][1] = 3\n"),  # chained: flagged, no fix
        Invalid(  # written whole, but the caller passes an array it made, not a reference
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef fill(x):\n    x[...] = 0.0\n    return x\nfill(jnp.ones(3))\n",
            fixed="import jax\nimport jax.numpy as jnp\n@jax.jit\ndef fill(x):\n    x = x.at[...].set(0.0)\n    return x\n"
            "fill(jnp.ones(3))\n",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        stores: dict[int, dict[str, list[ast.Name]]] = {}  # id(scope) -> its names bound, once per check
        for node in model.scopes.candidates("subscript assignments", (ast.Assign, ast.AugAssign), _assigns_a_subscript):
            if isinstance(node, ast.Assign):
                targets = node.targets
                aug = None
            elif isinstance(node, ast.AugAssign):
                targets = [node.target]
                aug = type(node.op)
            else:
                continue
            flat = [t for target in targets for t in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target])]
            for target in flat:
                if not isinstance(target, ast.Subscript):
                    continue
                base, chained = _base_name(target)
                if base is None:
                    attribute = _held_attribute(target)  # self.w[0] = v, buf.obs[i] = v: the field's kind
                    if attribute is None or model.kinds.kind_of(attribute, model.scopes.enclosing_function(node)) not in ARRAYS:
                        continue
                    if _pallas_ref_name(attribute.value.id, model):  # type: ignore[attr-defined]
                        continue  # metadata_ref.offsets[i] = v: a dataclass of Pallas refs, written in place
                    self._report_attribute(ctx, target, attribute)
                    continue
                enclosing = model.scopes.enclosing_function(node)
                if enclosing is not None and base.id in enclosing.params and model.traced.in_pallas_kernel(enclosing):
                    continue  # a loop body inside a Pallas kernel: its carry is the kernel's ref (`o_ref[i] = v`)
                if _pallas_ref_name(base.id, model):
                    continue  # `acc_ref[...] = acc` in a kernel helper annotated `acc_ref: jax.Array`
                if model.kinds.kind_at(base) not in (Kind.JAX, Kind.JAX_MASK, Kind.KEY) and not _array_leaf_of_pytree_param(target, base, model):
                    entry = _module_dict_entry(target, base, model)
                    if entry is not None:  # BUFFERS["x"][0] = v with BUFFERS = {"x": jnp.zeros(...)}
                        self._report_attribute(ctx, target, entry)
                    continue
                if isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
                    continue
                if _item_of_a_listed_entry(target, base, model):
                    continue  # state["combs"][i] = v where the module builds every "combs" entry as a list
                if _dict_key(target.slice, node, model):
                    continue  # q[key] = ... in `for key in template.keys()`: a dict (of arrays), not an array
                if _string_valued(target.slice, model.scopes.enclosing_function(node), model):
                    continue  # ctx[f"slide_{k}"] = v, ctx["a_" + k] = v: an array takes no string index
                if not chained and _list_of_arrays(base, model.scopes.enclosing_function(node), model, stores):
                    continue  # parts = jnp.split(x, n); parts[k] = ...: an item of a Python list
                if not chained and _container_method_before(base, node, model):
                    continue  # r = res.pop(name); ...; res[name] = r: `res` is a dict (a pytree), not an array
                simple = len(flat) == 1 and len(targets) == 1 and not chained
                method, minmax = _method_for(node, aug, ctx)
                index = ast.unparse(target.slice) if len(ast.unparse(target.slice)) <= 20 else "..."
                name = base.id
                if aug is not None and aug in _AUG_METHOD:
                    msg = self.message("augmented", name=name, index=index, op=_AUG_SYMBOL[aug], method=method)
                else:
                    msg = self.message("assigned", name=name, index=index, method=method)
                fn = model.scopes.enclosing_function(node)
                fixable = simple and (fn is None or base.id in fn.local_names)
                builder = _fix_builder(ctx, node, base.id, fn, minmax) if fixable else None
                ctx.report(target, msg, builder, fix_title=f"use `{name} = {name}.at[{index}].{method}(...)`")

        self._check_discarded(ctx)

    def _check_discarded(self, ctx: RuleContext) -> None:
        """`x.at[i].set(v)` as an expression statement, `x` a JAX array: the updated copy is thrown away."""
        model = ctx.model
        for node in model.scopes.candidates("discarded at updates", (ast.Expr,), _discarded_at_update):
            call = node.value  # type: ignore[attr-defined]
            at = call.func.value  # x.at[i]
            receiver = at.value.value  # x
            fn = model.scopes.enclosing_function(node)
            if expected_to_raise(node, model.scopes.parents):
                continue  # `with pytest.raises(TypeError): q.at[0].multiply(bad)`: the test wants the call to raise
            if isinstance(receiver, ast.Name):
                if fn is not None and (receiver.id in fn.params or receiver.id not in fn.local_names):
                    continue  # a parameter may be a reference (a Pallas kernel's o_ref), a closed-over name unknown
                if model.kinds.kind_at(receiver) not in (Kind.JAX, Kind.JAX_MASK):
                    continue
            elif isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name) and (
                    receiver.value.id == "self"):
                if model.kinds.kind_of(receiver, fn) not in ARRAYS:
                    continue
            else:
                continue
            name = ast.unparse(receiver)
            index = ast.unparse(at)[len(ast.unparse(at.value)) + 1:-1]  # `:, 0`, not the tuple's `(:, 0)`
            index = index if len(index) <= 20 else "..."
            ctx.report(node, self.message("discarded", name=name, index=index, method=call.func.attr),
                       severity="warning")

    def _report_attribute(self, ctx: RuleContext, target: ast.Subscript, attribute: ast.expr) -> None:
        name = ast.unparse(attribute)
        index = ast.unparse(target.slice) if len(ast.unparse(target.slice)) <= 20 else "..."
        ctx.report(target, self.message("assigned", name=name, index=index, method="set"))


def _module_dict_entry(target: ast.Subscript, base: ast.Name, model) -> ast.Subscript | None:
    """`BUFFERS["x"][i] = v` (or `+=`) where `BUFFERS` is the module's dict whose entry "x" is surely a JAX array
    (see ModuleDicts): the entry `BUFFERS["x"]`, else None. The answer reads the whole module (Fact.across)."""
    entry = target.value
    if not (isinstance(entry, ast.Subscript) and entry.value is base and isinstance(entry.slice, ast.Constant)
            and isinstance(entry.slice.value, str)):
        return None
    fn = model.scopes.enclosing_function(target)
    if fn is not None and model.scopes.is_local(base.id, fn):
        return None
    found = model.fact(ModuleDicts).across(target, _module_dict_array, base.id, entry.slice.value)
    return entry if found else None


def _item_of_a_listed_entry(target: ast.Subscript, base: ast.Name, model) -> bool:
    """`state["combs"][i] = v` (an item of an entry of a dict pytree, nothing deeper) where the module builds that
    entry only as a Python list (ModuleDicts.listed_key: jaxdsp's `init_state()` returns `{"combs": [init(n) for n in
    sizes], ...}`): under jit a pytree's lists stay lists, so the write stores a list item, not into an array.
    The answer reads the whole module (Fact.across)."""
    entry = target.value
    if not (isinstance(entry, ast.Subscript) and entry.value is base and isinstance(entry.slice, ast.Constant)
            and isinstance(entry.slice.value, str)):
        return False
    return model.fact(ModuleDicts).across(target, _listed_key, entry.slice.value)


def _listed_key(model, key: str) -> bool:
    return model.fact(ModuleDicts).listed_key(key)


def _is_list(value: ast.AST) -> bool:
    """A Python list display, comprehension, `list(...)`, or `[...] * n`."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        return _is_list(value.left) or _is_list(value.right)
    return isinstance(value, (ast.List, ast.ListComp)) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list")


def _module_dict_array(model, name: str, key: str) -> bool:
    return model.fact(ModuleDicts).array_entry(name, key)


# dict methods that read a dict without changing it
_DICT_READS = frozenset({"get", "keys", "values", "items", "copy", "__contains__", "__getitem__"})


class ModuleDicts(Fact):
    """The entries of a module-level dict that surely hold JAX arrays: `BUFFERS = {"x": jnp.zeros((4, 3))}` bound
    once at module level (no other binding of the name anywhere, no `global` of it), the entry never stored but
    with a JAX array (`BUFFERS["x"] = jnp.ones(...)`), never deleted, and the dict never handed anywhere that
    could change it: every other read of the name is an item read (`BUFFERS[k]`), a reading method (`get`,
    `items`, ...) or a membership test. Reads every statement of the module."""

    def listed_key(self, key: str) -> bool:
        """Whether the module builds the dict entry `key` at least once and only ever as a Python list: every dict
        display with that key (`{"combs": [...]}`), every store `d["combs"] = ...` and every keyword `combs=` of
        a call (`dict(combs=[...])`) gives a list (see `_is_list`)."""
        scopes = self.scopes
        built = 0
        for d in scopes.nodes(ast.Dict):
            assert isinstance(d, ast.Dict)
            for k, v in zip(d.keys, d.values, strict=True):
                if isinstance(k, ast.Constant) and k.value == key:
                    if not _is_list(v):
                        return False
                    built += 1
        for sub in scopes.nodes(ast.Subscript):
            assert isinstance(sub, ast.Subscript)
            if isinstance(sub.ctx, ast.Load) or not (isinstance(sub.slice, ast.Constant) and sub.slice.value == key):
                continue
            holder = scopes.parents.get(sub)
            if not (isinstance(holder, ast.Assign) and holder.targets == [sub] and _is_list(holder.value)):
                return False
            built += 1
        for kw in scopes.nodes(ast.keyword):
            if isinstance(kw, ast.keyword) and kw.arg == key:
                if not _is_list(kw.value):
                    return False
                built += 1
        return built > 0

    def array_entry(self, name: str, key: str) -> bool:
        scopes, kinds = self.scopes, self.kinds
        if any(name in g.names for g in scopes.nodes(ast.Global)):  # type: ignore[attr-defined]
            return False
        binding: ast.Assign | None = None
        for n in scopes.nodes(ast.Name):
            assert isinstance(n, ast.Name)
            if n.id != name:
                continue
            scope = scopes.enclosing_function(n)
            if scope is not None and scopes.is_local(name, scope):
                continue  # another variable of the same name
            parent = scopes.parents.get(n)
            if not isinstance(n.ctx, ast.Load):
                if binding is not None or scope is not None or not (
                        isinstance(parent, ast.Assign) and parent.targets == [n] and isinstance(parent.value, ast.Dict)
                        and parent in scopes.tree.body):
                    return False
                binding = parent
                continue
            if isinstance(parent, ast.Subscript) and parent.value is n:
                if isinstance(parent.ctx, ast.Del):
                    return False
                if isinstance(parent.ctx, ast.Store):
                    if not (isinstance(parent.slice, ast.Constant) and isinstance(parent.slice.value, str)):
                        return False
                    holder = scopes.parents.get(parent)
                    if parent.slice.value == key and not (
                            isinstance(holder, ast.Assign) and holder.targets == [parent]
                            and kinds.kind_of(holder.value, scope) in ARRAYS):
                        return False
                continue
            if isinstance(parent, ast.Attribute) and parent.attr in _DICT_READS and isinstance(
                    scopes.parents.get(parent), ast.Call):
                continue
            if isinstance(parent, ast.Compare) and n is not parent.left and all(
                    isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops):
                continue
            return False
        if binding is None:
            return False
        assert isinstance(binding.value, ast.Dict)
        values = [v for k, v in zip(binding.value.keys, binding.value.values, strict=True)
                  if k is None or (isinstance(k, ast.Constant) and k.value == key)]
        if len(values) != 1 or any(k is None for k in binding.value.keys):
            return False
        return kinds.kind_of(values[0], None) in ARRAYS


def _dict_key(index: ast.AST, stmt: ast.stmt, model) -> bool:
    """The index is a name bound by the loop around the statement over a mapping's keys (`for key in d.keys()`,
    `for key, value in d.items()`): what it indexes is a mapping, since an array takes no such key."""
    if not isinstance(index, ast.Name):
        return False
    cur = model.scopes.parents.get(stmt)
    while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
        if isinstance(cur, (ast.For, ast.AsyncFor)):
            target = cur.target.elts[0] if isinstance(cur.target, ast.Tuple) and cur.target.elts else cur.target
            if isinstance(target, ast.Name) and target.id == index.id:
                it = cur.iter
                return (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args
                        and it.func.attr in ("keys", "items") and (it.func.attr == "keys" or cur.target is not target))
        cur = model.scopes.parents.get(cur)
    return False


def _string_valued(index: ast.AST, fn, model, depth: int = 0) -> bool:
    """Whether an index is surely a `str`: a string literal, an f-string, a `+` with a string operand, or a name
    of the function every binding of which is one of those (`_sk = "slide_" + name`). No array takes one."""
    if isinstance(index, ast.Constant):
        return isinstance(index.value, str)
    if isinstance(index, ast.JoinedStr):
        return True
    if isinstance(index, ast.BinOp) and isinstance(index.op, ast.Add):
        return _string_valued(index.left, fn, model, depth) or _string_valued(index.right, fn, model, depth)
    if isinstance(index, ast.Name) and fn is not None and depth < 3 and index.id not in fn.params:
        bound = [n for n in model.scopes.own_nodes(fn) if isinstance(n, ast.Name) and n.id == index.id
                 and not isinstance(n.ctx, ast.Load)]
        values = [model.scopes.parents.get(n) for n in bound]
        return bool(values) and all(
            isinstance(v, ast.Assign) and len(v.targets) == 1 and v.targets[0] is n
            and _string_valued(v.value, fn, model, depth + 1) for n, v in zip(bound, values, strict=True))
    return False


# the memory spaces of Pallas (TPU's VMEM and SMEM, HBM, scratch buffers), which kernels name their references by
# (`dy_vmem`, `acc_scratch`, `x_hbm`: round 37's e3j, whose kernel helpers annotate them `jax.Array`)
_MEMORY_SPACE_SUFFIXES = ("_vmem", "_smem", "_hbm", "_scratch")


def _pallas_ref_name(name: str, model: ModuleModel) -> bool:
    """`o_ref`, `scratch_refs`, `ref`, `dy_vmem` in a module that imports Pallas: by the convention of every Pallas
    kernel (JAX's own included), a reference the kernel or its helpers store into, whatever the annotation says
    (`acc_ref: jax.Array` is common: `pallas_call` hands a Ref)."""
    return (name == "ref" or name.endswith(("_ref", "_refs", *_MEMORY_SPACE_SUFFIXES))) and any(
        q.startswith("jax.experimental.pallas") for q in model.scopes.aliases.values())


def _held_attribute(target: ast.Subscript) -> ast.Attribute | None:
    """`self.w` of `self.w[0] = v`, `buf.obs` of `buf.obs[i] = v`: an attribute of a name, whose kind tells
    (`self.w` stored a JAX array; `obs: jnp.ndarray` declared by the record class `buf` holds)."""
    value: ast.AST = target.value
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
        return value
    return None


def _array_leaf_of_pytree_param(target: ast.Subscript, base: ast.Name, model) -> bool:
    """`params["w"][0] = v` in a traced function: a dict parameter's leaves are JAX arrays. Not `state["n"][...]
    = v`: writing through `[...]` is how a mutable reference (`jax.new_ref`) is written, and a leaf may be one."""
    if isinstance(target.slice, ast.Constant) and target.slice.value is Ellipsis:
        return False
    fn = model.scopes.enclosing_function(target)
    if fn is None or not fn.traced or base.id not in fn.params or base.id in fn.static_params:
        return False
    chain = []
    node: ast.AST = target
    while isinstance(node, ast.Subscript):
        chain.append(node.slice)
        node = node.value
    chain.reverse()  # from the base outwards
    is_key = lambda s: isinstance(s, ast.Constant) and isinstance(s.value, str)  # noqa: E731
    return len(chain) >= 2 and is_key(chain[0]) and not is_key(chain[-1])


# jax.numpy functions that return a Python list of arrays (checked on jax 0.10.2): storing into the list is no
# in-place update of an array (storing into one of its items, `parts[0][0] = v`, still is)
_LIST_RETURNING = {"jax.numpy.split", "jax.numpy.array_split", "jax.numpy.hsplit", "jax.numpy.vsplit",
                   "jax.numpy.dsplit", "jax.numpy.meshgrid", "jax.numpy.broadcast_arrays"}


def _list_of_arrays(base: ast.Name, fn, model, stores: dict[int, dict[str, list[ast.Name]]]) -> bool:
    """Every binding of the name in its scope is the list one of those functions returns. `stores`: each scope's
    bound names, collected once per check (a walk of the scope per write was quadratic: 4,000 writes on one
    module-level line took 30 s)."""
    bound = stores.get(id(fn))
    if bound is None:
        bound = stores[id(fn)] = {}
        for n in model.scopes.own_nodes(fn):
            if type(n) is ast.Name and type(n.ctx) is ast.Store:
                bound.setdefault(n.id, []).append(n)
    bindings = bound.get(base.id)
    if not bindings:
        return False
    for name in bindings:
        stmt = model.scopes.parents.get(name)
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and stmt.targets[0] is name
                and isinstance(stmt.value, ast.Call)
                and model.scopes.qualname(stmt.value.func, fn) in _LIST_RETURNING):
            return False
    return True


# methods a Python list or dict has and a JAX array has not (checked on jax 0.10.2: `jnp.zeros(3).pop` raises
# AttributeError; arrays do have `copy` and `sort`, so those say nothing)
_CONTAINER_ONLY_METHODS = frozenset({"pop", "append", "extend", "insert", "remove", "popitem", "setdefault",
                                     "update", "keys", "values", "items", "clear", "get"})


def _container_method_before(base: ast.Name, stmt: ast.stmt, model) -> bool:
    """`base.pop(k)` (or another method only lists and dicts have) called earlier in the same scope on the same
    binding (no statement rebinds `base` in between): the value is a Python container (a pytree of a traced
    function is a dict or list whose leaves are arrays), so `base[k] = v` stores an item. An array would have
    raised AttributeError at the method already."""
    fn = model.scopes.enclosing_function(stmt)
    where = (stmt.lineno, stmt.col_offset)
    calls: list[tuple[int, int]] = []
    stores: list[tuple[int, int]] = []
    for n in model.scopes.own_nodes(fn):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _CONTAINER_ONLY_METHODS
                and isinstance(n.func.value, ast.Name) and n.func.value.id == base.id):
            calls.append((n.lineno, n.col_offset))
        elif isinstance(n, ast.Name) and n.id == base.id and isinstance(n.ctx, ast.Store):
            stores.append((n.lineno, n.col_offset))
    return any(c < where and not any(c < s < where for s in stores) for c in calls)


def _base_name(target: ast.Subscript) -> tuple[ast.Name | None, bool]:
    value: ast.AST = target.value
    chained = False
    while isinstance(value, ast.Subscript):
        value, chained = value.value, True
    return (value if isinstance(value, ast.Name) else None), chained


def _method_for(node: ast.Assign | ast.AugAssign, aug: type | None, ctx: RuleContext) -> tuple[str, tuple[str, int] | None]:
    if aug is not None:
        return _AUG_METHOD.get(aug, "set"), None
    value = node.value
    if isinstance(value, ast.Call) and len(value.args) == 2 and not value.keywords and isinstance(node, ast.Assign):
        q = ctx.model.scopes.qualname(value.func, ctx.model.scopes.enclosing_function(node))
        if q in _MINMAX:
            target = ast.unparse(node.targets[0])
            for i, arg in enumerate(value.args):
                if ast.unparse(arg) == target:  # x[i] = jnp.minimum(x[i], v)
                    return _MINMAX[q], (_MINMAX[q], 1 - i)
    return "set", None


def _basic_index(index: ast.AST, ctx: RuleContext) -> bool:
    """Integers, slices and Python ints: an index that cannot name one element twice."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    for part in parts:
        if isinstance(part, ast.Slice) or (isinstance(part, ast.Constant) and part.value in (None, Ellipsis)):
            continue
        if isinstance(part, ast.Constant) and isinstance(part.value, int):
            continue
        if isinstance(part, ast.UnaryOp) and isinstance(part.operand, ast.Constant):
            continue
        if isinstance(part, ast.Name) and ctx.model.kinds.kind_at(part) is Kind.PYTHON:
            continue
        return False
    return True


def _fix_builder(ctx: RuleContext, node: ast.Assign | ast.AugAssign, name: str, fn: FunctionInfo | None,
                 minmax: tuple[str, int] | None):
    source = ctx.source
    line, end_line = node.lineno, node.end_lineno or node.lineno
    col = source.char_column(line, node.col_offset)
    end_col = source.char_column(end_line, node.end_col_offset or 0)
    target = node.targets[0] if isinstance(node, ast.Assign) else node.target
    accumulates = isinstance(node, ast.AugAssign)
    is_param = fn is not None and name in fn.params
    safe = not is_param and (not accumulates or _basic_index(target.slice, ctx))  # type: ignore[attr-defined]

    def build() -> Fix | None:
        from sharpbits.fixes.at_update import rewrite_statement

        new = rewrite_statement(source.segment(line, col, end_line, end_col), minmax)
        if new is None:
            return None
        edit = TextEdit(line, col + 1, end_line, end_col + 1, new)
        shown = new if "\n" not in new and len(new) <= 60 else f"{name} = {name}.at[...]..."
        return Fix(safe=safe, description=f"Use `{shown}`", edits=(edit,))

    return build


# the `.at[i]` methods that return an updated copy (`get` reads; a statement of it alone loses nothing)
_AT_UPDATES = frozenset({"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"})


def _discarded_at_update(node: ast.AST) -> bool:
    """`x.at[i].set(v)` (any update method) as a statement of its own."""
    call = node.value  # type: ignore[attr-defined]
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _AT_UPDATES
            and isinstance(call.func.value, ast.Subscript) and isinstance(call.func.value.value, ast.Attribute)
            and call.func.value.value.attr == "at")


def _assigns_a_subscript(node: ast.AST) -> bool:
    """`x[i] = v`, `x[i] += v`, `a, x[i] = ...`: an assignment with a subscript among its targets."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
    return any(isinstance(t, ast.Subscript) for target in targets
               for t in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]))
