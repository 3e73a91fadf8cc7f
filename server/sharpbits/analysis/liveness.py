"""Whether the values one statement computes are still around when another statement runs.

Two draws from one PRNG key give the same numbers; that hurts when the two results *meet*: when something reads
both (two noise terms added, a batch and the parameters trained on the previous one, the same sample plotted
twice). When every value computed from the first draw is dead before the second draw happens (a test that sets a
game up again with `state = init(key)` after asserting on the last state, a sweep that redraws per setting and only
asserts on each), no computation sees both, and the reuse is a replay, not a correlation.

`values_dead_before(model, scope, first, second)` answers that for two statements of one function, walking the
statements between them in execution order with the names that hold the first statement's values (`live`):
an assignment reading a live name makes its targets live, one that does not read any kills the names it rebinds,
and anything else that reads a live value (a call that may store it, a store into an object or container, a
return, a closure, a loop going round again, module-level code whose names outlive it) counts as the values
meeting. An assertion only reads its arguments. Whenever the walk cannot tell, the values meet: the answer "dead"
is only given when the code shows it.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Protocol

from sharpbits.analysis.flow import statement_lists
from sharpbits.analysis.syntax import is_assertion, walk_nodes

_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match)


class _Parents(Protocol):
    parents: dict[ast.AST, ast.AST]


class _Meets(Exception):
    """Raised inside the walk as soon as the values may meet."""


class _Ends(Exception):
    """Raised when the path returns or raises without reading a live value: the values die with the call."""


def values_dead_before(model: _Parents, first: ast.stmt, second: ast.stmt, same_statement: bool = False) -> bool:
    """True when every value `first` binds is dead by the time `second` runs (on the path that runs `first` and
    then `second`), so nothing reads both. `same_statement`: `second` is `first` run again by an enclosing loop."""
    seeds = _bound_names(first)
    if seeds is None:
        return False
    block, index = _block_of(model, first)
    if block is None:
        return False
    try:
        if same_statement:
            return _dead_around_loop(model, block, index, seeds)
        live, climbed = set(seeds), False
        later = _ancestor_in(model, second, block)
        while later is None:  # the first is in a branch the second is not in: out of it, on after it
            live = _walk(block[index + 1 :], live, after=False)
            owner = _owner_of(model, block)
            if isinstance(owner, (ast.For, ast.AsyncFor, ast.While)) and owner.body is block and not owner.orelse:
                live = _rest_of_loop(owner, live)  # out of a loop: the later iterations, then on after it
            elif not isinstance(owner, (ast.If, ast.With, ast.AsyncWith)):
                return False
            block, index = _block_of(model, owner)
            if block is None:
                return False
            later, climbed = _ancestor_in(model, second, block), True
        position = _index(block, later)
        if position > index:
            live = _walk(block[index + 1 : position], live, after=False)
            return _dead_along(model, block, position, second, live)
        if position < index and not climbed:  # the second runs in a later iteration of the loop whose body this is
            return _dead_around_loop(model, block, index, seeds, stop=position)
    except _Meets:
        return False
    except _Ends:
        return True
    return False


def _dead_along(model: _Parents, block: list[ast.stmt], position: int, second: ast.AST, live: set[str]) -> bool:
    """From the statement at `position` (which is or holds `second`) to the end of the function, on the path
    through `second`: dead when no live value is read from `second` on."""
    later = block[position]
    inner = None if later is second else _inner_block(model, later, second)
    looped = None if later is second or inner is not None else _loop_body_holding(model, later, second)
    if looped is not None:  # `second` runs in a loop's body: from it on, this and every later iteration
        assert isinstance(later, (ast.For, ast.AsyncFor, ast.While))
        body, at = looped
        _enter_iteration(later, live)
        live = _walk(body[:at], live, after=False)
        live = _walk(body[at:], live, after=True)
        _enter_iteration(later, live)
        _walk(body, live, after=True)  # a later iteration: it can only rebind what is live, so this one says all
        live = _walk(block[position + 1 :], live, after=True)
        return _dead_after_block(model, block, live)
    if inner is None:  # `second` is this statement, or sits in one whose inside is not followed
        live = _walk(block[position:], live, after=True)
        return _dead_after_block(model, block, live)
    if _header_reads(later) & live:
        raise _Meets
    inner_block, inner_position = inner
    live = _walk(inner_block[:inner_position], live, after=False)
    live = _walk(inner_block[inner_position:], live, after=True)
    live = _walk(block[position + 1 :], live, after=True)  # the branch ended without leaving: on after it
    return _dead_after_block(model, block, live)


def _inner_block(model: _Parents, compound: ast.stmt, node: ast.AST) -> tuple[list[ast.stmt], int] | None:
    """The block of an `if`, `with` or `try` (not a loop: it runs its body again) holding `node`, and the
    position of the statement there that is or holds it."""
    if not isinstance(compound, (ast.If, ast.With, ast.AsyncWith)):
        return None  # a loop runs its body again; a `try` may go on in a handler or `finally`
    for block in statement_lists(compound):
        later = _ancestor_in(model, node, block)
        if later is not None:
            if later is not node and isinstance(later, _COMPOUND):
                return None  # nested deeper: not followed
            return block, _index(block, later)
    return None


def _header_reads(compound: ast.stmt) -> set[str]:
    if isinstance(compound, ast.If):
        return _reads(compound.test)
    if isinstance(compound, (ast.With, ast.AsyncWith)):
        return set().union(*(_reads(item) for item in compound.items))
    return set()


def _dead_around_loop(model: _Parents, block: list[ast.stmt], index: int, seeds: set[str], stop: int | None = None) -> bool:
    """The statement at `index` of a loop body runs again in the next iteration (or, with `stop`, the one at
    `stop` does): this iteration's values must be dead before that one runs, and stay unread after it."""
    statement = block[index]
    stop_node = block[stop] if stop is not None else None
    while isinstance(model.parents.get(block[0]), (ast.With, ast.AsyncWith)):  # a `with` inside the loop body
        outer, _ = _block_of(model, model.parents[block[0]])  # type: ignore[arg-type]
        if outer is None:
            return False
        block = outer
    loop = model.parents.get(block[0]) if block else None
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) or loop.body is not block:
        return False
    block = _without_withs(block)
    index = _index(block, statement)
    stop = index if stop_node is None else _index(block, stop_node)
    live = _walk(block[index + 1 :], set(seeds), after=False)
    if isinstance(loop, ast.While):
        if _reads(loop.test) & live:  # the test is evaluated before each iteration
            raise _Meets
    else:
        _kill(loop.target, live)
    live = _walk(block[:stop], live, after=False)
    live = _walk(block[stop:], live, after=True)
    return not live  # what survives a whole iteration could be read by any later one or after the loop


def _loop_body_holding(model: _Parents, loop: ast.stmt, node: ast.AST) -> tuple[list[ast.stmt], int] | None:
    """The body of a loop without `else` (its `with`s opened up) that holds `node` as one of its statements, not
    nested deeper, and that statement's position there."""
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) or loop.orelse:
        return None
    body = _without_withs(loop.body)
    later = _ancestor_in(model, node, body)
    if later is None or (later is not node and isinstance(later, _COMPOUND)):
        return None
    return body, _index(body, later)


def _enter_iteration(loop: ast.For | ast.AsyncFor | ast.While, live: set[str]) -> None:
    """The header of a loop runs before each iteration: its reads of a live value meet it, a `for` target is
    bound anew."""
    if isinstance(loop, ast.While):
        if _reads(loop.test) & live:
            raise _Meets
    else:
        if _reads(loop.iter) & live:
            raise _Meets
        _kill(loop.target, live)


def _rest_of_loop(loop: ast.For | ast.AsyncFor | ast.While, live: set[str]) -> set[str]:
    """The live names once the loop whose body just bound them has ended: any later iteration runs the whole
    body (values it reads before binding them again meet there), until nothing changes."""
    body = _without_withs(loop.body)
    for _ in range(3):
        before = set(live)
        _enter_iteration(loop, live)
        live = _walk(body, live, after=False)
        if live <= before:
            return live | before  # the loop may also end before another iteration
    raise _Meets


def _without_withs(block: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a block with every `with` opened up: its context expressions (as reads), then its
    body, in the order they run."""
    out: list[ast.stmt] = []
    for stmt in block:
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            out.extend(ast.Expr(value=item.context_expr) for item in stmt.items)
            out.extend(_without_withs(stmt.body))
        else:
            out.append(stmt)
    return out


def _walk(statements: list[ast.stmt], live: set[str], after: bool) -> set[str]:
    """The live names after running `statements`. Before the second statement (`after` False) live values may
    flow into new names; from it on (`after` True) any read of one means the values meet."""
    for stmt in statements:
        live = _statement(stmt, live, after)
    return live


def _statement(stmt: ast.stmt, live: set[str], after: bool) -> set[str]:
    reads = _reads(stmt) & live
    if isinstance(stmt, (ast.Return, ast.Raise)):
        if reads or not after:
            raise _Meets  # returned or raised, or a path we are not following
        raise _Ends
    if not live:
        return live
    if after and reads:
        raise _Meets
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if reads:
            _flow(targets, live)
        elif stmt.value is not None and not isinstance(stmt, ast.AugAssign):
            for target in targets:
                _kill(target, live)
        return live
    if isinstance(stmt, ast.Expr):
        if reads and not _is_assertion_call(stmt.value):
            raise _Meets  # a call that may keep the value (`results.append(x)`, `plot(x)`, `train(batch)`)
        return live
    if isinstance(stmt, ast.Delete):
        for target in stmt.targets:
            _kill(target, live)
        return live
    if isinstance(stmt, (ast.Assert, ast.Pass, ast.Import, ast.ImportFrom)) or not reads:
        if isinstance(stmt, (ast.Global, ast.Nonlocal, ast.Break, ast.Continue)):
            raise _Meets  # the path goes where it is not followed
        return live
    if isinstance(stmt, _COMPOUND):
        _flow_into(stmt, live)
        return live
    raise _Meets  # a def or class that closes over a live value, ...


def _flow(targets: Sequence[ast.expr], live: set[str]) -> None:
    for target in targets:
        names = _target_names(target)
        if names is None:
            raise _Meets  # stored into an object or a container that outlives this flow
        live |= names


def _flow_into(stmt: ast.stmt, live: set[str]) -> None:
    """A branch or loop (before the second statement) that reads a live value: everything it binds may hold
    one afterwards (nothing it rebinds is surely rebound)."""
    nodes = list(walk_nodes(stmt))
    if any(isinstance(n, (ast.Return, ast.Raise, ast.Yield, ast.YieldFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Global, ast.Nonlocal)) for n in nodes):
        raise _Meets
    size = -1
    while size != len(live):
        size = len(live)
        for node in nodes:
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                if node.value is not None and (_reads(node.value) | _reads_of_targets(node)) & live:
                    _flow(node.targets if isinstance(node, ast.Assign) else [node.target], live)
            elif isinstance(node, (ast.For, ast.AsyncFor)) and _reads(node.iter) & live:
                _flow([node.target], live)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if item.optional_vars is not None and _reads(item.context_expr) & live:
                        _flow([item.optional_vars], live)
            elif isinstance(node, ast.Expr) and _reads(node) & live and not _is_assertion_call(node.value):
                raise _Meets
            elif isinstance(node, ast.NamedExpr) and _reads(node.value) & live:
                live.add(node.target.id)


def _reads_of_targets(node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> set[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    out = _reads(node.target) if isinstance(node, ast.AugAssign) else set()
    for target in targets:
        if not isinstance(target, (ast.Name, ast.Tuple, ast.List, ast.Starred)):
            out |= _reads(target)
    return out


def _dead_after_block(model: _Parents, block: list[ast.stmt], live: set[str]) -> bool:
    """At the end of a block: dead when nothing is live, or the block is a function's body (its locals end with
    it); a `with` block goes on after the `with` statement; anything else (a loop, a branch, module level) is not
    followed."""
    while live:
        owner = _owner_of(model, block)
        if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return True
        if not isinstance(owner, (ast.With, ast.AsyncWith)):
            return False
        outer, index = _block_of(model, owner)
        if outer is None:
            return False
        live = _walk(outer[index + 1 :], live, after=True)
        block = outer
    return True


def _owner_of(model: _Parents, block: list[ast.stmt]) -> ast.AST | None:
    return model.parents.get(block[0]) if block else None


def _index(block: list[ast.stmt], stmt: ast.AST) -> int:
    return next(i for i, s in enumerate(block) if s is stmt)


def _block_of(model: _Parents, stmt: ast.stmt) -> tuple[list[ast.stmt] | None, int]:
    parent = model.parents.get(stmt)
    if parent is None or isinstance(parent, ast.Module):
        return None, -1  # module level: its names outlive the module's code
    for block in statement_lists(parent):
        if any(s is stmt for s in block):
            return block, _index(block, stmt)
    return None, -1  # an except handler or a match case: not followed


def _ancestor_in(model: _Parents, node: ast.AST, block: list[ast.stmt]) -> ast.stmt | None:
    cur: ast.AST | None = node
    while cur is not None:
        if any(s is cur for s in block):
            return cur  # type: ignore[return-value]
        cur = model.parents.get(cur)
    return None


def _bound_names(stmt: ast.stmt) -> set[str] | None:
    """The names an assignment binds, or None when it stores elsewhere (an attribute, a container) or is not an
    assignment: then its values are not followed."""
    if isinstance(stmt, ast.Assign):
        return _target_names(ast.Tuple(elts=list(stmt.targets), ctx=ast.Store())) or None
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        return _target_names(stmt.target)
    return None


def _target_names(target: ast.AST) -> set[str] | None:
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        names: set[str] = set()
        for element in target.elts:
            found = _target_names(element)
            if found is None:
                return None
            names |= found
        return names
    return None


def _kill(target: ast.AST, live: set[str]) -> None:
    for node in walk_nodes(target):
        if isinstance(node, ast.Name):
            live.discard(node.id)


_SCOPING = (ast.Lambda, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _reads(node: ast.AST) -> set[str]:
    """The names an expression or statement reads; not a lambda's parameters nor a comprehension's own variables
    read inside them (`vmap(lambda u: f(u))(xs)` reads `f` and `xs`, not an outer `u`)."""
    nodes = list(walk_nodes(node))
    if not any(isinstance(n, _SCOPING) for n in nodes):
        return {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    out: set[str] = set()
    _visit_reads(node, frozenset(), out)
    return out


def _visit_reads(n: ast.AST, shadowed: frozenset[str], out: set[str]) -> None:
    """_reads' walk: the names `n` reads that no lambda or comprehension around them binds (a module-level
    function: a closure calling itself would leave a cycle for the collector)."""
    if isinstance(n, ast.Lambda):
        a = n.args
        for default in [*a.defaults, *(d for d in a.kw_defaults if d is not None)]:
            _visit_reads(default, shadowed, out)
        own = {p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x)]}
        _visit_reads(n.body, shadowed | own, out)
        return
    if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        inner = shadowed
        for i, generator in enumerate(n.generators):
            _visit_reads(generator.iter, shadowed if i == 0 else inner, out)  # the first iterable is read outside
            inner = inner | {t.id for t in walk_nodes(generator.target) if isinstance(t, ast.Name)}
            for test in generator.ifs:
                _visit_reads(test, inner, out)
        for part in ([n.key, n.value] if isinstance(n, ast.DictComp) else [n.elt]):
            _visit_reads(part, inner, out)
        return
    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in shadowed:
        out.add(n.id)
    for child in ast.iter_child_nodes(n):
        _visit_reads(child, shadowed, out)


def _is_assertion_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and is_assertion(node.func)
