"""Keys a framework's `apply` surely draws from: what key_flow.py's `argument_uses` asks before it treats a call
it cannot see as a "maybe".

- flax linen: `model.apply(variables, x, rngs={"dropout": key})` of a module class of this module whose code builds
  a `Dropout` layer or asks for `make_rng("dropout")`: linen hands `key` to every `make_rng("dropout")` of the run,
  so the dropout masks are drawn from it (`model.apply(..., rngs={"dropout": key})` twice: the same masks).
  Not when the call switches the layer off (`train=False`, `deterministic=True`, ...).
- haiku: `net.apply(params, rng, x)` with `net = hk.transform(f)` and `f` of this module asking haiku for a key
  (`hk.next_rng_key()`, `hk.dropout(...)`) at its top level, or under `if flag:` where the call passes
  `flag=True` (or leaves out a flag whose default is True), also through `apply = jax.jit(net.apply)`: haiku derives every `next_rng_key()` of the run from `rng` alone, so each call with one `rng` draws
  the same numbers.

Everything else is left to key_flow.py (None).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from sharpbits.analysis.scopes import FunctionInfo
from sharpbits.analysis.syntax import walk_nodes
from sharpbits.analysis.traced import HAIKU_TRANSFORMS

KeyFlow = Any  # key_flow.KeyFlow, which imports this module (its `_linen_module`, `_haiku_function` are asked)

_OFF = {"train": False, "training": False, "is_training": False, "deterministic": True, "inference": True,
        "eval": True, "evaluate": True}
_HAIKU_DRAWS = {"haiku.next_rng_key", "haiku.next_rng_keys", "haiku.dropout"}


def apply_draws(flow: KeyFlow, call: ast.Call, scope: FunctionInfo | None) -> list[tuple[ast.AST, str]] | None:
    func = _jitted_apply(flow, call.func, scope)
    if not (isinstance(func, ast.Attribute) and func.attr == "apply") or _switched_off(call):
        return None
    found = _linen_apply(flow, call, func, scope)
    if found is None:
        found = _haiku_apply(flow, call, func, scope)
    return found


_PASSING_ON = {"jax.jit", "equinox.filter_jit"}


def _jitted_apply(flow: KeyFlow, func: ast.expr, scope: FunctionInfo | None) -> ast.expr:
    """The `X.apply` a call runs with its own arguments through `jax.jit`: `jax.jit(net.apply)(params, rng, x)`, or
    a name bound once to `jax.jit(net.apply)` (in the scope, or at module level when the scope does not bind it);
    `func` itself otherwise."""
    value: ast.expr = func
    if isinstance(func, ast.Name):
        home = scope if scope is not None and flow.scopes.is_local(func.id, scope) else None
        bound = flow._assigned_in(home)[0].get(func.id, ())  # (kept per scope and analysis)
        if len(bound) != 1 or bound[0] is None or flow._declared_global(func.id):
            return func
        value, scope = bound[0], home
    if (isinstance(value, ast.Call) and len(value.args) == 1  # (jit's keywords keep the positions)
            and isinstance(value.args[0], ast.Attribute) and value.args[0].attr == "apply"
            and flow.scopes.qualname(value.func, scope) in _PASSING_ON):
        return value.args[0]
    return func


def _switched_off(call: ast.Call) -> bool:
    return any(kw.arg in _OFF and isinstance(kw.value, ast.Constant) and kw.value.value is _OFF[kw.arg]
               for kw in call.keywords)


def _others(call: ast.Call, drawn: Sequence[ast.AST]) -> list[tuple[ast.AST, str]]:
    return [(a, "maybe") for a in [*call.args, *(k.value for k in call.keywords)] if all(a is not d for d in drawn)]


def _linen_apply(flow: KeyFlow, call: ast.Call, func: ast.Attribute,
                 scope: FunctionInfo | None) -> list[tuple[ast.AST, str]] | None:
    rngs = next((k.value for k in call.keywords if k.arg == "rngs"), None)
    if not isinstance(rngs, ast.Dict):
        return None
    if isinstance(func.value, ast.Name) and scope is not None and not flow.scopes.is_local(func.value.id, scope):
        scope = None  # a module-level `model = Net()` read inside a (jitted) train step
    if not flow._linen_module(func.value, scope):
        return None
    cls = _module_class_of(flow, func.value, scope)
    if cls is None or not _uses_dropout_stream(cls):
        return None
    keys = [v for k, v in zip(rngs.keys, rngs.values, strict=True)
            if isinstance(k, ast.Constant) and k.value == "dropout"]
    if not keys:
        return None
    found: list[tuple[ast.AST, str]] = [(k, "always") for k in keys]
    return found + _others(call, keys)


def _module_class_of(flow: KeyFlow, receiver: ast.AST, scope: FunctionInfo | None) -> ast.ClassDef | None:
    """The class of this module that built `receiver` (`model = MLP()` bound once in the scope, or `MLP()`)."""
    value: ast.AST | None = receiver
    if isinstance(receiver, ast.Name):
        bound = [n.value for n in flow.scopes.own_nodes(scope) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == receiver.id]
        value = bound[0] if len(bound) == 1 else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return flow.module_classes().get(value.func.id)
    return None


def _uses_dropout_stream(cls: ast.ClassDef) -> bool:
    """The class builds a `Dropout` layer or asks for a key of the "dropout" stream."""
    for node in walk_nodes(cls):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id if isinstance(
            node.func, ast.Name) else ""
        if name == "Dropout" or (name == "make_rng" and node.args and isinstance(node.args[0], ast.Constant)
                                 and node.args[0].value == "dropout"):
            return True
    return False


def _haiku_apply(flow: KeyFlow, call: ast.Call, func: ast.Attribute,
                 scope: FunctionInfo | None) -> list[tuple[ast.AST, str]] | None:
    receiver = func.value
    if not isinstance(receiver, ast.Name):
        return None
    home = scope if scope is not None and flow.scopes.is_local(receiver.id, scope) else None
    bound = [n.value for n in flow.scopes.own_nodes(home) if isinstance(n, ast.Assign) and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name) and n.targets[0].id == receiver.id]
    if len(bound) != 1 or not (isinstance(bound[0], ast.Call) and len(bound[0].args) == 1 and not bound[0].keywords):
        return None
    made = bound[0]
    position = HAIKU_TRANSFORMS.get(flow.scopes.qualname(made.func, home) or "")
    transformed = made.args[0]
    if position is None or not isinstance(transformed, ast.Name):
        return None
    node = flow._haiku_function(transformed.id, home)
    if not isinstance(node, ast.FunctionDef) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    rng = next((k.value for k in call.keywords if k.arg == "rng"), None)
    if rng is None and len(call.args) > position:
        rng = call.args[position]
    if rng is None:
        return None
    params = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
    passed: dict[str, ast.expr] = dict(zip(params[::-1], node.args.defaults[::-1], strict=False))
    passed.update({a.arg: d for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True) if d is not None})
    passed.update(zip(params, call.args[position + 1:], strict=False))  # (a flag left out keeps its default)
    passed.update({k.arg: k.value for k in call.keywords if k.arg is not None})
    if not _surely_asks_haiku(flow, node.body, passed, home):
        return None
    return [(rng, "always"), *_others(call, [rng])]


def _surely_asks_haiku(flow: KeyFlow, body: list[ast.stmt], passed: dict[str, ast.expr],
                       where: FunctionInfo | None) -> bool:
    """A statement of `body` (or of an `if flag:` branch whose flag the call passes as True) calls one of haiku's
    key functions."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            test = stmt.test
            value = passed.get(test.id) if isinstance(test, ast.Name) else None
            if isinstance(value, ast.Constant) and value.value is True and _surely_asks_haiku(
                    flow, stmt.body, passed, where):
                return True
            continue
        if isinstance(stmt, (ast.For, ast.While, ast.With, ast.Try, ast.FunctionDef, ast.ClassDef, ast.Match)):
            continue
        for node in walk_nodes(stmt):
            if isinstance(node, ast.Call) and flow.scopes.qualname(node.func, where) in _HAIKU_DRAWS:
                return True
    return False
