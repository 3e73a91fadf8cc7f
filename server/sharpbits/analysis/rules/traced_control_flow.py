"""SB302 traced-control-flow: Python `if`/`while`/ternary/`and`/`or`/`not`/`bool()`/`assert` on a traced value."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from functools import partial

from sharpbits.analysis.kinds import CONTAINER_DISPLAYS, names_a_dtype
from sharpbits.analysis.model import ARRAYS, FunctionInfo, Kind, ModuleModel
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.rules.python_loop_in_jit import loop_rewrite
from sharpbits.analysis.syntax import parameter_defaults, walk_nodes
from sharpbits.analysis.tracers import TracerValues
from sharpbits.findings import Fix, TextEdit


def _cheap_pure(node: ast.AST) -> bool:
    """A name, a number, or arithmetic on them: evaluating it on both sides of a `jnp.where` costs nothing and
    changes nothing."""
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, complex)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _cheap_pure(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        return _cheap_pure(node.left) and _cheap_pure(node.right)
    return False


def _may_promote(body: ast.AST, orelse: ast.AST) -> bool:
    """Whether `jnp.where(c, body, orelse)` may have another dtype than the branch the ternary takes: a float (or
    complex) literal on one side only, with an array of unknown dtype on either (a Python float promotes an int
    array to float; an int literal keeps an int or float array's dtype)."""
    def inexact(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Constant) and isinstance(n.value, (float, complex)) for n in walk_nodes(node))

    def names(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Name) for n in walk_nodes(node))

    return (names(body) or names(orelse)) and inexact(body) != inexact(orelse)


# jax.numpy / jax.nn / jax.lax functions that act element by element: their result has the broadcast shape of their
# (positional) arguments, as the arithmetic operators do.
_ELEMENTWISE = frozenset({
    *(f"jax.numpy.{n}" for n in (
        "abs", "absolute", "negative", "positive", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sqrt",
        "cbrt", "square", "reciprocal", "sign", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh",
        "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "floor", "ceil", "round", "trunc", "rint", "maximum",
        "minimum", "add", "subtract", "multiply", "divide", "true_divide", "power", "float_power", "logaddexp",
        "real", "imag", "conj", "conjugate", "deg2rad", "rad2deg", "hypot", "copysign", "sinc")),
    *(f"jax.nn.{n}" for n in ("relu", "relu6", "sigmoid", "softplus", "silu", "swish", "gelu", "elu", "selu",
                              "celu", "leaky_relu", "log_sigmoid", "hard_tanh", "soft_sign")),
    *(f"jax.lax.{n}" for n in ("exp", "log", "sqrt", "rsqrt", "abs", "neg", "tanh", "logistic", "log1p", "expm1")),
})
_ELEMENTWISE_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


def _elementwise_names(node: ast.AST, model: ModuleModel, fn: FunctionInfo) -> frozenset[str] | None:
    """The arrays (names) an expression combines element by element, so that its shape is their broadcast shape;
    empty for a Python number. None when the shape is not shown that way: a subscript or slice (`x[:n]`, `x[i]`),
    an attribute (`x.T`, `self.w`), a reshaping or reducing call, a call of unknown shape, a keyword argument."""
    if isinstance(node, ast.Constant):
        ok = isinstance(node.value, (int, float, complex)) and not isinstance(node.value, bool)
        return frozenset() if ok else None
    if isinstance(node, ast.Name):
        kind = model.kinds.kind_of(node, fn)
        if kind in ARRAYS:
            return frozenset({node.id})
        return frozenset() if kind is Kind.PYTHON else None  # a Python number broadcasts without changing a value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _elementwise_names(node.operand, model, fn)
    if isinstance(node, ast.BinOp) and isinstance(node.op, _ELEMENTWISE_OPS):
        left, right = _elementwise_names(node.left, model, fn), _elementwise_names(node.right, model, fn)
        return None if left is None or right is None else left | right
    if (isinstance(node, ast.Call) and not node.keywords and node.args
            and model.scopes.qualname(node.func, fn) in _ELEMENTWISE):
        parts = [_elementwise_names(a, model, fn) for a in node.args]
        if any(p is None or isinstance(a, ast.Starred) for p, a in zip(parts, node.args, strict=True)):
            return None
        return frozenset().union(*parts)  # type: ignore[arg-type]
    return None


def _same_shape(body: ast.AST, orelse: ast.AST, model: ModuleModel, fn: FunctionInfo) -> bool:
    """Whether `jnp.where(c, body, orelse)` has the shape of the branch the ternary takes: both branches combine
    the same arrays element by element (their shape is those arrays' broadcast shape), or one branch is a Python
    number (jnp.where broadcasts it without changing its value). `data[:T - tau] if tau > 0 else data` is no
    such pair: the branches differ in shape, and jnp.where would fail or broadcast one into something else."""
    a, b = _elementwise_names(body, model, fn), _elementwise_names(orelse, model, fn)
    return a is not None and b is not None and (a == b or not a or not b)


def _static_candidate(model: ModuleModel, fn: FunctionInfo, leaf: ast.AST) -> str | None:
    """A parameter of a jitted function the condition reads directly (`if n > 0`, `if flag`): making it static
    is the usual fix."""
    if not any(t.transform in ("jax.jit", "jax.pmap", "flax.nnx.jit") for t in fn.traces):
        return None
    names = [n.id for n in walk_nodes(leaf) if isinstance(n, ast.Name) and n.id in fn.params]
    arrays = [n for n in names if n not in fn.static_params]
    return arrays[0] if len(set(arrays)) == 1 else None


def _conditions(model: ModuleModel, fn: FunctionInfo) -> list[ast.AST]:
    """The nodes of a function's own body that may turn a value into a bool: `if`/`while`/ternary/`assert`,
    comprehension filters, `bool(...)`, `and`/`or`/`not` (in body order). (By exact type: the parser makes no
    subclass of a node class, and a set look-up is cheaper than isinstance of six classes for every node.)"""
    out: list[ast.AST] = []
    UnaryOp, Not, Call, Name = ast.UnaryOp, ast.Not, ast.Call, ast.Name
    for node in model.scopes.own_nodes(fn):
        cls = type(node)
        if cls in _CONDITION_TYPES or (cls is UnaryOp and type(node.op) is Not) or (  # type: ignore[attr-defined]
                cls is Call and type(node.func) is Name and node.func.id == "bool"):  # type: ignore[attr-defined]
            out.append(node)
    return out


_CONDITION_TYPES = frozenset({ast.If, ast.While, ast.IfExp, ast.Assert, ast.comprehension, ast.BoolOp})


def _refusing_guard(fn: FunctionInfo, node: ast.If, traced: list[ast.AST]) -> bool:
    """`if p: raise ...` (no `else`): every traced part of the test is the bare truth of a parameter that defaults
    to None, and the body always raises. The function refuses the argument: called without it, the test is
    False at trace time; called with an array, it raises whichever way (TracerBoolConversionError under a
    trace, the `raise` eagerly), so no call that works is broken."""
    if node.orelse or not node.body or not isinstance(node.body[-1], ast.Raise) or not traced or isinstance(
            fn.node, ast.Lambda):
        return False
    a = fn.node.args
    defaults = parameter_defaults(a)
    # Not reported, not even as info: every call that works (without the argument) keeps working, one that
    # passes an array fails either way, and only the exception's type would change.
    return all(isinstance(t, ast.Name) and isinstance(defaults.get(t.id), ast.Constant)
               and defaults[t.id].value is None for t in traced)  # type: ignore[attr-defined]


def _empty_or_default(node: ast.AST) -> bool:
    """`nuisances or None`, `extra or {}`: a name replaced by None or an empty container when it is empty. The
    idiom asks a container (a dict of arrays, a list) whether it is empty, which Python answers from its length
    under any trace, and an array it would be asked of raises even outside one (round 37: `per_step or None` in
    spark-snn and `nuisances or None` in a vmapped function of hnoca, both given dicts)."""
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2
            and isinstance(node.values[0], ast.Name)):
        return False
    default = node.values[1]
    if isinstance(default, ast.Constant):
        return default.value is None
    if isinstance(default, (ast.Dict, ast.List, ast.Tuple)):
        return not (default.keys if isinstance(default, ast.Dict) else default.elts)
    return (isinstance(default, ast.Call) and isinstance(default.func, ast.Name) and default.func.id in ("dict", "list")
            and not default.args and not default.keywords)


def _passed_container(model: ModuleModel, fn: FunctionInfo, leaf: ast.AST) -> bool:
    """`if parents:` on a parameter the function never rebinds, when every value the module passes there (at calls
    of the function by name, and its default) is a Python container: a tuple, list, dict or set display or
    comprehension, a call of the builtin `tuple`/`list`/`dict`/`set`, or a name bound once to one. jit traces the
    leaves of a pytree argument and hands the function the same container of tracers, so its truth is its length,
    known at trace time (checked on jax 0.10.2; mbi's `parent_arrays = tuple(...)`, round 39)."""
    if not isinstance(leaf, ast.Name) or leaf.id not in fn.params or any(
            isinstance(n, ast.Name) and n.id == leaf.id and not isinstance(n.ctx, ast.Load)
            for n in model.scopes.own_nodes(fn)):
        return False
    values = model.traced.argument_values(fn, leaf.id)
    return bool(values) and all(_container_value(model, v) for v in values)


def _container_value(model: ModuleModel, value: ast.AST) -> bool:
    scope = model.scopes.enclosing_function(value)
    if isinstance(value, ast.Name):
        bound = model.traced.bound_once(value.id, scope)
        if bound is None:
            return False
        value = bound
    if isinstance(value, CONTAINER_DISPLAYS):
        return True
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id in ("tuple", "list", "dict", "set") and value.func.id not in model.scopes.module_functions
            and not (scope is not None and model.scopes.is_local(value.func.id, scope)))


def _is_bool_part(node: ast.AST) -> bool:
    return isinstance(node, ast.BoolOp) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not))


class TracedControlFlow(Rule):
    code = "SB302"
    name = "traced-control-flow"
    severity = "error"
    trace_hazard = True
    raises_on_trace = True
    reuse = "function"  # findings per function, reused across edits elsewhere (analysis/rule_results.py)
    messages = {
        "while": (
            "`while` on a traced value {where} raises {error}; use `jax.lax.while_loop`{make_static}{note}"
        ),
        "if": (
            "`if` on a traced value {where} raises {error}; use `jax.lax.cond` (or `jnp.where` to choose between "
            "values){make_static}"
        ),
        "ifexp": (
            "conditional expression on a traced value {where} raises {error}; use `jnp.where(c, a, b)`{make_static}"
        ),
        "ifexp-shape": (
            "conditional expression on a traced value {where} raises {error}; its branches are not shown to have "
            "one shape, so no `jnp.where` rewrite is offered: mark the condition static{static_name}, or give both "
            "branches one shape (e.g. `jax.lax.dynamic_slice` with a fixed size) and use `jnp.where` or "
            "`jax.lax.cond`"
        ),
        "assert": (
            "`assert` on a traced value {where} raises {error}; check it outside the traced function, or use "
            "`jax.experimental.checkify.check`"
        ),
        "comprehension": (
            "comprehension `if` on a traced value {where} raises {error}; use `jnp.where`"
        ),
        "bool": (
            "`bool()` of a traced value {where} raises {error}; keep it as a boolean array"
        ),
        "boolop": (
            "{operator} on a traced value {where} raises {error}; use `{array_op}` (or `&`, `|`, `~`){make_static}"
        ),
        "error": (
            "TracerBoolConversionError: a traced value has no truth value at trace time"
        ),
        "dtype-not-static": (
            "`{name}` is annotated as a dtype but is not static {where}: jit cannot take a dtype argument (a call "
            "that passes one raises TypeError before tracing), so only its default ever arrives here; mark it "
            "static (`static_argnames=('{name}',)`)"
        ),
        "when-passed": (
            " whenever a caller passes `{name}` (jit traces it)"
        ),
        "make-static": (
            ", or mark `{name}` static (`static_argnames=('{name}',)`)"
        ),
        "pallas-when": (
            "; in a Pallas kernel, `@pl.when(...)` on a function that holds the branch"
        ),
    }
    summary = ("Flags Python `if`, `while`, ternaries, `and`/`or`/`not`, `bool()` and `assert` on a traced value "
               "inside jit, vmap, scan bodies and other abstractly traced code.")
    why = """
Under `jit` (and `vmap`, `pmap`, `lax.scan`/`cond`/`while_loop` bodies, `checkpoint`, `eval_shape`), a traced
argument is an abstract tracer: it has a shape and a dtype but no value. Python control flow needs a value, so
`if x > 0:` raises `TracerBoolConversionError` (and `int()`-like uses raise `ConcretizationTypeError`). The same
holds for `while`, `a if c else b`, `c and d`, `not c`, `bool(c)` and `assert c`.

Branching on what is known at trace time is fine and is not flagged: static arguments (`static_argnums`/
`static_argnames`), shapes (`x.shape`, `x.ndim`, `len(x)`, `x.dtype`), `x is None`, Python configuration values,
module-level (concrete) arrays, and values computed inside `with jax.ensure_compile_time_eval():`. A Python
default is not static, though: a flag of a jitted function (`training: bool = False`) is a Python value only when
the caller leaves it out; passed, jit traces it, so a test on it is reported "whenever a caller passes" it (not
when every jit of the function is a wrapper called in sight, `jax.jit(f)(x)` or a local `g = jax.jit(f)` only
called there, and no such call passes it: then every trace sees the default). A
guard that only refuses an optional argument (`if prefix: raise ...`, `prefix=None`) is not reported: an array
passed there raises either way. `jax.grad`
without `jit` runs on concrete values, so a Python `if` on its argument works there and is not flagged either.
A branch no trace takes is not flagged: in a helper that traced code calls by name (its name used nowhere but in
calls), an `if` (or ternary) whose test reads only parameters the helper never rebinds, when every traced call
passes a literal for them (or leaves a literal default) that decides the test the same way
(`energy(out, for_jit=True)` from every jitted caller never runs `if not for_jit:` under a trace).
A Pallas kernel (the function `pl.pallas_call` and its variants are given) is traced too, also with
`interpret=True`: what it reads from its refs and `pl.program_id(...)` are tracers; a ref's `.shape`, what
`functools.partial` binds and keyword-only parameters are Python values.
The value of an optax schedule (`lr = schedule(step)`, `schedule` bound to `optax.cosine_decay_schedule(...)` or
another `*_schedule`/`exponential_decay`) is computed with jax.numpy, so it is traced inside `jit` too; a
`constant_schedule` returns its value as given.

Values traced code receives are modelled through the libraries that make them: a field a record class declares
as an array, read from a traced state (`s.err` of a NamedTuple `while_loop` carry, `state.patience` of a flax struct
argument); the array field of an Equinox or NNX module that is an argument of the jitted function (not one the
function closes over, whose arrays are constants); what a Flax, Equinox or Haiku layer returns when called on an
array; the counters of an optax state after `opt.update` (`opt_state.mini_step`). A branch `if flag is True:` on a
traced flag is never taken while tracing (a tracer is not the object True): what it guards is not reported. Nor
is `if parents:` on a parameter the function never rebinds when every call of the module passes it a Python
container (a tuple, list or dict, built in sight or bound once to one): jit hands the function the same container
with tracers as leaves, and its truth is its length. A
function given to a transformation through `functools.partial(f, **params)` has parameters bound whose names the
code does not spell: none of its parameters is taken for traced.
"""
    example = """
import jax
import jax.numpy as jnp

@jax.jit
def safe_log(x):
    if x > 0:
        return jnp.log(x)
    return 0.0
"""
    use_instead = """
import jax
import jax.numpy as jnp

@jax.jit
def safe_log(x):
    return jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.0)), 0.0)
"""
    fix_safety = """
A ternary `a if c else b` with a traced `c` becomes `jnp.where(c, a, b)`, offered only when the result has the shape
of the branch the ternary takes: both branches combine the same arrays element by element (arithmetic, `jnp.log`,
`jnp.maximum`, ...), or one branch is a Python number, which `jnp.where` broadcasts without changing its value. A
slice (`data[:T - tau] if tau > 0 else data`), an index, a reshape, a reduction, an attribute, another array or a
call of unknown shape gets no rewrite: `jnp.where` would fail or broadcast one branch into something else, and the
message says to make the condition static or to give both branches one shape first. `jnp.where` also evaluates
both branches: the fix is **safe** only when both are names, numbers and `+`, `-`, `*` on them; with a call, a
division or a power it is **unsafe**, since the untaken side may give inf/nan, which `jnp.where` drops from the
value but not from the gradient (0 * inf is nan). It is unsafe too when a float literal stands on one side only
(`x if c else 0.0`): `jnp.where` promotes both sides to one dtype, so an int `x` would come back as floats. It is not offered when a branch is not an array or a number.
A `while` on a traced condition gets `python-loop-in-jit`'s rewrite to `lax.while_loop` where its carry provably
keeps its shape and dtype (unsafe, like that rule's other rewrites). `if` statements, `and`/`or`/`not`, `bool()`
and `assert` have no mechanical fix: the message names the alternative (`jax.lax.cond`, `jnp.where`,
`jnp.logical_and`, `checkify`, or marking an argument static).
"""
    VALID = [
        # `extras or None` asks a container (a dict of arrays) whether it is empty (round 37's spark-snn)
        "import jax\ndef chunk(state, held, per_step):\n    per_step = per_step or None\n"
        "    def step(carry, x):\n        return carry + held['signal'].sum(), carry\n"
        "    return jax.lax.scan(step, state, per_step, length=4)\ncompiled = jax.jit(chunk)\n",
        # a constant schedule returns its value as given: a Python float, decided at trace time
        "import jax\nimport optax\nschedule = optax.constant_schedule(1e-2)\n@jax.jit\n"
        "def step(w, g, count):\n    lr = schedule(count)\n    if lr < 1e-4:\n        g = g * 0\n"
        "    return w - lr * g\n",
        # a Pallas kernel: what `functools.partial` binds and keyword-only parameters are Python values,
        # a ref's shape is static, and `pl.num_programs` of a static grid is a Python int
        "import functools\nimport jax\nimport jax.numpy as jnp\nfrom jax.experimental import pallas as pl\n"
        "def kernel(x_ref, o_ref, *, block, flip=False):\n    if block > 4 and x_ref.shape[0] > 2 and pl.num_programs(0) > 1:\n"
        "        o_ref[...] = x_ref[...] * 2\n    if flip:\n        o_ref[...] = -x_ref[...]\n"
        "def run(x, block=8):\n    return pl.pallas_call(functools.partial(kernel, block=block), grid=(2,),\n"
        "        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)\n",
        # a custom_vjp's backward rule under jax.grad alone runs on values
        "import jax\n@jax.custom_vjp\ndef f(x):\n    return x\ndef f_fwd(x):\n    return x, x\n"
        "def f_bwd(x, g):\n    if x > 0:\n        return (g,)\n    return (-g,)\nf.defvjp(f_fwd, f_bwd)\n"
        "def slope(x):\n    return jax.grad(f)(x)\n",
        # a truth test that falls back to an empty container tests a container (or None), not an array
        # every call passes a tuple: jit hands the function a tuple of tracers, whose truth is its length
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, parents):\n    if parents:\n        x = x + parents[0]\n"
        "    return x\ndef g(x, cols):\n    parents = tuple(x[c] for c in cols)\n    return f(x, parents) + f(x, ())\n",
        "import jax\n@jax.jit\ndef f(x, params=None, extras=None):\n    params = params or {}\n"
        "    extras = extras if extras else []\n    return x * params.get('scale', 1.0) + len(extras)\n",
        # named_call only names a function's equations: its arguments are what the caller passed (Python values)
        "import jax\nfrom functools import partial\ndef block(x, size, dropout):\n    if dropout > 0 and size > 2:\n"
        "        x = x * 2\n    return x\n@partial(jax.jit, static_argnames='size')\ndef f(x, size):\n"
        "    return jax.named_call(block, name='block')(x, size, 0.0)\n",
        # a method jax.Array lacks shows an object pytree, whose static fields are Python values under jit
        "import jax\n@jax.jit\ndef f(model, x):\n    if model.floating_base():\n        x = x + 1\n    return x\n",
        # static arguments, shapes and `is None` are known at trace time
        "import jax\nfrom functools import partial\n@partial(jax.jit, static_argnames='training')\n"
        "def f(x, training, mask=None):\n    if training and x.ndim == 2 and mask is None:\n        x = x * 2\n"
        "    if len(x) > 3 or x.shape[0] > 3 or x.dtype == bool:\n        x = x + 1\n    return x\n",
        # jax.grad without jit runs on concrete values
        "import jax\ndef loss(x):\n    if x > 0:\n        return x ** 2\n    return -x\ng = jax.grad(loss)\nprint(g(1.0))\n",
        # a Python configuration value
        "import jax\nCONFIG = {'clip': True}\n@jax.jit\ndef f(x):\n    return x.clip(0) if CONFIG['clip'] else x\n",
        # inside ensure_compile_time_eval JAX computes concrete values
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    with jax.ensure_compile_time_eval():\n"
        "        n = jnp.array(3)\n        if n > 2:\n            x = x * 2\n    return x\n",
        # a module-level array is concrete
        "import jax\nimport jax.numpy as jnp\nW = jnp.ones(3)\n@jax.jit\ndef f(x):\n    if W.sum() > 0:\n"
        "        return x\n    return -x\n",
        # eager code, and jnp.where / lax.cond
        "import jax\nimport jax.numpy as jnp\ndef g(x):\n    return 1.0 if x > 0 else 0.0\n@jax.jit\n"
        "def f(x):\n    y = jnp.where(x > 0, x, 0.0)\n    return jax.lax.cond(y.sum() > 0, lambda v: v, lambda v: -v, y)\n",
        # vmap passes in_axes=None arguments through unbatched (here a Python int: recursion on the rank)
        "import jax\nimport jax.numpy as jnp\ndef diag(v, axes):\n    if axes == 0:\n        return jnp.diag(v)\n"
        "    return jax.vmap(diag, in_axes=(0, None))(v, axes - 1)\n",
        # a flag bound by functools.partial before the transformation is a Python value
        "import functools\nimport jax\ndef foo(x, y, flag):\n    return x * 2 + y if flag else x + y\n"
        "foo_p = functools.partial(foo, flag=True)\nout = jax.pmap(foo_p)\ng = jax.vmap(foo)\n",
        # equinox.filter_jit traces arrays only: a Python flag stays static
        "import equinox as eqx\n@eqx.filter_jit\ndef f(x, training):\n    if training:\n        x = x * 2\n    return x\n",
        # pmap spells static arguments static_broadcasted_argnums
        "import jax\ndef f(x, training):\n    if training:\n        x = x * 0.5\n    return x\n"
        "g = jax.pmap(f, static_broadcasted_argnums=(1,))\n",
        # custom_vjp's nondiff_argnums (also a range) are Python values, and so is what a helper receives from them
        "import functools\nimport jax\ndef impl(x, causal):\n    if causal:\n        x = x * 2\n    return x\n"
        "@functools.partial(jax.custom_vjp, nondiff_argnums=range(1, 2))\ndef attn(x, causal):\n    return impl(x, causal)\n"
        "@functools.partial(jax.jit, static_argnames='causal')\ndef api(x, causal):\n    return attn(x, causal)\n",
        # a parameter with a Python default that is static, or that a filtered jit leaves static, stays a Python value
        "import jax\nfrom functools import partial\n@partial(jax.jit, static_argnames='scale')\ndef f(x, scale=1.0):\n"
        "    if scale:\n        x = x * scale\n    return x\n",
        "import equinox as eqx\n@eqx.filter_jit\ndef f(x, scale=1.0):\n    if scale:\n        x = x * scale\n    return x\n",
        # jitted only by local wrappers whose calls are all in sight and leave the flag out (booz-xform-jax)
        "import jax\ndef f(x, scale=1.0):\n    if scale:\n        x = x * scale\n    return x\n"
        "def run(x, jit=True):\n    fn = f\n    if jit:\n        fn = jax.jit(f)\n    return fn(x) + jax.jit(f)(x)\n",
        # rebound before the test: what it is then follows from the body
        "import jax\n@jax.jit\ndef f(x, n=2):\n    n = x.shape[0]\n    if n > 1:\n        x = x * n\n    return x\n",
        # a guard that only refuses an optional argument: called without it the test is False at trace time, and
        # an array passed there raises either way (maxtext's `prefill`)
        "import jax\n@jax.jit\ndef prefill(params, tokens, existing_prefix=None):\n    if existing_prefix:\n"
        "        raise ValueError('no prefix support')\n    return params * tokens\n",
        # an accumulator of leaf sizes is a Python int; the sum of squared leaves is only used on device
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(grads):\n    total, count = 0.0, 0\n"
        "    for g in jax.tree_util.tree_leaves(grads):\n        total += jnp.sum(g * g)\n        count += g.size\n"
        "    if count > 4:\n        grads = jax.tree_util.tree_map(lambda g: g / jnp.sqrt(total), grads)\n    return grads\n",
        # `x != None` on a JAX array is a Python bool (its __ne__ gives NotImplemented for None: identity)
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, table=None):\n"
        "    t = table if table != None else jnp.zeros(3)\n    if x == None:\n        return t\n    return x + t\n",
        # a parameter annotated `Provider | None` is None or an object: `or` only tells which (torax)
        "import jax\nclass Provider:\n    scale = 2.0\nDEFAULT = Provider()\n@jax.jit\n"
        "def f(x, overrides: Provider | None = None):\n    p = overrides or DEFAULT\n    return x * p.scale\n",
    ]
    INVALID = [
        Invalid(  # an optax schedule's value inside jit is an array computed from the traced step
            "import jax\nimport optax\nschedule = optax.cosine_decay_schedule(1e-2, 100)\n@jax.jit\n"
            "def step(w, g, count):\n    lr = schedule(count)\n    if lr < 1e-4:\n        g = g * 0\n"
            "    return w - lr * g\n"),
        Invalid(  # a Pallas kernel is traced (also with interpret=True): its grid position and what it reads from a
            # ref are tracers (jax 0.10.2: TracerBoolConversionError)
            "import functools\nimport jax\nimport jax.numpy as jnp\nfrom jax.experimental import pallas as pl\n"
            "def kernel(x_ref, o_ref, *, block):\n    if pl.program_id(0) == 0:\n        o_ref[...] = x_ref[...]\n"
            "    if x_ref[...].sum() > 0:\n        o_ref[...] = x_ref[...] * block\n"
            "def run(x, block=8):\n    return pl.pallas_call(functools.partial(kernel, block=block), grid=(2,),\n"
            "        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)\n",
            count=2,
        ),
        Invalid(  # the loss that value_and_grad returns inside jit is traced
            "import jax\nimport jax.numpy as jnp\ndef loss_fn(w, x):\n    return jnp.sum(x @ w)\n@jax.jit\n"
            "def step(w, x):\n    loss, grads = jax.value_and_grad(loss_fn)(w, x)\n    if loss > 0:\n"
            "        grads = grads * 0.5\n    return w - grads\n",
        ),
        Invalid(  # the tuple's length is known, but the other part of the test is traced
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, parents):\n    if parents and x.sum() > 0:\n"
            "        return x\n    return -x\ndef g(x):\n    return f(x, (jnp.ones(2),))\n"),
        Invalid(
            "import jax\n@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n",
        ),
        Invalid(  # a Python default does not make a parameter static: a caller that passes `scale` hands jit a tracer
            "import jax\n@jax.jit\ndef f(x, scale=1.0, training=False):\n    if scale and not training:\n"
            "        x = x * scale\n    return x\n",
        ),
        Invalid(  # ... and when a local wrapper's call passes it, jit traces it
            "import jax\ndef f(x, scale=1.0):\n    if scale:\n        x = x * scale\n    return x\n"
            "def run(x):\n    fn = jax.jit(f)\n    return fn(x, scale=2.0)\n",
        ),
        Invalid(  # an accumulator folded from arrays over a loop is an array after it
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(grads):\n    total = 0.0\n"
            "    for g in jax.tree_util.tree_leaves(grads):\n        total += jnp.sum(g * g)\n    if total > 1.0:\n"
            "        grads = jax.tree_util.tree_map(lambda g: g / jnp.sqrt(total), grads)\n    return grads\n",
        ),
        Invalid(  # sum() of arrays made by JAX functions is an array
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(grads):\n"
            "    norm = sum(jnp.sum(g ** 2) for g in jax.tree_util.tree_leaves(grads))\n    if norm > 1.0:\n"
            "        return grads\n    return grads\n",
        ),
        Invalid(  # a dtype parameter jit cannot take (TypeError at the call): named as such, mark it static
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, out_dtype: jnp.dtype | None = None):\n"
            "    out_dtype = out_dtype or x.dtype\n    return x.astype(out_dtype)\n",
        ),
        Invalid(  # a guard that raises on an array the caller must pass: TracerBoolConversionError on every call
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    if jnp.any(x < 0):\n"
            "        raise ValueError('negative')\n    return jnp.sqrt(x)\n",
        ),
        Invalid(  # a while on a traced condition: one finding, with the lax.while_loop rewrite
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    y = jnp.ones(3)\n    while y.sum() < x:\n"
            "        y = y * 2.0\n    return y\n",
            fixed="import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    y = jnp.ones(3)\n    def loop_cond(y):\n"
            "        return y.sum() < x\n\n    def loop_body(y):\n        y = y * 2.0\n        return y\n\n"
            "    y = jax.lax.while_loop(loop_cond, loop_body, y)\n    return y\n",
        ),
        Invalid(  # a while whose carry cannot be shown stable: reported, no rewrite
            "import jax\n@jax.jit\ndef f(x):\n    while x.sum() > 1:\n        x = x / 2\n    return x\n",
        ),
        Invalid(  # a ternary on a traced mask with cheap branches: jnp.where, safe
            "import jax\nimport jax.numpy as jnp\n@jax.vmap\ndef f(x):\n    return x if x > 0 else 0.0\n",
            fixed="import jax\nimport jax.numpy as jnp\n@jax.vmap\ndef f(x):\n    return jnp.where(x > 0, x, 0.0)\n",
        ),
        Invalid(  # a ternary with a call in a branch: the rewrite evaluates both, so it is unsafe (still applied)
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    return jnp.log(x) if x.min() > 0 else x\n",
            fixed="import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    return jnp.where(x.min() > 0, jnp.log(x), x)\n",
        ),
        Invalid(  # branches of different shapes (a traced slice, jax-pcmci's parcorr): jnp.where cannot stand in
            "import jax\ndef corr(data):\n    T = data.shape[0]\n    @jax.jit\n    def at_lag(tau):\n"
            "        return data[: T - tau, :] if tau > 0 else data\n    return at_lag\n",
        ),
        Invalid(  # a reshape, another array, a reduction: the shapes are not shown equal, no rewrite
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, y):\n    a = x.reshape(-1) if x.sum() > 0 else x\n"
            "    b = x if x.sum() > 0 else y\n    c = jnp.sum(x) if x.sum() > 0 else x\n    d = x[0] if x.sum() > 0 else x\n"
            "    return a, b, c, d\n",
            count=4,
        ),
        Invalid(  # the same arrays element by element, and a number broadcast: one shape, safe
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, s):\n    return x * 2 + 1 if s > 0 else -x, x if s > 0 else 1\n",
            fixed="import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, s):\n"
            "    return jnp.where(s > 0, x * 2 + 1, -x), jnp.where(s > 0, x, 1)\n",
            count=2,
        ),
        Invalid(  # a division evaluated on the untaken side too: same values, but a nan gradient there (unsafe)
            "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, y):\n    return x / y if y.min() > 0 else x * y\n",
            fixed="import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, y):\n    return jnp.where(y.min() > 0, x / y, x * y)\n",
        ),
        Invalid(  # and / not / bool() / assert, in a scan body
            "import jax\nimport jax.numpy as jnp\ndef step(c, x):\n    ok = bool(x > 0)\n    assert not jnp.isnan(x)\n"
            "    y = c > 0 and x\n    return c + x, ok\nout = jax.lax.scan(step, 0.0, jnp.arange(3.0))\n",
            count=3,
        ),
        Invalid(  # a helper called from jit, branching on the array it is given
            "import jax\nimport jax.numpy as jnp\ndef clip(v):\n    if jnp.any(v > 1):\n        v = v / v.max()\n"
            "    return v\n@jax.jit\ndef f(x):\n    return clip(x * 2)\n",
        ),
        Invalid(  # jax.jit(jax.grad(f)): the function is traced abstractly after all
            "import jax\ndef loss(w):\n    if w > 0:\n        return w ** 2\n    return -w\ng = jax.jit(jax.grad(loss))\n",
        ),
        Invalid(  # ... and so it is when jax.grad(f) is called inside a jitted function
            "import jax\ndef loss(w):\n    if w > 0:\n        return w ** 2\n    return -w\n"
            "@jax.jit\ndef step(w):\n    return w - 0.1 * jax.grad(loss)(w)\n",
        ),
        Invalid(  # a custom_vjp's backward rule, differentiated under jit
            "import jax\n@jax.custom_vjp\ndef f(x):\n    return x\ndef f_fwd(x):\n    return x, x\n"
            "def f_bwd(x, g):\n    if x > 0:\n        return (g,)\n    return (-g,)\nf.defvjp(f_fwd, f_bwd)\n"
            "@jax.jit\ndef slope(x):\n    return jax.grad(f)(x)\n",
        ),
        Invalid(  # an eager shard_map body: print shows its blocks, but `if` on them raises (jax 0.10.2)
            "import jax\nimport jax.numpy as jnp\nfrom jax.sharding import PartitionSpec as P\ndef body(x):\n"
            "    if jnp.any(x < 0):\n        x = -x\n    return x\n"
            "g = jax.shard_map(body, mesh=jax.sharding.Mesh(jax.devices()[:1], ('i',)), in_specs=P('i'), out_specs=P('i'))\n",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        for fn in model.traced.traced_functions():
            if not fn.abstract:
                continue
            for node in model.scopes.syntax_fact("conditions", fn.node, partial(_conditions, model, fn)):
                if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
                    self._condition(ctx, fn, node, node.test)
                elif isinstance(node, ast.comprehension):
                    for cond in node.ifs:
                        self._condition(ctx, fn, node, cond)
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool" and (
                        len(node.args) == 1 and not model.scopes.is_local("bool", fn)):
                    self._condition(ctx, fn, node, node.args[0])
                elif _is_bool_part(node) and not self._in_condition(model, node) and not _empty_or_default(node):
                    # `a and b` alone turns every operand but the last into a bool; `not a` turns `a`
                    operands = node.values[:-1] if isinstance(node, ast.BoolOp) else [node.operand]  # type: ignore[attr-defined]
                    self._condition(ctx, fn, node, node, operands)

    @staticmethod
    def _traced_when_passed(model: ModuleModel, fn: FunctionInfo, test: ast.AST | None,
                            operands: Sequence[ast.AST] | None) -> tuple[ast.AST | None, str]:
        """The first part of a condition that is traced whenever a caller passes a parameter jit traces but
        whose default is a Python number (`dropout > 0` with `dropout: float = 0.0`), and that parameter."""
        if not fn.abstract:
            return None, ""
        passed = model.kinds.defaulted_jit_params(fn)
        if not passed:
            return None, ""
        tracers = model.fact(TracerValues)
        for part in _bool_parts(model, test, operands):
            names = sorted({n.id for n in walk_nodes(part) if isinstance(n, ast.Name) and n.id in passed})
            if names and model.kinds.kind_when_passed(part, fn, passed) in ARRAYS and not (
                    tracers.in_caller_dependent_branch(part, fn) or tracers.in_compile_time_eval(part)
                    or tracers.in_concrete_only_branch(part, fn)):
                return part, names[0]
        return None, ""

    @staticmethod
    def _in_condition(model: ModuleModel, node: ast.AST) -> bool:
        """Whether an and/or/not is part of an outer one, or of a condition: reported there, once."""
        child, cur = node, model.scopes.parents.get(node)
        while cur is not None and _is_bool_part(cur):
            child, cur = cur, model.scopes.parents.get(cur)
        if child is not node:
            return True
        if isinstance(cur, (ast.If, ast.While, ast.Assert, ast.IfExp)):
            return child is cur.test
        if isinstance(cur, ast.comprehension):
            return child in cur.ifs
        return False

    def _condition(self, ctx: RuleContext, fn: FunctionInfo, node: ast.AST, test: ast.AST,
                   operands: Sequence[ast.AST] | None = None) -> None:
        model = ctx.model
        if model.scopes.catches_tracer_errors(node):
            return  # `try: if x > 0: ... except TypeError: ...`: the error is expected and handled
        if operands is None:
            leaf = model.fact(TracerValues).traced_condition(test, fn)
        else:
            leaves = [part for op in operands for part in model.fact(TracerValues).bool_operands(op)]
            leaf = next((p for p in leaves if model.fact(TracerValues).is_tracer(p, fn)), None)
        where = f"inside `{fn.name}` ({fn.trace_reason})"
        if leaf is not None and _passed_container(model, fn, leaf):
            # `if parents:` on a tuple of arrays asks its length, a Python truth test: another part may be traced
            tracers = model.fact(TracerValues)
            parts = [p for op in (operands if operands is not None else [test]) for p in tracers.bool_operands(op)]
            leaf = next((p for p in parts if tracers.is_tracer(p, fn) and not _passed_container(model, fn, p)), None)
            if leaf is None:
                return
        if leaf is None:
            leaf, passed = self._traced_when_passed(model, fn, test if operands is None else None, operands)
            if leaf is None:
                dtype = _dtype_parameter(model, fn, node, test if operands is None else None, operands)
                if dtype is not None:
                    ctx.report(node, self.message("dtype-not-static", name=dtype, where=where))
                return
            where += self.message("when-passed", name=passed)
        static = _static_candidate(model, fn, leaf)
        make_static = self.message("make-static", name=static) if static else ""
        error = self.message("error")
        builder, title = None, ""
        if isinstance(node, ast.While):
            builder, note = loop_rewrite(ctx, fn, node)
            title = "rewrite as `lax.while_loop`" if builder else ""
            message = self.message("while", where=where, error=error, make_static=make_static, note=note)
            ctx.report(node, message, builder, end_node=node.test, fix_title=title)
            return
        if isinstance(node, ast.If):
            tracers = model.fact(TracerValues)
            traced = [p for p in tracers.bool_operands(node.test) if tracers.is_tracer(p, fn)]
            if _refusing_guard(fn, node, traced):
                return  # the function refuses an optional argument: passing an array raises whichever way
            if model.traced.in_pallas_kernel(fn):
                make_static += self.message("pallas-when")
            message = self.message("if", where=where, error=error, make_static=make_static)
            ctx.report(node, message, end_node=node.test)
            return
        if isinstance(node, ast.IfExp):
            builder, title, shape_unknown = self._where_fix(ctx, fn, node)
            if shape_unknown:
                static_name = f" (`static_argnames=('{static}',)`)" if static else ""
                message = self.message("ifexp-shape", where=where, error=error, static_name=static_name)
            else:
                message = self.message("ifexp", where=where, error=error, make_static=make_static)
            ctx.report(node, message, builder, fix_title=title)
            return
        if isinstance(node, ast.Assert):
            message = self.message("assert", where=where, error=error)
            ctx.report(node, message, end_node=node.test)
            return
        if isinstance(node, ast.comprehension):
            message = self.message("comprehension", where=where, error=error)
            ctx.report(test, message)
            return
        if isinstance(node, ast.Call):
            message = self.message("bool", where=where, error=error)
            ctx.report(node, message)
            return
        spelled = "`not`" if isinstance(node, ast.UnaryOp) else f"`{'and' if isinstance(node.op, ast.And) else 'or'}`"  # type: ignore[attr-defined]
        array_op = {"`not`": "jnp.logical_not", "`and`": "jnp.logical_and", "`or`": "jnp.logical_or"}[spelled]
        message = self.message("boolop", operator=spelled, where=where, error=error, array_op=array_op,
                               make_static=make_static)
        ctx.report(node, message)

    def _where_fix(self, ctx: RuleContext, fn: FunctionInfo, node: ast.IfExp):
        """The `jnp.where(c, a, b)` rewrite of `a if c else b`, its title, and whether it was refused because the
        branches are not shown to have one shape."""
        model, source = ctx.model, ctx.source
        jnp = model.scopes.spelling_of("jax.numpy")
        if jnp is None:
            return None, "", False
        kinds = [model.kinds.kind_of(branch, fn) for branch in (node.body, node.orelse)]
        if any(kind not in ARRAYS | {Kind.PYTHON, Kind.NUMPY, Kind.UNKNOWN} for kind in kinds):
            return None, "", False  # a pytree, a key, a function: jnp.where would change what it is
        if not _same_shape(node.body, node.orelse, model, fn):
            # a slice, a reshape, another array, a value of unknown shape: jnp.where would fail or broadcast
            return None, "", True
        if any(kind not in ARRAYS and not (kind is Kind.PYTHON and _cheap_pure(branch))
               for kind, branch in zip(kinds, (node.body, node.orelse), strict=True)):
            return None, "", False  # a string, a tuple: jnp.where would change what it is
        # Safe only for names, numbers and +, -, * on them: jnp.where evaluates both branches, and the untaken
        # one of `jnp.log(x)`, `a / b`, `x ** 0.5` gives inf/nan; jnp.where drops that value, but its gradient
        # (0 * inf) is nan, so such a rewrite can change the program's gradients (unsafe).
        # Also the dtype: jnp.where promotes both branches to one. `x if c else 0.0` gives floats where x holds ints
        # (an int32 array above 2**24 loses digits), so a float literal opposite an array with none is unsafe.
        safe = _cheap_pure(node.body) and _cheap_pure(node.orelse) and not _may_promote(node.body, node.orelse)
        new = f"{jnp}.where({source.node_text(node.test)}, {source.node_text(node.body)}, {source.node_text(node.orelse)})"

        def build() -> Fix | None:
            return Fix(safe=safe, description=f"Use `{new[:60]}`", edits=(TextEdit.replacing(source, node, new),))

        return build, f"use `{jnp}.where(...)`", False


def _dtype_parameter(model: ModuleModel, fn: FunctionInfo, node: ast.AST, test: ast.AST | None,
                     operands: Sequence[ast.AST] | None) -> str | None:
    """A parameter of a function `jax.jit` traces directly, annotated as a dtype and not static, tested here before
    anything rebinds it (`output_dtype = output_dtype or x.dtype`): jit refuses a dtype argument at the call, so
    the test only ever sees the default, and the parameter is a defect of its own (ejkernel's cumsum kernels)."""
    direct = [t for t in fn.traces if not t.indirect]
    if not direct or any(t.transform != "jax.jit" or t.statics_unknown for t in direct) or isinstance(
            fn.node, ast.Lambda):
        return None
    params = {p.arg: p for p in fn.param_nodes}
    line = getattr(node, "lineno", 0)
    for part in _bool_parts(model, test, operands):
        if not (isinstance(part, ast.Name) and part.id in params and part.id not in fn.static_params
                and names_a_dtype(params[part.id].annotation)):
            continue
        if any(isinstance(n, ast.Name) and n.id == part.id and isinstance(n.ctx, ast.Store) and n.lineno < line
               for n in model.scopes.own_nodes(fn)):
            continue  # rebound before: no longer (only) the argument
        return part.id
    return None


def _bool_parts(model: ModuleModel, test: ast.AST | None, operands: Sequence[ast.AST] | None) -> list[ast.AST]:
    """The parts of a condition (or of the operands of `and`/`or`/`not`) whose truth Python asks."""
    tracers = model.fact(TracerValues)
    if test is not None:
        return list(tracers.bool_operands(test))
    return [part for op in operands or () for part in tracers.bool_operands(op)]
