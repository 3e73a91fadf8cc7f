"""SB402 print-in-jit: `print(...)` of a traced value inside traced code."""

from __future__ import annotations

import ast

from sharpbits.analysis.model import FunctionInfo, ModuleModel
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.tracers import TracerValues
from sharpbits.findings import Fix, TextEdit
from sharpbits.source import SourceText


class _NoFix(Exception):
    pass


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def debug_print_call(source: SourceText, call: ast.Call, debug: str) -> str:
    """`print(a, f"x={x:.3f}", sep=", ")` -> `jax.debug.print("{}, x={:.3f}", a, x)`: the same text, printed
    from the compiled program. Raises _NoFix where the output would differ (`end=`, `file=`, `*args`, a
    computed `sep`, a nested format spec)."""


    sep = " "
    for kw in call.keywords:
        if kw.arg == "sep" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str | type(None)):
            sep = " " if kw.value.value is None else kw.value.value
        elif kw.arg == "end" and isinstance(kw.value, ast.Constant) and kw.value.value in ("\n", None):
            pass  # jax.debug.print ends every line with a newline too
        elif kw.arg == "flush" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool):
            pass  # the callback writes when the computation runs; nothing is held back
        else:
            raise _NoFix(f"`{kw.arg or '**'}=` has no `jax.debug.print` equivalent")
    pieces: list[str] = []
    args: list[str] = []
    for arg in call.args:
        if isinstance(arg, ast.Starred):
            raise _NoFix("`*args` cannot be laid out as placeholders")
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            pieces.append(_escape(arg.value))
        elif isinstance(arg, ast.JoinedStr):
            piece = ""
            for part in arg.values:
                if isinstance(part, ast.Constant):
                    piece += _escape(str(part.value))
                    continue
                assert isinstance(part, ast.FormattedValue)
                spec = ""
                if part.format_spec is not None:
                    spec_parts = part.format_spec.values if isinstance(part.format_spec, ast.JoinedStr) else []
                    if not all(isinstance(p, ast.Constant) for p in spec_parts):
                        raise _NoFix("a format spec computed at run time")
                    spec = ":" + "".join(str(p.value) for p in spec_parts)  # type: ignore[attr-defined]
                conversion = f"!{chr(part.conversion)}" if part.conversion not in (-1, None) else ""
                piece += "{" + conversion + spec + "}"
                args.append(source.node_text(part.value))
            pieces.append(piece)
        else:
            pieces.append("{}")
            args.append(source.node_text(arg))
    fmt = _escape(sep).join(pieces)
    literal = repr(fmt)
    first_string = next((a for a in call.args if isinstance(a, ast.JoinedStr) or (
        isinstance(a, ast.Constant) and isinstance(a.value, str))), None)
    if first_string is not None and source.node_text(first_string).lstrip("rRfFuU").startswith('"') and not (
            "'" in fmt or '"' in fmt):
        literal = '"' + literal[1:-1] + '"'  # the quotes the call was written with
    return f"{debug}.print({literal}{''.join(', ' + a for a in args)})"


class PrintInJit(Rule):
    code = "SB402"
    name = "print-in-jit"
    severity = "warning"
    trace_hazard = True
    reuse = "function"  # findings per function, reused across edits elsewhere (analysis/rule_results.py)
    messages = {
        "print": (
            "`print` of `{value}` inside `{function}` ({reason}) shows a tracer, once, at trace time; use `jax.debug.print` with `{{}}`{note}"
        ),
    }
    summary = "Flags `print(...)` of a traced value inside jit, vmap, scan bodies and other abstractly traced code."
    why = """
Python's `print` runs while JAX traces the function, not when the compiled program runs. Inside `jit` it prints
something like `Traced<ShapedArray(float32[3])>with<DynamicJaxprTrace>` once, on the first call, and never again:
later calls hit the compilation cache and print nothing. `jax.debug.print` is staged into the program and prints
the actual values on every call (also inside `vmap`, `scan` and `while_loop` bodies).

Printing what is known at trace time (shapes, dtypes, static arguments, Python numbers) is fine and not flagged;
nor is printing in eager code or under `jax.grad` alone, which runs on concrete values.
A branch no trace takes is not flagged: in a helper that traced code calls by name (its name used nowhere but in
calls), an `if` (or ternary) whose test reads only parameters the helper never rebinds, when every traced call
passes a literal for them (or leaves a literal default) that decides the test the same way
(`energy(out, for_jit=True)` from every jitted caller never runs `if not for_jit:` under a trace).
A Pallas kernel (the function `pl.pallas_call` and its variants are given) is traced too, also with
`interpret=True`: what it reads from its refs and `pl.program_id(...)` are tracers; a ref's `.shape`, what
`functools.partial` binds and keyword-only parameters are Python values.
A decorator below `@jax.jit` is traced through its wrapper: what the wrapper prints of its arguments, or of what the
decorated function returns on them (`out = fn(*args); print(tag, out)`), is a tracer.
"""
    example = """
import jax

@jax.jit
def step(x):
    print("x =", x)
    return x * 2
"""
    use_instead = """
import jax

@jax.jit
def step(x):
    jax.debug.print("x = {}", x)
    return x * 2
"""
    fix_safety = """
The fix rewrites the call to `jax.debug.print` with `{}` placeholders: string literals become the format string
(braces escaped), every other argument a placeholder, f-string fields keep their conversion and format spec
(`f"{x:.3f}"` -> `"{:.3f}", x`), and `sep=` is kept by joining with it. It is **safe**: the same text is printed,
now on every call with the real values. It is not offered for `end=` other than a newline, `file=`, `*args`, a
computed `sep=`, or a format spec computed at run time, nor when the module does not import `jax`.
"""
    VALID = [
        # printing static facts in a Pallas kernel: a ref's shape, a bound Python value
        "import functools\nimport jax\nimport jax.numpy as jnp\nfrom jax.experimental import pallas as pl\n"
        "def kernel(x_ref, o_ref, *, block):\n    print(x_ref.shape, block)\n    o_ref[...] = x_ref[...]\n"
        "def run(x, block=8):\n    return pl.pallas_call(functools.partial(kernel, block=block), grid=(2,),\n"
        "        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)\n",
        # code that never runs: a branch a constant rules out, a type-checking block, a statement after `raise`
        "import jax\nfrom typing import TYPE_CHECKING\n@jax.jit\ndef f(x):\n    if False:\n        print(x)\n"
        "    if TYPE_CHECKING:\n        print(x)\n    if x.ndim > 3:\n        raise ValueError('rank')\n"
        "        print(x)\n    return x\n",
        # shard_map called eagerly runs its body per device on concrete blocks: print shows each shard's values
        "import jax\nfrom jax.sharding import PartitionSpec as P\ndef show(x):\n    print('block', x)\n    return x\n"
        "g = jax.shard_map(show, mesh=jax.sharding.Mesh(jax.devices()[:1], ('i',)), in_specs=P('i'), out_specs=P('i'))\n",
        # shapes, dtypes and static values are known at trace time
        "import jax\nfrom functools import partial\n@partial(jax.jit, static_argnums=1)\ndef f(x, n):\n"
        "    print('shape', x.shape, x.dtype, n, f'{x.ndim=}')\n    return x * n\n",
        # eager code, and grad without jit (runs on concrete values)
        "import jax\nimport jax.numpy as jnp\nx = jnp.ones(3)\nprint(x)\ndef loss(w):\n    print(w)\n    return w ** 2\n"
        "print(jax.grad(loss)(1.0))\n",
        # jax.debug.print already
        "import jax\n@jax.jit\ndef f(x):\n    jax.debug.print('x = {}', x)\n    return x\n",
        # a local function called print
        "import jax\n@jax.jit\ndef f(x):\n    def print(*a):\n        return a\n    print(x)\n    return x\n",
        # inside ensure_compile_time_eval values are concrete
        "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n    with jax.ensure_compile_time_eval():\n"
        "        c = jnp.arange(3)\n        print(c)\n    return x + c\n",
        # under `with jax.disable_jit():` a scan body runs eagerly and print shows values (brainpy's tests)
        "import jax\nimport jax.numpy as jnp\ndef body(c, x):\n    c = c + x\n    print(c)\n    return c, c\n"
        "with jax.disable_jit():\n    jax.lax.scan(body, 0, jnp.arange(3))\n",
    ]
    INVALID = [
        Invalid(  # a Pallas kernel is traced: `print` shows tracers once; the rewrite is unsafe there, as the
            # backend's lowering limits what `jax.debug.print` may print (scalars, or a single vector)
            "import functools\nimport jax\nimport jax.numpy as jnp\nfrom jax.experimental import pallas as pl\n"
            "def kernel(x_ref, o_ref, *, block):\n    x = x_ref[...]\n    print(x)\n    o_ref[...] = x\n"
            "def run(x, block=8):\n    return pl.pallas_call(functools.partial(kernel, block=block), grid=(2,),\n"
            "        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)\n",
            fixed="import functools\nimport jax\nimport jax.numpy as jnp\nfrom jax.experimental import pallas as pl\n"
            "def kernel(x_ref, o_ref, *, block):\n    x = x_ref[...]\n    jax.debug.print('{}', x)\n    o_ref[...] = x\n"
            "def run(x, block=8):\n    return pl.pallas_call(functools.partial(kernel, block=block), grid=(2,),\n"
            "        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)\n",
        ),
        Invalid(  # the loss that value_and_grad returns inside jit is traced
            "import jax\nimport jax.numpy as jnp\ndef loss_fn(w, x):\n    return jnp.sum(x @ w)\n@jax.jit\n"
            "def step(w, x):\n    loss, grads = jax.value_and_grad(loss_fn)(w, x)\n    print(loss)\n"
            "    return w - grads\n",
            fixed="import jax\nimport jax.numpy as jnp\ndef loss_fn(w, x):\n    return jnp.sum(x @ w)\n@jax.jit\n"
            "def step(w, x):\n    loss, grads = jax.value_and_grad(loss_fn)(w, x)\n    jax.debug.print('{}', loss)\n"
            "    return w - grads\n",
        ),
        Invalid(
            "import jax\n@jax.jit\ndef f(x):\n    print(\"x =\", x)\n    return x\n",
            fixed="import jax\n@jax.jit\ndef f(x):\n    jax.debug.print(\"x = {}\", x)\n    return x\n",
        ),
        Invalid(  # f-strings keep their format spec; sep is kept; braces in the text are escaped
            "import jax\nimport jax.numpy as jnp\n@jax.vmap\ndef f(x):\n    y = jnp.tanh(x)\n"
            "    print(f'{{y}}: {y:.3f} {x!r}', x.shape, sep=' | ')\n    return y\n",
            fixed="import jax\nimport jax.numpy as jnp\n@jax.vmap\ndef f(x):\n    y = jnp.tanh(x)\n"
            "    jax.debug.print('{{y}}: {:.3f} {!r} | {}', y, x, x.shape)\n    return y\n",
        ),
        Invalid(  # in a scan body, spelled through `from jax import lax`
            "import jax\nfrom jax import lax\nimport jax.numpy as jnp\ndef body(c, x):\n    print(c, x)\n"
            "    return c + x, c\nout = lax.scan(body, 0.0, jnp.arange(3.0))\n",
            fixed="import jax\nfrom jax import lax\nimport jax.numpy as jnp\ndef body(c, x):\n"
            "    jax.debug.print('{} {}', c, x)\n    return c + x, c\nout = lax.scan(body, 0.0, jnp.arange(3.0))\n",
        ),
        Invalid(  # end= other than a newline: reported, no fix
            "import jax\n@jax.jit\ndef f(x):\n    print(x, end='')\n    return x\n",
        ),
        Invalid(  # a decorator below @jax.jit: jit traces its wrapper, whose *args are the traced arguments
            "import jax\ndef log_calls(tag):\n    def deco(f):\n        def wrapper(*args):\n            print(tag, args)\n"
            "            return f(*args)\n        return wrapper\n    return deco\n@jax.jit\n@log_calls('step')\n"
            "def step(x):\n    return x * 2\n",
            fixed="import jax\ndef log_calls(tag):\n    def deco(f):\n        def wrapper(*args):\n"
            "            jax.debug.print('{} {}', tag, args)\n            return f(*args)\n        return wrapper\n"
            "    return deco\n@jax.jit\n@log_calls('step')\ndef step(x):\n    return x * 2\n",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        for fn in model.traced.traced_functions():
            if not fn.abstract or model.traced.shows_values(fn):
                continue  # (an eager shard_map body prints each block's values)
            for node in model.scopes.own_candidates("print calls", fn, _calls_print, calls=True):
                assert isinstance(node, ast.Call)
                if model.scopes.is_local("print", fn) or "print" in model.scopes.aliases:
                    continue
                traced = next((v for v in self._values(node) if model.fact(TracerValues).is_tracer(v, fn)
                               or _traced_arguments(model, v, fn)), None)
                if traced is None:
                    continue
                builder, title, note = self._fix(ctx, fn, node)
                shown = ast.unparse(traced)
                shown = shown if len(shown) <= 24 else "a traced value"
                ctx.report(node, self.message("print", value=shown, function=fn.name, reason=fn.trace_reason, note=note),
                           builder, fix_title=title)

    @staticmethod
    def _values(call: ast.Call) -> list[ast.AST]:
        values: list[ast.AST] = []
        for arg in call.args:
            if isinstance(arg, ast.JoinedStr):
                values.extend(p.value for p in arg.values if isinstance(p, ast.FormattedValue))
            else:
                values.append(arg.value if isinstance(arg, ast.Starred) else arg)
        return values

    @staticmethod
    def _fix(ctx: RuleContext, fn: FunctionInfo, call: ast.Call):
        model: ModuleModel = ctx.model
        source = ctx.source
        debug = model.scopes.spelling_of("jax.debug")
        if debug is None:
            return None, "", " (no automatic fix: the module does not import `jax`)"
        try:
            new = debug_print_call(source, call, debug)
        except _NoFix as refusal:
            return None, "", f" (no automatic fix: {refusal})"

        # in a Pallas kernel the backend's lowering decides what prints (TPU: scalars or a single vector; Triton: no
        # `{}` placeholders): the rewrite may no longer compile there, so it is offered, never applied by itself
        kernel = model.traced.in_pallas_kernel(fn)

        def build() -> Fix | None:
            return Fix(safe=not kernel, description=f"Use `{new[:60]}`", edits=(TextEdit.replacing(source, call, new),))

        note = " (in a Pallas kernel the backend limits what it prints: scalars, or a single vector)" if kernel else ""
        return build, f"use `{debug}.print`", note


# transformations that trace every argument they pass (a Python scalar too) unless it is declared static
_TRACING_EVERY_ARGUMENT = {"jax.jit", "jax.experimental.pjit.pjit", "jax.pmap"}


def _traced_arguments(model: ModuleModel, value: ast.AST, fn: FunctionInfo) -> bool:
    """`print(args)` of the `*args` (or `**kwargs`) parameter of a function `jax.jit` traces with nothing static
    (a decorator's `def wrapper(*args)` under `@jax.jit`): jit passes every argument as a tracer, so the tuple
    holds tracers (jax 0.10.2 prints `(JitTracer(float32[3]),)` once, at trace time)."""
    args = fn.node.args
    if not isinstance(value, ast.Name) or isinstance(fn.node, ast.Lambda) or value.id not in (
            *(a.arg for a in (args.vararg, args.kwarg) if a is not None),):
        return False
    if not fn.traces or not all(site.transform in _TRACING_EVERY_ARGUMENT and not site.indirect
                                and not (site.static_argnums or site.static_argnames or site.statics_unknown)
                                for site in fn.traces):
        return False
    return not any(isinstance(n, ast.Name) and n.id == value.id and not isinstance(n.ctx, ast.Load)
                   for n in model.scopes.own_nodes(fn))


def _calls_print(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"
