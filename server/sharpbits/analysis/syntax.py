"""AST helpers every part of the analysis shares: a lean child walk and literal values."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


# Fields that never hold a node worth visiting: contexts and operators (Load, Add, ...), and plain values
# (identifiers, numbers). Skipping them halves the nodes a walk visits.
_SKIPPED_FIELDS = frozenset({"ctx", "op", "ops", "type_comment", "id", "attr", "arg", "name", "module", "level",
                             "kind", "asname", "is_async", "conversion", "simple", "tag"})
_AST = ast.AST
CHILD_FIELDS: dict[type, tuple[str, ...]] = {}  # a node type -> the fields iter_children looks in


def child_fields_of(cls: type) -> tuple[str, ...]:
    fields = tuple(f for f in cls._fields if f not in _SKIPPED_FIELDS)  # type: ignore[attr-defined]
    if cls in (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.Constant):
        fields = ()  # names/aliases and constant values
    CHILD_FIELDS[cls] = fields
    return fields


def iter_children(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.iter_child_nodes` without the leaves no rule looks at (see _SKIPPED_FIELDS)."""
    cls = type(node)
    fields = CHILD_FIELDS.get(cls)
    if fields is None:
        fields = child_fields_of(cls)
    for name in fields:
        value = getattr(node, name, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, _AST):
                    yield item
        elif isinstance(value, _AST):
            yield value


_ALL_FIELDS: dict[type, tuple[str, ...]] = {}  # a node type -> its _fields


def walk_nodes(node: ast.AST) -> list[ast.AST]:
    """`list(ast.walk(node))`: every node under `node` and itself, contexts and operators included, in the same
    (breadth-first) order, in a little over half the time (one list instead of a generator, a deque and two
    nested generators per node). The analysis never changes a tree while it walks it, so a list made at once
    holds what the lazy walk would yield."""
    out = [node]
    append, AST, all_fields = out.append, _AST, _ALL_FIELDS
    for parent in out:  # (a list grows under its own iteration: every appended node is visited in turn)
        cls = type(parent)
        fields = all_fields.get(cls)
        if fields is None:
            fields = all_fields[cls] = cls._fields  # type: ignore[attr-defined]
        for name in fields:
            value = getattr(parent, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, AST):
                        append(item)
            elif isinstance(value, AST):
                append(value)
    return out


# node types _collect does more with than index them
SPECIAL_NODES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Name, ast.Import,
                            ast.ImportFrom, ast.Global, ast.Nonlocal})


def parameter_defaults(args: ast.arguments) -> dict[str, ast.expr]:
    """Each parameter with a default (positional or keyword-only) -> its default expression."""
    positional = [p.arg for p in [*args.posonlyargs, *args.args]]
    defaults = dict(zip(positional[::-1], args.defaults[::-1], strict=False))
    defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None})
    return defaults


def literal_int(node: ast.AST) -> int | None:
    """`3`, `-3` -> the int; anything else (bools included) -> None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = literal_int(node.operand)
        return None if inner is None else -inner
    return None


def literal_value(node: ast.AST | None) -> object:
    try:
        return ast.literal_eval(node) if node is not None else None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def called_name(func: ast.AST) -> str:
    """The last name of what a call calls: `np.testing.assert_allclose` -> `assert_allclose`, `f` -> `f`."""
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


# context managers under which a test expects its body to raise (`pytest.raises`, unittest's `assertRaises*`)
RAISES_CONTEXTS = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})


def expected_to_raise(node: ast.AST, parents: Mapping[ast.AST, ast.AST],
                      naming: Callable[[str], bool] | None = None) -> bool:
    """`node` is in the body of `with pytest.raises(...)` (or `self.assertRaises(...)`) within its function: the
    test expects the statement to raise, so what it would return or leave behind never comes to be. `naming`: only
    a context whose (first) expected error's name it accepts counts."""
    cur: ast.AST | None = parents.get(node)
    while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        if isinstance(cur, ast.With) and any(
                isinstance(ctx := item.context_expr, ast.Call) and called_name(ctx.func) in RAISES_CONTEXTS
                and (naming is None or (bool(ctx.args) and any(naming(called_name(e)) for e in (
                    ctx.args[0].elts if isinstance(ctx.args[0], ast.Tuple) else [ctx.args[0]]))))
                for item in cur.items):
            return True
        cur = parents.get(cur)
    return False


def expects_tracer_error(node: ast.AST, parents: Mapping[ast.AST, ast.AST]) -> bool:
    """`node` is in the body of `with pytest.raises(jax.errors.TracerArrayConversionError):` (or another of JAX's
    tracer errors, `ConcretizationTypeError` among them): the test asserts the very error a traced value raises
    there (manipulapy's `jax.jit(lambda x: np.asarray(x))(a)` under that context)."""
    return expected_to_raise(node, parents, _names_a_tracer_error)


def _names_a_tracer_error(name: str) -> bool:
    return "Tracer" in name or "Concretization" in name or "NonConcrete" in name


def is_assertion(func: ast.AST) -> bool:
    """`self.assertTrue`, `np.testing.assert_allclose`, `chex.assert_trees_all_close`, a name bound to one
    (`assert_allclose = functools.partial(...)`): a check that only reads its arguments."""
    return called_name(func).lower().startswith("assert")


# transformations whose result calls the function it wraps with its own arguments (`jit`), or with each mapped
# element of them at the same positions (`vmap`): what the function draws from a parameter, the call draws from the
# argument there (or from each element of it)
CALLING_ON = frozenset({"jit", "pjit", "filter_jit", "named_call", "checkpoint", "remat", "vmap", "pmap", "filter_vmap",
                        "filter_pmap"})


def through_partial(call: ast.Call, qualname: Callable[[ast.expr], str | None],
                    bound_once: Callable[[ast.Name], ast.expr | None]) -> tuple[ast.expr, list[ast.expr]] | None:
    """The function a call runs through `functools.partial` and the transformations of CALLING_ON
    (`eqx.filter_vmap(partial(single_loss, model))(keys, xs)`, `fn(key, x)` with `fn = partial(f, w)` bound once,
    `jax.vmap(f, in_axes=(None, 0))(w, keys)`): the function (a name or a dotted name) and the leading positional
    arguments the partial filled (the call's own go to the parameters after them); None for any other call, a bare `f(...)` included. `qualname` names
    an expression in the caller's scope; `bound_once` says what a name holds there: the value it is bound to once, the
    name itself when it is not local, None when that is not known."""
    inner: ast.expr = call.func
    while isinstance(inner, ast.Call) and inner.args and not any(isinstance(a, ast.Starred) for a in inner.args):
        q = qualname(inner.func) or ""
        if not (q.startswith(("jax.", "equinox.")) and q.rsplit(".", 1)[-1] in CALLING_ON):
            break
        inner = inner.args[0]  # jax.jit(jax.vmap(f)): what the outermost runs
    if isinstance(inner, ast.Name):
        held = bound_once(inner)
        if held is None:
            return None
        inner = held
    filled: list[ast.expr] = []
    if isinstance(inner, ast.Call):
        if qualname(inner.func) != "functools.partial" or not inner.args or any(
                isinstance(a, ast.Starred) for a in inner.args) or any(k.arg is None for k in inner.keywords):
            return None
        filled, inner = inner.args[1:], inner.args[0]
    if inner is call.func or not isinstance(inner, (ast.Name, ast.Attribute)):
        return None
    return inner, filled
