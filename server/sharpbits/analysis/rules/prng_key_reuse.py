"""SB201 prng-key-reuse: a PRNG key consumed twice."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from sharpbits.analysis.model import FunctionInfo, Kind, ModuleModel, iter_children
from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.findings import Fix, TextEdit

# jax.random functions that take a key without consuming it
NON_CONSUMING = {"key", "PRNGKey", "key_data", "wrap_key_data", "key_impl", "clone", "fold_in"}
# calls that receive a key without drawing from it
NOT_A_CONSUMER = {"print", "isinstance", "len", "type", "repr", "str", "id", "hash", "zip", "enumerate", "list",
                  "tuple", "iter", "reversed", "sorted", "dict", "set", "jax.device_put", "jax.tree.map",
                  "jax.tree_util.tree_map",
                  "jax.block_until_ready", "jax.random.key_data", "jax.debug.print", "jax.numpy.shape"}
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


@dataclass(frozen=True)
class Use:
    name: ast.AST  # the key as used: a Name, or `keys[0]`
    call: ast.Call
    statement: ast.stmt
    definite: bool  # a jax.random call, or a function of this module that always draws from that argument


State = dict[str, Use]  # key name -> where it was first consumed (absent: fresh)


def _merge(a: State | None, b: State | None) -> State | None:
    if a is None:
        return b
    if b is None:
        return a
    out = dict(b)
    out.update(a)
    return out


class _Scope:
    """Walks one scope's statements in execution order, tracking which key names have been consumed."""

    def __init__(self, ctx: RuleContext, fn: FunctionInfo | None, body: list[ast.stmt],
                 always_consumed: dict[str, set[int]]) -> None:
        self.ctx, self.model, self.fn = ctx, ctx.model, fn
        self.always_consumed = always_consumed
        self.keys = self._key_names(body)
        self.reported: set[int] = set()
        if self.keys:
            self.hot = self._hot_nodes()
            if self.hot:
                self.block(body, {})

    def _hot_nodes(self) -> set[int]:
        """Ids of the calls that consume a key and of everything above them: expressions outside this set
        cannot consume a key, so the walk skips them."""
        hot: set[int] = set()
        root = self.fn.node if self.fn is not None else self.model.tree
        for node in self.model.own_nodes(self.fn):
            if isinstance(node, ast.Call) and self._consumed_names(node):
                cur: ast.AST | None = node
                while cur is not None and cur is not root and id(cur) not in hot:
                    hot.add(id(cur))
                    cur = self.model.parents.get(cur)
        return hot

    def _key_names(self, body: list[ast.stmt]) -> set[str]:
        names: set[str] = set()
        if True:
            for node in self.model.own_nodes(self.fn):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and self.model.kind_at(node) is Kind.KEY:
                    names.add(node.id)
                elif isinstance(node, ast.Call):
                    arg = self._random_key_arg(node)
                    if isinstance(arg, ast.Name):
                        names.add(arg.id)
                    elif isinstance(node.func, ast.Name) and node.func.id in self.always_consumed:
                        always = self.always_consumed[node.func.id]  # e.g. dropout(key, x): draws from `key`
                        names.update(a.id for i, a in enumerate(node.args) if i in always and isinstance(a, ast.Name))
        return names

    def _random_key_arg(self, call: ast.Call) -> ast.AST | None:
        q = self.model.qualname(call.func, self.fn)
        if q is None or not q.startswith("jax.random.") or q.rsplit(".", 1)[1] in NON_CONSUMING:
            return None
        for kw in call.keywords:
            if kw.arg == "key":
                return kw.value
        return call.args[0] if call.args else None

    def _label(self, node: ast.AST) -> str | None:
        """`key`, or `keys[0]` for an element of a split key array; None for anything else."""
        if isinstance(node, ast.Name):
            return node.id if node.id in self.keys else None
        if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.keys
                and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int):
            return f"{node.value.id}[{node.slice.value}]"
        return None

    def _consumed_names(self, call: ast.Call) -> list[tuple[ast.AST, str, bool]]:
        """Keys this call consumes (node, label), each with whether it surely draws from it."""
        arg = self._random_key_arg(call)
        if arg is not None:
            label = self._label(arg)
            return [(arg, label, True)] if label else []
        q = self.model.qualname(call.func, self.fn)
        if q is not None and q.startswith("jax.random."):
            return []  # a non-consuming jax.random function (fold_in, key_data, ...)
        func_name = call.func.id if isinstance(call.func, ast.Name) else None
        if (q or func_name) in NOT_A_CONSUMER:
            return []
        # A key handed to any other function may be consumed there; surely so when it is a function of this
        # module that draws from that parameter before any branch or early return.
        always = self.always_consumed.get(func_name or "", set()) if func_name and q is None else set()
        found: list[tuple[ast.AST, str, bool]] = [(a, a.id, i in always) for i, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id in self.keys]
        found += [(kw.value, kw.value.id, False) for kw in call.keywords
                  if isinstance(kw.value, ast.Name) and kw.value.id in self.keys]
        return found

    # ---- statements --------------------------------------------------------------------------------------

    def block(self, body: list[ast.stmt], state: State | None) -> State | None:
        for stmt in body:
            if state is None:
                return None
            state = self.statement(stmt, state)
        return state

    def statement(self, stmt: ast.stmt, state: State) -> State | None:
        if isinstance(stmt, ast.If):
            self.expression(stmt.test, stmt, state)
            return _merge(self.block(stmt.body, dict(state)), self.block(stmt.orelse, dict(state)))
        if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            head = stmt.iter if isinstance(stmt, ast.For | ast.AsyncFor) else stmt.test
            self.expression(head, stmt, state)
            entry = dict(state)
            out: State | None = entry
            for _ in range(2):  # the second pass sees what the previous iteration consumed
                loop_state = dict(_merge(entry, out) or entry)
                if isinstance(stmt, ast.For | ast.AsyncFor):
                    self.rebind(stmt.target, loop_state)
                else:
                    self.expression(stmt.test, stmt, loop_state)
                out = self.block(stmt.body, loop_state)
            after = _merge(entry, out) or entry
            return self.block(stmt.orelse, after)
        if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            after_body = self.block(stmt.body, dict(state))  # type: ignore[attr-defined]
            merged = self.block(stmt.orelse, dict(after_body)) if after_body is not None else None  # type: ignore[attr-defined]
            for handler in stmt.handlers:  # type: ignore[attr-defined]
                merged = _merge(merged, self.block(handler.body, dict(_merge(state, after_body) or state)))
            if stmt.finalbody:  # type: ignore[attr-defined]
                return self.block(stmt.finalbody, merged if merged is not None else dict(state))  # type: ignore[attr-defined]
            return merged
        if isinstance(stmt, ast.With | ast.AsyncWith):
            for item in stmt.items:
                self.expression(item.context_expr, stmt, state)
                if item.optional_vars is not None:
                    self.rebind(item.optional_vars, state)
            return self.block(stmt.body, state)
        if isinstance(stmt, ast.Match):
            self.expression(stmt.subject, stmt, state)
            cases_state: State | None = None
            for case in stmt.cases:
                cases_state = _merge(cases_state, self.block(case.body, dict(state)))
            return cases_state
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            state.pop(stmt.name, None)
            return state
        if isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            if stmt.value is not None:
                self.expression(stmt.value, stmt, state)
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                self.rebind(target, state)
            return state
        for child in ast.iter_child_nodes(stmt):
            self.expression(child, stmt, state)
        if isinstance(stmt, ast.Return | ast.Raise | ast.Continue | ast.Break):
            return None
        if isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                self.rebind(target, state)
        return state

    def rebind(self, target: ast.AST, state: State) -> None:
        for node in ast.walk(target):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
                for label in [k for k in state if k == node.id or k.startswith(f"{node.id}[")]:
                    del state[label]  # a new value: the name and its elements are fresh
            elif isinstance(node, ast.Subscript | ast.Attribute):
                element = self._label(node) if isinstance(node, ast.Subscript) else None
                if element:
                    state.pop(element, None)
                self.expression(node.value, None, state)

    # ---- expressions -------------------------------------------------------------------------------------

    def expression(self, expr: ast.AST, stmt: ast.stmt | None, state: State) -> None:
        if id(expr) not in self.hot:
            return
        for call, in_comprehension in _calls_in_order(expr):
            for node, label, definite in self._consumed_names(call):
                base = label.split("[", 1)[0]
                if in_comprehension is not None and base not in _bound_by(in_comprehension):
                    if definite:
                        self.report_loop(node, label)
                    continue
                first = state.get(label)
                if first is None:
                    if stmt is not None:
                        state[label] = Use(node, call, stmt, definite)
                    continue
                if first.definite or definite:  # two maybe-uses (e.g. calls with a static flag) stay silent
                    self.report(node, label, first)
                elif definite and stmt is not None:
                    state[label] = Use(node, call, stmt, definite)

    def report_loop(self, node: ast.AST, label: str) -> None:
        if id(node) in self.reported:
            return
        self.reported.add(id(node))
        self.ctx.report(
            node,
            f"PRNG key `{label}` is consumed in every iteration of this comprehension: each iteration draws the "
            f"same random numbers; split it first (`keys = jax.random.split({label}, n)`)",
        )

    def report(self, node: ast.AST, label: str, first: Use) -> None:
        if id(node) in self.reported:
            return
        self.reported.add(id(node))
        first_call = ast.unparse(first.call.func)
        if first.name is node:
            message = (f"PRNG key `{label}` is consumed in every iteration of this loop by `{first_call}(...)` "
                       "without being re-derived: every iteration draws the same random numbers; split it in the "
                       f"loop (`{label}, subkey = jax.random.split({label})`)")
        else:
            first_line = getattr(first.name, "lineno", 0)
            message = (f"PRNG key `{label}` was already consumed at line {first_line} by "
                       f"`{first_call}(...)`: reusing it gives the same random numbers; split it "
                       f"(`key, subkey = jax.random.split({label})`) and use each key once")
        builder = self._fix(first) if isinstance(first.name, ast.Name) else None  # elements of key arrays: no fix
        self.ctx.report(node, message, builder, fix_title=f"split `{label}` before its first use" if builder else "")

    def _fix(self, first: Use):
        """Insert `key, subkey = random.split(key)` before the first use, which then takes `subkey`."""
        source = self.ctx.source
        stmt = first.statement
        rand = self.model.spelling_of("jax.random")
        parent = self.model.parents.get(stmt)
        line_text = source.line_text(stmt.lineno)
        col = source.char_column(stmt.lineno, stmt.col_offset)
        if rand is None or parent is None or line_text[:col].strip() or not any(
            stmt in getattr(parent, f, ()) for f in ("body", "orelse", "finalbody", "handlers")
        ):
            return None
        used = self.model.all_names()
        sub = next(f"subkey{i or ''}" for i in range(100) if f"subkey{i or ''}" not in used)
        name = first.name
        assert isinstance(name, ast.Name)
        key = name.id
        indent = line_text[:col]
        name_col = source.char_column(name.lineno, name.col_offset)

        def build() -> Fix | None:
            edits = (
                TextEdit(stmt.lineno, 1, stmt.lineno, 1, f"{indent}{key}, {sub} = {rand}.split({key})\n"),
                TextEdit(name.lineno, name_col + 1, name.lineno, name_col + 1 + len(key), sub),
            )
            return Fix(safe=False, description=f"Split `{key}` before its first use (line {stmt.lineno})", edits=edits)

        return build


def _own_nodes(stmt: ast.AST):
    stack = [stmt]
    while stack:
        node = stack.pop()
        yield node
        for child in iter_children(node):
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
                stack.append(child)


def _bound_by(comprehension: ast.AST) -> set[str]:
    return {n.id for gen in comprehension.generators for n in ast.walk(gen.target) if isinstance(n, ast.Name)}  # type: ignore[attr-defined]


def _calls_in_order(expr: ast.AST):
    """Calls in evaluation order (arguments before the call), with the innermost enclosing comprehension."""
    out: list[tuple[ast.Call, ast.AST | None]] = []
    stack: list[tuple[ast.AST, ast.AST | None, bool]] = [(expr, None, False)]
    while stack:
        node, comp, expanded = stack.pop()
        if expanded:
            if isinstance(node, ast.Call):
                out.append((node, comp))
            continue
        if isinstance(node, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        stack.append((node, comp, True))
        inner = node if isinstance(node, _COMPREHENSIONS) else comp
        children = list(iter_children(node))
        first_iter = node.generators[0].iter if isinstance(node, _COMPREHENSIONS) else None
        for child in reversed(children):
            if isinstance(child, ast.comprehension) and child.iter is first_iter:
                stack.append((child.iter, comp, False))  # evaluated once, before the first iteration
                for rest in reversed([child.target, *child.ifs]):
                    stack.append((rest, inner, False))
                continue
            stack.append((child, inner, False))
    return out


class PrngKeyReuse(Rule):
    code = "SB201"
    name = "prng-key-reuse"
    severity = "warning"
    summary = "Flags a JAX PRNG key that is consumed twice (two samplers, after `split`, in a loop, after a call)."
    why = """
JAX's random numbers are a pure function of the key: the same key gives the same numbers. Drawing twice from one
key — two samplers, a sampler after `split(key)`, a sampler in a loop whose key is not re-derived, or a key passed
to a function (which may draw from it) and then used again — silently gives identical or correlated "random"
numbers: dropout masks that repeat, initialisations that are copies of each other.

JAX's own checker (`jax_debug_key_reuse`) only sees typed keys (`jax.random.key`) at run time; this rule also
covers legacy `jax.random.PRNGKey` keys, before anything runs. Branches that each use a key once are fine, and so
are `fold_in(key, i)` and the `key, subkey = jax.random.split(key)` idiom.
"""
    example = """
import jax

key = jax.random.PRNGKey(0)
w = jax.random.normal(key, (3, 3))
b = jax.random.normal(key, (3,))
"""
    use_instead = """
import jax

key = jax.random.PRNGKey(0)
key, subkey = jax.random.split(key)
w = jax.random.normal(subkey, (3, 3))
b = jax.random.normal(key, (3,))
"""
    fix_safety = """
The fix inserts `key, subkey = jax.random.split(key)` before the first use and gives that use `subkey`, so every
use gets a fresh key (inside a loop this is the usual `key, subkey = split(key)` idiom). It is **unsafe**: the
random numbers change (that is the point). Offered when the first use is a statement of its own line and the file
imports `jax` or `jax.random`; not for reuse inside comprehensions.
"""
    VALID = [
        "import jax\nkey = jax.random.key(0)\nk1, k2 = jax.random.split(key)\na = jax.random.normal(k1, (2,))\n"
        "b = jax.random.uniform(k2, (2,))\n",
        # the loop idiom
        "import jax\nkey = jax.random.PRNGKey(0)\nfor step in range(10):\n    key, subkey = jax.random.split(key)\n"
        "    x = jax.random.normal(subkey, (3,))\n",
        # branches that each consume once
        "from jax import random\ndef noise(key, train):\n    if train:\n        return random.normal(key, (2,))\n"
        "    else:\n        return random.uniform(key, (2,))\n",
        # an early return ends the path
        "from jax import random\ndef f(key, flag):\n    if flag:\n        return random.normal(key, ())\n"
        "    return random.uniform(key, ())\n",
        # fold_in derives new keys without consuming
        "import jax\nkey = jax.random.key(1)\nxs = [jax.random.normal(jax.random.fold_in(key, i), ()) for i in range(3)]\n",
        # a fresh key per iteration from a split array
        "import jax\nkeys = jax.random.split(jax.random.key(0), 4)\nfor k in keys:\n    print(jax.random.normal(k, ()))\n",
        # different elements of a split key array
        "import jax\nkeys = jax.random.split(jax.random.key(0), 2)\na = jax.random.normal(keys[0], ())\n"
        "b = jax.random.normal(keys[1], ())\n",
    ]
    INVALID = [
        Invalid(
            "import jax\nkey = jax.random.PRNGKey(0)\nw = jax.random.normal(key, (3, 3))\nb = jax.random.normal(key, (3,))\n",
            fixed="import jax\nkey = jax.random.PRNGKey(0)\nkey, subkey = jax.random.split(key)\n"
            "w = jax.random.normal(subkey, (3, 3))\nb = jax.random.normal(key, (3,))\n",
        ),
        Invalid(  # reused after split
            "from jax import random as jr\nkey = jr.key(0)\nk1, k2 = jr.split(key)\nx = jr.normal(key, ())\n",
            fixed="from jax import random as jr\nkey = jr.key(0)\nkey, subkey = jr.split(key)\nk1, k2 = jr.split(subkey)\n"
            "x = jr.normal(key, ())\n",
        ),
        Invalid(  # in a loop, never re-derived
            "import jax\ndef noisy(x, key):\n    for _ in range(3):\n        x = x + jax.random.normal(key, x.shape)\n    return x\n",
            fixed="import jax\ndef noisy(x, key):\n    for _ in range(3):\n        key, subkey = jax.random.split(key)\n"
            "        x = x + jax.random.normal(subkey, x.shape)\n    return x\n",
        ),
        Invalid(  # passed to a function, then used again
            "import jax\ndef init(key):\n    return jax.random.normal(key, (2,))\nkey = jax.random.key(0)\n"
            "params = init(key)\nnoise = jax.random.uniform(key, (2,))\n",
            fixed="import jax\ndef init(key):\n    return jax.random.normal(key, (2,))\nkey = jax.random.key(0)\n"
            "key, subkey = jax.random.split(key)\nparams = init(subkey)\nnoise = jax.random.uniform(key, (2,))\n",
        ),
        Invalid(  # inside a traced function
            "import jax\n@jax.jit\ndef dropout2(key, x):\n    a = jax.random.bernoulli(key, 0.5, x.shape)\n"
            "    b = jax.random.bernoulli(key, 0.5, x.shape)\n    return x * a * b\n",
            fixed="import jax\n@jax.jit\ndef dropout2(key, x):\n    key, subkey = jax.random.split(key)\n"
            "    a = jax.random.bernoulli(subkey, 0.5, x.shape)\n    b = jax.random.bernoulli(key, 0.5, x.shape)\n"
            "    return x * a * b\n",
        ),
        Invalid(  # in a comprehension
            "import jax\nkey = jax.random.key(0)\nxs = [jax.random.normal(key, ()) for _ in range(4)]\n",
        ),
        Invalid(  # one element of a split key array, used twice
            "import jax\nkeys = jax.random.split(jax.random.key(0), 3)\na = jax.random.normal(keys[0], ())\n"
            "b = jax.random.uniform(keys[0], ())\n",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        model = ctx.model
        if not any(q == "jax" or q.startswith("jax.random") for q in model.aliases.values()):
            return  # this module cannot name a jax.random function
        always = _always_consumed_params(model)
        # only scopes that draw random numbers (directly, or through a function that always does)
        scopes: dict[int, FunctionInfo | None] = {}
        for call in model.nodes(ast.Call):
            assert isinstance(call, ast.Call)
            fn = model.enclosing_function(call)
            if id(fn) in scopes:
                continue
            q = model.qualname(call.func, fn)
            if (q and q.startswith("jax.random.")) or (isinstance(call.func, ast.Name) and always.get(call.func.id)):
                scopes[id(fn)] = fn
        for fn in scopes.values():
            if fn is None:
                _Scope(ctx, None, ctx.tree.body, always)
            elif not isinstance(fn.node, ast.Lambda):
                _Scope(ctx, fn, fn.node.body, always)


def _always_consumed_params(model: ModuleModel) -> dict[str, set[int]]:
    """For each module-level function: the positions of parameters it passes to a jax.random sampler in a
    statement that always runs (before any branch that could return early)."""
    out: dict[str, set[int]] = {}
    for call in model.nodes(ast.Call):
        assert isinstance(call, ast.Call)
        fn = model.enclosing_function(call)
        if fn is None or fn.parent is not None or isinstance(fn.node, ast.Lambda):
            continue
        q = model.qualname(call.func, fn)
        if not q or not q.startswith("jax.random.") or q.rsplit(".", 1)[1] in NON_CONSUMING:
            continue
        positional = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]]
        key = next((kw.value for kw in call.keywords if kw.arg == "key"), call.args[0] if call.args else None)
        if not isinstance(key, ast.Name) or key.id not in positional:
            continue
        top: ast.AST = call  # the function-level statement that holds the call
        while model.parents.get(top) is not fn.node:
            top = model.parents[top]
        if isinstance(top, ast.If | ast.For | ast.While | ast.Try | ast.With | ast.Match):
            continue  # inside a branch or loop: not always
        body = fn.node.body
        earlier = body[: body.index(top)] if top in body else body
        if any(isinstance(n, ast.Return | ast.Raise) for stmt in earlier if not isinstance(stmt, ast.Return | ast.Raise)
               for n in ast.walk(stmt)) or any(isinstance(stmt, ast.Return | ast.Raise) for stmt in earlier):
            continue  # an early return may skip it
        out.setdefault(fn.name, set()).add(positional.index(key.id))
    return out
