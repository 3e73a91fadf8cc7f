"""One forward-dataflow driver over a scope's statements, and the one list of where statements hold blocks.

Every analysis that follows values through statements in order (value kinds in kinds.py, the key flow of
prng-key-reuse in rules/prng_key_reuse/key_flow.py) is a `ForwardFlow`: the driver knows the shapes of Python's
statements (which fields are blocks, that an `if` runs one of two blocks, that a loop body runs again with what the previous iteration
left, that a `try`'s handlers start from any point of its body, that one `match` case runs) and the analysis
supplies the transfer functions: what a simple statement does to its state (`simple`), what a header expression
reads (`test`, `loop_head`, `loop_entry`, `with_item`, `case_entry`), and how two states join (`join`). A state of
None means the point is not reached (after a `return`).

Loops run twice at most: the second pass sees the kinds or keys the first one left (what later iterations see),
unless `converged` says the first one changed nothing. Loops nested in a second pass run once: their own second
pass already ran in the first, so the work grows with the square of the nesting depth, not twice per level.

`blocks` and `headers` list the blocks and header expressions of a statement for the analyses that walk
statements without a state (liveness, donation, global changes, execution).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")


TRY: tuple[type, ...] = (ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))  # `except*`: Python 3.11+
LOOP = (ast.For, ast.AsyncFor, ast.While)
# the statements holding blocks the driver enters (a def's or class's body runs at another time)
COMPOUND = (ast.If, *LOOP, *TRY, ast.With, ast.AsyncWith, ast.Match)


def is_try(stmt: ast.AST) -> bool:
    return isinstance(stmt, TRY)


def blocks(stmt: ast.AST) -> list[list[ast.stmt]]:
    """The statement blocks directly inside a compound statement, in source order (empty for a simple one;
    a nested function's or class's body is not one of its blocks: it runs at another time)."""
    if isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While)):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [stmt.body]
    if is_try(stmt):
        return [stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody]  # type: ignore[attr-defined]
    if isinstance(stmt, ast.Match):
        return [case.body for case in stmt.cases]
    return []


def statement_lists(node: ast.AST) -> list[list[ast.stmt]]:
    """Every statement list a node holds directly: a compound statement's blocks, and the body of a module,
    function, class, `except` handler or `match` case (for walking up from a statement to its block)."""
    lists = [getattr(node, f) for f in ("body", "orelse", "finalbody") if isinstance(getattr(node, f, None), list)]
    lists += [h.body for h in getattr(node, "handlers", [])]
    lists += [c.body for c in getattr(node, "cases", [])]
    return lists


def runs_at_least_once(stmt: ast.AST, constant: Callable[[ast.expr], object] | None = None) -> bool:
    """A `for` over `range(5)` (a positive count written as a number or known as a constant by `constant`, or
    `range(a, b)` of such numbers with `a < b`) or
    over a literal list or tuple of items, whose body holds no `break` or `continue`: its whole body runs at least
    once, so after it nothing is as it was before it (a warm-up loop `for _ in range(5): key, k = split(key)`
    leaves a fresh `key`: round 37's cogrid and margarine)."""
    if not isinstance(stmt, (ast.For, ast.AsyncFor)):
        return False
    items = stmt.iter
    if isinstance(items, (ast.List, ast.Tuple)):
        if not items.elts or any(isinstance(e, ast.Starred) for e in items.elts):
            return False
    elif isinstance(items, ast.Call) and isinstance(items.func, ast.Name) and items.func.id == "range" and (
            not items.keywords and 1 <= len(items.args) <= 3):
        values = [(constant or _literal)(a) for a in items.args]
        bounds = [v for v in values if type(v) is int]
        if len(bounds) != len(items.args) or (len(bounds) == 3 and bounds[2] == 0) or len(range(*bounds)) == 0:
            return False
    else:
        return False
    stack: list[ast.AST] = list(stmt.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Break, ast.Continue)):
            return False
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return True


def _literal(node: ast.expr) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def headers(stmt: ast.AST) -> list[ast.AST]:
    """The expressions a compound statement evaluates itself (outside its blocks), in source order."""
    if isinstance(stmt, (ast.If, ast.While)):
        return [stmt.test]
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [stmt.iter, stmt.target]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [part for item in stmt.items for part in (item.context_expr, item.optional_vars) if part is not None]
    if isinstance(stmt, ast.Match):
        return [stmt.subject, *(case.guard for case in stmt.cases if case.guard is not None)]
    if is_try(stmt):
        return [h.type for h in stmt.handlers if h.type is not None]  # type: ignore[attr-defined]
    return []


class ForwardFlow(Generic[S]):
    """The driver (see the module docstring). Subclasses implement the transfer functions below; `run_block`
    runs a block from a state and returns the state after it (None: not reached)."""

    in_second_pass = False  # inside the second pass of some enclosing loop

    # ---- the transfer and merge protocol ------------------------------------------------------------------

    def copy(self, state: S) -> S:
        raise NotImplementedError

    def join(self, a: S | None, b: S | None) -> S | None:
        """The state where two paths meet (None: a path that does not get there)."""
        raise NotImplementedError

    def converged(self, entry: S, after_first_pass: S | None) -> bool:
        """Whether a loop's second pass would see nothing new (`entry`: the state before the loop)."""
        raise NotImplementedError

    def simple(self, stmt: ast.stmt, state: S) -> S | None:
        """A statement without blocks (an assignment, an expression, a `return`, a `def`, ...)."""
        raise NotImplementedError

    def test(self, stmt: ast.If, state: S) -> None:
        """An `if`'s condition, read before either branch."""

    def loop_head(self, stmt: ast.For | ast.AsyncFor | ast.While, state: S) -> object:
        """What a loop evaluates once before its first iteration; the answer is given to each `loop_entry`."""
        return None

    def loop_entry(self, stmt: ast.For | ast.AsyncFor | ast.While, state: S, head: object) -> None:
        """The start of each iteration: binding a `for` target, evaluating a `while` test."""

    def with_item(self, stmt: ast.With | ast.AsyncWith, item: ast.withitem, state: S) -> None:
        """One `with` item: its context expression, then its `as` target."""

    def subject(self, stmt: ast.Match, state: S) -> None:
        """A `match` subject, read before any case."""

    def case_entry(self, case: ast.match_case, state: S) -> None:
        """The start of one `match` case (its guard)."""

    def after_match(self, before: S, cases: S | None) -> S | None:
        """The state after a `match`, from the state before it and the join of its cases' states."""
        return cases

    def handler_entry(self, before: S, after_body: S | None, so_far: S | None) -> S:
        """The state a `try`'s handler starts from: `before` the `try`, `after_body` its body, `so_far` the join
        of the `else` block and the earlier handlers."""
        return self.join(before, after_body) or before

    def handler_bind(self, handler: ast.ExceptHandler, state: S) -> None:
        """`except E as name`: the name bound at the start of the handler."""

    def constant_value(self, node: ast.expr) -> object:
        """The value of an expression written as a constant (`5`), or that a subclass knows to be one (a module
        constant, `N_WARMUP = 5`); None when unknown."""
        return node.value if isinstance(node, ast.Constant) else None

    def loop_exit(self, stmt: ast.For | ast.AsyncFor | ast.While, entry: S, after_body: S | None) -> S | None:
        """The state after a loop's iterations (before its `else`): the loop may have run no iteration, so by
        default the join of the state before it and the state its body leaves; the state its body leaves alone
        when the loop surely runs its whole body at least once (`runs_at_least_once`)."""
        if after_body is not None and runs_at_least_once(stmt, self.constant_value):
            return after_body
        return self.join(entry, after_body)

    # ---- the driver ---------------------------------------------------------------------------------------

    def run_block(self, body: list[ast.stmt], state: S | None) -> S | None:
        for stmt in body:
            if state is None:
                return None
            state = self.statement(stmt, state)
        return state

    def statement(self, stmt: ast.stmt, state: S) -> S | None:
        if not isinstance(stmt, COMPOUND):
            return self.simple(stmt, state)
        if isinstance(stmt, ast.If):
            self.test(stmt, state)
            return self.join(self.run_block(stmt.body, self.copy(state)),
                             self.run_block(stmt.orelse, self.copy(state)))
        if isinstance(stmt, LOOP):
            return self._loop(stmt, state)  # type: ignore[arg-type]
        if isinstance(stmt, TRY):
            return self._try(stmt, state)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self.with_item(stmt, item, state)
            return self.run_block(stmt.body, state)
        if isinstance(stmt, ast.Match):
            self.subject(stmt, state)
            cases: S | None = None
            for case in stmt.cases:
                entry = self.copy(state)
                self.case_entry(case, entry)
                cases = self.join(cases, self.run_block(case.body, entry))
            return self.after_match(state, cases)
        raise AssertionError(f"a compound statement the driver does not know: {type(stmt).__name__}")

    def _loop(self, stmt: ast.For | ast.AsyncFor | ast.While, state: S) -> S | None:
        head = self.loop_head(stmt, state)
        entry = self.copy(state)
        out: S | None = entry
        outer = self.in_second_pass
        for i in range(1 if outer else 2):
            if i == 1:
                if self.converged(entry, out):
                    break
                joined = self.join(entry, out)
                assert joined is not None  # entry is a state
                loop_state = self.copy(joined)
            else:
                loop_state = self.copy(entry)
            self.in_second_pass = outer or i == 1
            try:
                self.loop_entry(stmt, loop_state, head)
                out = self.run_block(stmt.body, loop_state)
            finally:
                self.in_second_pass = outer
        return self.run_block(stmt.orelse, self.loop_exit(stmt, entry, out) or entry)

    def _try(self, stmt: ast.stmt, state: S) -> S | None:
        after_body = self.run_block(stmt.body, self.copy(state))  # type: ignore[attr-defined]
        merged = self.run_block(stmt.orelse, self.copy(after_body)) if after_body is not None else None  # type: ignore[attr-defined]
        for handler in stmt.handlers:  # type: ignore[attr-defined]
            entry = self.copy(self.handler_entry(state, after_body, merged))
            self.handler_bind(handler, entry)
            merged = self.join(merged, self.run_block(handler.body, entry))
        if stmt.finalbody:  # type: ignore[attr-defined]
            return self.run_block(stmt.finalbody, merged if merged is not None else self.copy(state))  # type: ignore[attr-defined]
        return merged

