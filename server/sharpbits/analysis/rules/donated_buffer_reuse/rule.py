"""SB106 donated-buffer-reuse: reading an array after passing it in a donated position."""

from __future__ import annotations

import ast

from sharpbits.analysis.model import ARRAY_STATIC_ATTRS, Kind
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.rules.donated_buffer_reuse.donation import DonatedCall, Donations
from sharpbits.findings import Fix, TextEdit

# Values whose buffers a donation cannot delete: NumPy arrays are copied to the device, Python values have none.
_NOT_DONATED = {Kind.NUMPY, Kind.PYTHON, Kind.FUNCTION, Kind.MODULE, Kind.REF}
# Reads that still work on a deleted array: its shape and dtype are kept.
_STILL_READABLE = ARRAY_STATIC_ATTRS | {"is_deleted"}
# methods that read no buffer: a dict pytree's keys, and deleting (again)
_NO_BUFFER_METHODS = {"keys", "delete", "is_deleted"}
_NO_BUFFER_CALLS = {"len", "isinstance", "type", "id"}


class DonatedBufferReuse(Rule):
    code = "SB106"
    name = "donated-buffer-reuse"
    severity = "error"
    messages = {
        "read-after-donation": (
            "`{name}` was donated to `{callee}` (line {line}) and deleted: {when} raises {error}; "
            "rebind it or pass a copy"
        ),
        "read-after-declinable-donation": (
            "`{name}` was donated to `{callee}` (line {line}) and may be invalid: if so, {when} raises {error}; "
            "rebind it or pass a copy"
        ),
        "when-passed-again": (
            "passing it again next iteration"
        ),
        "when-read-next-iteration": (
            "reading it next iteration (line {line})"
        ),
        "when-read": (
            "reading it at line {line}"
        ),
    }
    summary = ("Flags reading an array after passing it in a donated position (`donate_argnums`/"
               "`donate_argnames` of `jax.jit`), including the next iteration of a loop.")
    why = """
`jax.jit(f, donate_argnums=0)` lets XLA reuse the memory of the first argument for the result: after the call the
argument's buffer is deleted, and any later use of it raises `RuntimeError: Array has been deleted` (passing it
to a jitted function again: `ValueError: ... Buffer has been deleted or donated`). CPU, GPU
and TPU all honour donation. The usual idiom rebinds the name to the result (`state = step(state, batch)`), so
the deleted array can no longer be reached; reading the old name after `new = step(old)`, or calling
`step(x)` again in a loop without rebinding `x`, fails at run time.

Donated positions are found in every spelling: `@partial(jax.jit, donate_argnums=...)`,
`g = jax.jit(f, donate_argnums=...)` (only calls through `g` donate), `self.g = jax.jit(...)`, and
`jax.jit(f, donate_argnames=...)(x)`. An attribute donated by a method (`new = step(self.params, x)`) is followed
the same way until `self.params = ...` (a call that may rebind it, a method of the class that stores it or one it
does not define, ends the search). Reads that touch no buffer are fine: `x.shape`, `x.dtype`, `x.ndim`,
`x.size` (a deleted array keeps them), a dict pytree's keys (`state.keys()`, `"w" in state`), `x.delete()`,
`x is None`, `isinstance(x, ...)`, `len(x)`,
and NumPy arrays and Python values passed in a donated position are copied, not deleted. flax's `nnx.jit` writes
the new values of donated nnx objects (modules, Variables, optimizers) back into them, so only the plain arrays it
is given are deleted. A donating function
called inside traced code (another `jit`, a `scan` body) is inlined into that trace and donates nothing.

XLA uses a donation only when an output has the donated input's shape and dtype; otherwise it declines it (JAX
warns "Some donated buffers were not usable") and the input stays valid. Where the donated function visibly
returns such a value (the parameter itself, arithmetic on it, `x.at[i].set(v)`, `jax.tree.map` over it) the
message says the buffer is deleted; where it cannot tell, it says the value *may be invalid*.

A function of another module of the project (or of an installed package the project index reads) decorated
`@partial(jax.jit, donate_argnums=...)` donates the same way when this module calls it (`new = steps.apply(params,
g)` then `params` read); whether XLA uses that donation is not read there, so the message says "may be invalid". A
call inside `with pytest.raises(...)` (or `assertRaises`) is expected to raise before it runs: it donates nothing.
"""
    example = """
import jax
from functools import partial

@partial(jax.jit, donate_argnums=0)
def sgd(params, grads):
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)

def train(params, grads):
    new_params = sgd(params, grads)
    print(params)
    return new_params
"""
    use_instead = """
import jax
from functools import partial

@partial(jax.jit, donate_argnums=0)
def sgd(params, grads):
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)

def train(params, grads):
    print(params)
    params = sgd(params, grads)
    return params
"""
    fix_safety = """
One fix, marked **unsafe**: a call whose result is thrown away (`step(x)` as a statement) becomes
`x = step(x)`, so later reads see the result rather than the deleted input — a change of behaviour when the
result is not meant to replace `x`. Where the result is kept under another name, no fix is offered: rebind the
name, move the read before the call, or pass a copy (`step(jnp.copy(x))`) if the old value is still needed.
"""
    VALID = [
        # an attribute donated, then assigned the result before any read
        "import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=0)\ndef step(x):\n    return x + 1\n"
        "class T:\n    def run(self):\n        self.w = step(self.w)\n        return self.w.sum()\n",
        # ... or a method of the object called in between, which may assign it
        "import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=0)\ndef step(x):\n    return x + 1\n"
        "class T:\n    def run(self):\n        new = step(self.w)\n        self.reload()\n        return new + self.w\n",
        # the idiom: rebind the name to the result
        "import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=0)\ndef step(x):\n    return x + 1\n"
        "def run(x):\n    for _ in range(3):\n        x = step(x)\n    return x\n",
        # read before the call, and shape after it
        "import jax\ndef f(x):\n    return x * 2\ng = jax.jit(f, donate_argnums=0)\ndef run(x):\n    print(x)\n"
        "    y = g(x)\n    return y, x.shape\n",
        # calls of the undonated function donate nothing
        "import jax\ndef f(x):\n    return x * 2\ng = jax.jit(f, donate_argnums=0)\ndef run(x):\n    y = f(x)\n"
        "    return y + x\n",
        # a NumPy array is copied to the device, not deleted
        "import jax\nimport numpy as np\ng = jax.jit(lambda x: x + 1, donate_argnums=0)\na = np.ones(3)\nb = g(a)\nprint(a)\n",
        # inside another jit the inner donation is a no-op
        "import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=0)\ndef step(x):\n"
        "    return x + 1\n@jax.jit\ndef outer(x):\n    y = step(x)\n    return x + y\n",
        # rebound before the next use, in every branch
        "import jax\nimport jax.numpy as jnp\ng = jax.jit(lambda x: x + 1, donate_argnums=0)\ndef run(x, flag):\n"
        "    y = g(x)\n    if flag:\n        x = y\n    else:\n        x = jnp.zeros(3)\n    return x\n",
        # reads that touch no buffer: metadata, a dict pytree's keys, identity tests, deleting it
        "import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=0)\ndef step(state):\n"
        "    return jax.tree.map(lambda v: v + 1, state)\ndef run(state):\n    new = step(state)\n"
        "    assert state is not None and list(state.keys()) == list(new)\n    print(state.ndim if hasattr(new, 'ndim') else 0)\n"
        "    state.delete()\n    return new\n",
        # self.params rebound to the result in the statement that donates it
        "import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=0)\ndef step(p, x):\n"
        "    return p + x\nclass Trainer:\n    def train(self, x):\n        self.params = step(self.params, x)\n"
        "        return self.params.sum(), self.params.shape\n",
        # flax's nnx.jit writes donated nnx objects (modules, Variables, optimizers) back: they stay valid
        "from flax import nnx\n@nnx.jit(donate_argnums=(0, 1))\ndef train_step(model, optimizer, batch):\n"
        "    optimizer.update(model, nnx.grad(lambda m: m(batch).sum())(model))\n"
        "def fit(model, optimizer, batches):\n    for batch in batches:\n        train_step(model, optimizer, batch)\n"
        "    return model\n",
    ]
    INVALID = [
        Invalid(  # nnx.jit deletes a plain array passed in a donated position, as jax.jit does
            "import jax.numpy as jnp\nfrom flax import nnx\n@nnx.jit(donate_argnums=0)\ndef step(x):\n    return x + 1\n"
            "x = jnp.zeros(3)\ny = step(x)\nprint(x)\n",
        ),
        Invalid(
            "import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=0)\ndef step(x):\n"
            "    return x + 1\ndef run(x):\n    y = step(x)\n    return x + y\n",
        ),
        Invalid(  # no output visibly has x's shape: XLA may decline the donation, so x *may* be invalid
            "import jax\nimport jax.numpy as jnp\nfrom functools import partial\n@partial(jax.jit, donate_argnums=0)\n"
            "def total(x):\n    return jnp.sum(x)\ndef run(x):\n    s = total(x)\n    return x * s\n",
        ),
        Invalid(  # the next iteration passes the deleted array again
            "import jax\nimport jax.numpy as jnp\ndef f(x, b):\n    return x + b\ng = jax.jit(f, donate_argnums=(0,))\n"
            "x = jnp.zeros(3)\nfor b in range(3):\n    out = g(x, b)\n",
        ),
        Invalid(  # donate_argnames, and the result thrown away
            "import jax\ndef f(params, lr):\n    return params * lr\nupdate = jax.jit(f, donate_argnames='params')\n"
            "def train(params):\n    update(params, 0.1)\n    return params\n",
            fixed="import jax\ndef f(params, lr):\n    return params * lr\nupdate = jax.jit(f, donate_argnames='params')\n"
            "def train(params):\n    params = update(params, 0.1)\n    return params\n",
        ),
        Invalid(  # self.params donated by a method and read before it is rebound
            "import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=0)\ndef step(p, x):\n"
            "    return p + x\nclass Trainer:\n    def train(self, x):\n        new = step(self.params, x)\n"
            "        print(self.params)\n        self.params = new\n",
        ),
        Invalid(  # an attribute of an object donated, then read before it is assigned
            "import jax\nfrom functools import partial\n@partial(jax.jit, donate_argnums=0)\ndef step(x):\n"
            "    return x + 1\nclass T:\n    def run(self):\n        new = step(self.w)\n"
            "        change = new - self.w\n        self.w = new\n        return change\n"),
        Invalid(  # a method jitted with donation, called through self
            "import jax\nimport jax.numpy as jnp\nclass Trainer:\n    def __init__(self):\n"
            "        self.step = jax.jit(self._step, donate_argnums=0)\n    def _step(self, w):\n        return w * 2\n"
            "    def run(self):\n        w = jnp.ones(3)\n        w2 = self.step(w)\n        return w.sum() + w2\n",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        donations = model.fact(Donations)
        for donated in donations.donated_calls():
            if donated.scope is not None and donated.scope.traced:
                continue  # called under another trace, the inner jit is inlined and donates nothing
            for argument, used in zip(donated.arguments, donated.used or [True] * len(donated.arguments), strict=True):
                on_self = _self_attribute(argument, donated.scope)
                if not isinstance(argument, ast.Name) and not on_self:
                    continue
                kind = model.kinds.kind_of(argument, donated.scope)
                if kind in _NOT_DONATED:
                    continue
                if isinstance(argument, ast.Name):
                    found: list[ast.expr] = list(donations.reads_after(donated.call, argument.id))
                else:  # self.params, in a method: its reads until `self.params = ...`
                    assert isinstance(argument, ast.Attribute) and donated.scope is not None
                    found = list(donations.attribute_reads_after(donated.call, argument, donated.scope))
                reads = [r for r in found if not _still_readable(model, r)]
                if not reads:
                    continue
                read = reads[0]
                shown = ast.unparse(argument)
                again = read is argument  # the call itself, reached again through the loop
                earlier = (read.lineno, read.col_offset) < (donated.call.lineno, donated.call.col_offset)
                when = self.message("when-passed-again" if again else "when-read-next-iteration" if earlier
                                    else "when-read", line=read.lineno)
                error = "ValueError" if again else "RuntimeError"
                builder = self._fix(ctx, donated, argument)
                ctx.report(
                    read,
                    self.message("read-after-donation" if used else "read-after-declinable-donation",
                                 name=shown, callee=donated.callee, line=donated.call.lineno, when=when,
                                 error=error),
                    builder,
                    fix_title=f"rebind `{shown}` to the result" if builder is not None else "",
                )

    def _fix(self, ctx: RuleContext, donated: DonatedCall, argument: ast.expr):
        parent = ctx.model.scopes.parents.get(donated.call)
        if not isinstance(parent, ast.Expr) or len(donated.arguments) != 1:
            return None
        source, call, name = ctx.source, donated.call, ast.unparse(argument)

        def build() -> Fix | None:
            line = call.lineno
            col = source.char_column(line, call.col_offset)
            return Fix(safe=False, description=f"Rebind `{name}` to the result",
                       edits=(TextEdit(line, col + 1, line, col + 1, f"{name} = "),))

        return build


def _self_attribute(argument: ast.expr, scope) -> bool:
    """`self.attr` passed by a method of a class (read again after the call as `self.attr`)."""
    return (isinstance(argument, ast.Attribute) and isinstance(argument.value, ast.Name)
            and argument.value.id == "self" and scope is not None and "." in scope.outermost.qualname
            and scope.params[:1] == ["self"])


def _still_readable(model, read: ast.expr) -> bool:
    """A read that touches no buffer: metadata a deleted array keeps (`.shape`, `.dtype`, `.ndim`, `.size`),
    a dict pytree's keys (`state.keys()`, `"w" in state`), `.delete()` / `.is_deleted()`, an identity or type
    test (`x is None`, `isinstance(x, ...)`, `type(x)`, `id(x)`), `len(x)`."""
    node: ast.AST = read
    parent = model.scopes.parents.get(read)
    while isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.slice, ast.Constant):
        node, parent = parent, model.scopes.parents.get(parent)  # state["w"].shape: a leaf's metadata
    if isinstance(parent, ast.Attribute) and parent.attr in _STILL_READABLE:
        return True
    if node is not read:
        return False
    if isinstance(parent, ast.Attribute) and parent.attr in _NO_BUFFER_METHODS:
        return isinstance(model.scopes.parents.get(parent), ast.Call)
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in _NO_BUFFER_CALLS:
        return read in parent.args[:1]
    if isinstance(parent, ast.Compare):
        if all(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops):
            return True
        # `"w" in state`: a dict pytree's keys
        return read is not parent.left and all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops) and (
            model.kinds.kind_at(read) is Kind.CONTAINER)
    return False
