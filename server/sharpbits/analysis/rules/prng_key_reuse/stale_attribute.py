"""A key kept on an object that nothing ever advances, drawn from by a method the module calls again and again.

    class Sampler:
        def __init__(self, seed):
            self.key = jax.random.key(seed)          # the only store of `key` anywhere in the module
        def sample(self, logits):
            return jax.random.categorical(self.key, logits)   # the same bits on every call
    ...
    tokens = [sampler.sample(z) for _ in range(8)]  # eight calls on one object: eight equal draws

The key flow (key_flow.py) follows keys inside one scope; here the draw and the repetition are in different
functions, and the key is the same on every call only because no code stores another one. So this is a fact of the
whole module: the attribute is bound only in `__init__` (no other method, no code outside the class, no
`setattr`/`del` writes it), the method draws from `self.<attr>` itself (a sampler or `split`), and the method is
called more than once on one object: in a loop or comprehension whose receiver the loop does not rebind, or twice
on one name in one function. A method called once per object (`init_params`) is not reported.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from sharpbits.analysis.model import FunctionInfo, ModuleModel, Scopes
from sharpbits.analysis.rules.prng_key_reuse.key_flow import KeyFlow
from sharpbits.analysis.syntax import walk_nodes

# jax.random functions that make a key from data: what `__init__` stores when it keeps a fresh key
_KEY_MAKERS = {"jax.random.PRNGKey", "jax.random.key", "jax.random.fold_in", "jax.random.wrap_key_data",
               "jax.random.split", "jax.random.clone"}


@dataclass(frozen=True)
class StaleDraw:
    node: ast.AST  # `self.key` as drawn from
    label: str  # "self.key"
    method: str  # "sample"
    repeated_at: int  # a line where the method is called again and again


def stale_attribute_draws(model: ModuleModel, flow: KeyFlow) -> list[StaleDraw]:
    scopes = model.scopes
    classes: dict[str, dict[str, FunctionInfo]] = {}
    for fn in scopes.functions.values():
        if fn.parent is None and "." in fn.qualname and fn.params[:1] == ["self"] and not isinstance(fn.node, ast.Lambda):
            cls, name = fn.qualname.rsplit(".", 1)
            classes.setdefault(cls, {})[name] = fn
    if not classes:
        return []
    owners: dict[str, int] = {}
    for methods in classes.values():
        for name in methods:
            owners[name] = owners.get(name, 0) + 1
    found: list[StaleDraw] = []
    # the module's writes of attributes, looked for once a method draws from `self.<attr>` (most modules have none:
    # walking every attribute and call of a 5,000-line module on each edit was 3% of its analysis)
    writes: tuple[dict[str, list[tuple[FunctionInfo | None, str]]], dict[str, set[str]]] | None = None
    for cls, methods in classes.items():
        init = methods.get("__init__")
        if init is None:
            continue
        for name, method in methods.items():
            if name == "__init__" or owners[name] != 1:
                continue
            draws = [key for call in scopes.own_nodes(method) if isinstance(call, ast.Call)
                     for key in [_self_key_drawn(flow, call, method)] if key is not None]
            if not draws:
                continue
            if writes is None:
                writes = _attribute_writes(scopes)
            written, bases = writes
            repeated = None
            for key in draws:
                if not _kept_once_in_init(model, init, key.attr, _writes_reaching(written.get(key.attr, []), cls, bases)):
                    continue
                if repeated is None:
                    repeated = _called_repeatedly(model, name, method)
                    if repeated is None:
                        break
                found.append(StaleDraw(key, f"self.{key.attr}", name, repeated))
    return found


def _attribute_writes(scopes: Scopes) -> tuple[dict[str, list[tuple[FunctionInfo | None, str]]], dict[str, set[str]]]:
    """attribute name -> the functions that store or delete it, with the class whose `self` they write ("" for any
    other receiver: `obj.key = ...`, `setattr`); and each class of the module's base names."""
    written: dict[str, list[tuple[FunctionInfo | None, str]]] = {}
    for node in scopes.nodes(ast.Attribute):
        if isinstance(node.ctx, (ast.Store, ast.Del)):  # type: ignore[attr-defined]
            writer = scopes.enclosing_function(node)
            on_self = isinstance(node.value, ast.Name) and node.value.id == "self"  # type: ignore[attr-defined]
            top = writer.outermost.qualname if writer is not None else ""
            owner = top.rsplit(".", 1)[0] if on_self and "." in top else ""
            written.setdefault(node.attr, []).append((writer, owner))  # type: ignore[attr-defined]
    for node in scopes.nodes(ast.Call):
        if (isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr")  # type: ignore[attr-defined]
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)):  # type: ignore[attr-defined]
            written.setdefault(str(node.args[1].value), []).append((None, ""))  # type: ignore[attr-defined]
    bases = {c.name: {ast.unparse(b).rsplit(".", 1)[-1] for b in c.bases}  # type: ignore[attr-defined]
             for c in scopes.nodes(ast.ClassDef)}
    return written, bases


def _is_self_attribute(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def _self_key_drawn(flow: KeyFlow, call: ast.Call, method: FunctionInfo) -> ast.Attribute | None:
    """`self.<attr>` when this call is a `jax.random` sampler or `split` drawing from it, or a call of a function of
    this module that consumes the parameter it is handed in on every path (`sample_top_k(self.rng, logits)` with
    `sample_top_k` drawing from its `rng`): the same bits on every call of the method either way."""
    key, how = flow.random_key_arg(call, method)
    if how in ("draw", "split") and _is_self_attribute(key):
        assert isinstance(key, ast.Attribute)
        return key
    if not any(_is_self_attribute(a) for a in [*call.args, *(k.value for k in call.keywords)]):
        return None
    callee = flow.callee_of(call, method)
    if callee is None or isinstance(callee.node, ast.Lambda) or callee.qualname.endswith(".__init__"):
        return None
    args = callee.node.args
    positional = [a.arg for a in [*args.posonlyargs, *args.args]]
    if positional[:1] in (["self"], ["cls"]) and isinstance(call.func, ast.Attribute):
        positional = positional[1:]  # a method called on its object: the arguments start after `self`
    consumed = flow.parameter_consumption(callee)
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            break
        if _is_self_attribute(arg) and i < len(positional) and consumed.get(positional[i]) == "always":
            assert isinstance(arg, ast.Attribute)
            return arg
    for kw in call.keywords:
        if kw.arg is not None and _is_self_attribute(kw.value) and consumed.get(kw.arg) == "always":
            assert isinstance(kw.value, ast.Attribute)
            return kw.value
    return None


def _writes_reaching(writes: list[tuple[FunctionInfo | None, str]], cls: str,
                     bases: dict[str, set[str]]) -> list[FunctionInfo | None]:
    """The writes that may change the attribute of an object of `cls`: all but those through `self` in the methods
    of another class of this module that does not name `cls` among its bases."""
    short = cls.rsplit(".", 1)[-1]
    return [fn for fn, owner in writes
            if not owner or owner == cls or short in bases.get(owner.rsplit(".", 1)[-1], {short})]


def _kept_once_in_init(model: ModuleModel, init: FunctionInfo, attr: str, where: list[FunctionInfo | None]) -> bool:
    """The attribute is written only by `__init__`, and what it stores there is a key made by `jax.random` or a
    parameter of `__init__` (the key the caller hands over)."""
    if not where or any(fn is not init for fn in where):
        return False
    for node in model.scopes.own_nodes(init):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            elts = target.elts if isinstance(target, ast.Tuple) else [target]
            if not any(isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name)
                       and t.value.id == "self" for t in elts):
                continue
            value = node.value
            if isinstance(value, ast.Subscript):
                value = value.value  # self.key = jax.random.split(key)[0]
            if isinstance(value, ast.Call) and model.scopes.qualname(value.func, init) in _KEY_MAKERS:
                continue
            if isinstance(value, ast.Name) and value.id in init.params and not isinstance(target, ast.Tuple):
                continue
            return False
    return True


def _called_repeatedly(model: ModuleModel, name: str, method: FunctionInfo) -> int | None:
    """The line of a call `obj.<name>(...)` that runs more than once on one object: inside a loop or comprehension
    of its function that does not rebind `obj`, or the second of two calls on one name in one function."""
    scopes = model.scopes
    seen: dict[tuple[int, str], int] = {}
    short = method.qualname.rsplit(".", 1)[0].rsplit(".", 1)[-1]
    if name == "__iter__":
        return _iterated_repeatedly(model, short)
    for call in scopes.nodes(ast.Call):
        func = call.func  # type: ignore[attr-defined]
        if name == "__call__" and isinstance(func, ast.Name):
            scope = scopes.enclosing_function(call)
            if not _bound_once_to(model, scope, func.id, short):
                continue  # `layer(x)` calls `__call__` only where `layer = NoisyLayer(...)` in this scope
            receiver = func.id
        elif isinstance(func, ast.Attribute) and func.attr == name and isinstance(func.value, ast.Name):
            receiver = func.value.id
            scope = scopes.enclosing_function(call)
        else:
            continue
        if scope is method:
            continue  # a recursive call
        if receiver == "self" and (scope is None or scope.qualname.rsplit(".", 1)[0] != method.qualname.rsplit(".", 1)[0]):
            continue
        loop = _enclosing_loop(model, call, scope)
        if loop is not None and not _rebinds(loop, receiver):
            return call.lineno  # type: ignore[attr-defined]
        key = (id(scope), receiver)
        if key in seen and not _rebound_in(model, scope, receiver):
            return call.lineno  # type: ignore[attr-defined]
        seen[key] = call.lineno  # type: ignore[attr-defined]
    return None


def _iterated_repeatedly(model: ModuleModel, cls: str) -> int | None:
    """The line of a `for x in obj` (or a comprehension over `obj`), `obj` bound once in its scope to `cls(...)`,
    that runs more than once: inside a loop or comprehension that does not rebind `obj`, or the second iteration
    over one name in one scope. Each runs `obj.__iter__()` afresh."""
    scopes = model.scopes
    seen: set[tuple[int, str]] = set()
    iterations: list[tuple[ast.AST, ast.AST]] = [(n, n.iter) for n in scopes.nodes(ast.For)]  # type: ignore[attr-defined]
    for comp in scopes.nodes(ast.comprehension):
        iterations.append((comp, comp.iter))  # type: ignore[attr-defined]
    iterations.sort(key=lambda pair: (getattr(pair[1], "lineno", 0), getattr(pair[1], "col_offset", 0)))
    for holder, it in iterations:
        if not isinstance(it, ast.Name):
            continue
        scope = scopes.enclosing_function(it)
        if not _bound_once_to(model, scope, it.id, cls):
            continue
        start: ast.AST = holder
        if isinstance(holder, ast.comprehension):
            start = scopes.parents.get(holder) or holder  # the comprehension itself: its loop is the one outside
        loop = _enclosing_loop(model, start, scope)
        if loop is not None and not _rebinds(loop, it.id):
            return it.lineno
        key = (id(scope), it.id)
        if key in seen:
            return it.lineno
        seen.add(key)
    return None


def _enclosing_loop(model: ModuleModel, node: ast.AST, scope: FunctionInfo | None) -> ast.AST | None:
    """The innermost `for`/`while` body or comprehension element of this scope that holds `node`."""
    root = scope.node if scope is not None else model.scopes.tree
    child, cur = node, model.scopes.parents.get(node)
    while cur is not None and cur is not root:
        if isinstance(cur, (ast.For, ast.AsyncFor, ast.While)) and child in cur.body:
            return cur
        if isinstance(cur, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) and not any(
                child is g for g in cur.generators) and all(not _iterates_once(g.iter) for g in cur.generators):
            return cur
        child, cur = cur, model.scopes.parents.get(cur)
    return None


def _iterates_once(node: ast.AST) -> bool:
    return isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) <= 1


def _rebinds(loop: ast.AST, name: str) -> bool:
    """The loop (its target or its body) binds `name`: a new object on each iteration, maybe."""
    for node in walk_nodes(loop):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            return True
    return False


def _rebound_in(model: ModuleModel, scope: FunctionInfo | None, name: str) -> bool:
    """`name` bound more than once in this scope (a second object, maybe)."""
    stores = [n for n in model.scopes.own_nodes(scope) if isinstance(n, ast.Name) and n.id == name
              and isinstance(n.ctx, ast.Store)]
    return len(stores) > 1


def _bound_once_to(model: ModuleModel, scope: FunctionInfo | None, name: str, cls: str) -> bool:
    """`name` is bound once in this scope, to `cls(...)`."""
    stores = [n for n in model.scopes.own_nodes(scope) if isinstance(n, ast.Name) and n.id == name
              and isinstance(n.ctx, ast.Store)]
    if len(stores) != 1:
        return False
    assign = model.scopes.parents.get(stores[0])
    return (isinstance(assign, ast.Assign) and assign.targets == [stores[0]] and isinstance(assign.value, ast.Call)
            and isinstance(assign.value.func, ast.Name) and assign.value.func.id == cls)
