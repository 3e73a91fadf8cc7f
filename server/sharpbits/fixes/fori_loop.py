"""Rewrite a Python `for i in range(...)` loop inside traced code to `lax.fori_loop`, or say why not.

Two steps. `plan_fori_loop` is a pure-`ast` analysis (cheap enough to run with the rule): it finds the loop-carried
state by dataflow and refuses wherever the rewrite could change what the function computes. `Plan.edits` then
produces the text: a named body function placed just before the loop, whose body is the loop's own lines copied
verbatim (comments and formatting kept; the indentation is already right), and one `fori_loop` call.

Correctness rules (each refusal says which one failed):
- the iterable is `range(...)`, also with start and step (the index is mapped back: `i = start + k * step`);
- no `break`, `continue`, `return`, `yield`, `global`/`nonlocal`, no `else:` clause;
- no side effects on Python state (`list.append`, `print`, subscript/attribute stores on non-carried names);
- every carried variable is bound before the loop. `fori_loop` needs the carry to keep its dtype and shape; where
  that cannot be shown (initial value a float `jnp` constructor, or updates only through `.at[...]`), the first
  iteration is run as plain Python before the `fori_loop` ("peeled"), exactly as the unrolled loop ran it, so
  the carry enters the loop with the shape and dtype the body gives it (`total = 0` then `total += x[i]`);
- the loop index, and carries that were Python numbers, are only used where a traced value works;
- the loop index is not read after the loop (it would lose its Python value).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from sharpbits.analysis.model import ARRAYS, FunctionInfo, Kind, ModuleModel, literal_int
from sharpbits.analysis.syntax import walk_nodes
from sharpbits.findings import Fix, TextEdit
from sharpbits.source import SourceText

_FLOAT_CONSTRUCTORS = {"zeros", "ones", "zeros_like", "ones_like", "empty", "empty_like", "full", "full_like",
                       "eye", "identity", "linspace"}
_SHAPE_CHANGING = {"concatenate", "append", "stack", "hstack", "vstack", "dstack", "pad", "tile", "repeat",
                   "expand_dims", "reshape", "squeeze", "ravel", "flatten", "insert", "delete", "broadcast_to"}
_SHAPE_ARGUMENT_FUNCS = {"zeros", "ones", "empty", "full", "arange", "linspace", "eye", "identity", "reshape",
                         "broadcast_to", "tile", "repeat", "split", "array_split", "take", "resize"}
_MUTATING_METHODS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "add",
                     "discard", "sort", "reverse", "write", "put"}
_INDEX_SAFE_MODULES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.random.", "jax.scipy.", "jax.debug.")


class Refusal(Exception):
    """The loop cannot be rewritten without changing what it computes; the message says why."""


@dataclass
class Plan:
    loop: ast.For
    index: str  # the loop variable's name ("_" when unused)
    start: str  # source text of range's start, stop, step
    stop: str
    step: int
    carries: list[str]
    lax: str  # how this module spells jax.lax
    import_edit: TextEdit | None
    body_name: str
    indent: str
    unpack_name: str = "carry"
    peel: bool = False  # run the first iteration before the fori_loop (see the module docstring)
    trip_literal: int | None = None

    def edits(self, source: SourceText) -> tuple[TextEdit, ...]:
        loop = self.loop
        first_body = loop.body[0].lineno
        body_lines = source.lines[first_body - 1 : loop.end_lineno]  # type: ignore[operator]
        newline = "\r\n" if body_lines and body_lines[0].endswith("\r\n") else "\n"
        inner = _body_indent(source, loop.body[0], self.indent)
        single = len(self.carries) == 1
        param = self.carries[0] if single else self.unpack_name
        index_param = self.index if self.step == 1 else f"{self.index}_step" if self.index != "_" else "_"
        # a comment on the `for` line moves to the `def` line
        header = source.line_text(loop.lineno)[source.char_column(loop.lineno, loop.iter.end_col_offset or 0):]
        comment = "  " + header[header.index("#"):] if "#" in header else ""
        out = [f"{self.indent}def {self.body_name}({index_param}, {param}):{comment}{newline}"]
        if not single:
            out.append(f"{inner}{', '.join(self.carries)} = {self.unpack_name}{newline}")
        if self.step != 1 and self.index != "_":
            out.append(f"{inner}{self.index} = {self.start} + {index_param} * {self.step}{newline}")
        body = "".join(body_lines)
        if not body.endswith(("\n", "\r")):
            body += newline
        out.append(body)
        packed = self.carries[0] if single else ", ".join(self.carries)
        out.append(f"{inner}return {packed}{newline}{newline}")
        if self.step == 1:
            lo, hi = self.start, self.stop
        else:
            lo, hi = "0", _trip_count_text(self.start, self.stop, self.step)
        init = self.carries[0] if single else f"({', '.join(self.carries)})"
        if not self.peel:
            out.append(f"{self.indent}{packed} = {self.lax}.fori_loop({lo}, {hi}, {self.body_name}, {init}){newline}")
        else:
            pad = self.indent
            if self.trip_literal is None:  # the bounds are static Python ints under jit: a Python `if` is fine
                out.append(f"{self.indent}if {hi} > {lo}:  # the first iteration, as plain Python, gives the carry "
                           f"its shape and dtype{newline}")
                pad = inner
            else:
                out.append(f"{self.indent}# the first iteration, as plain Python, gives the carry its shape and dtype"
                           f"{newline}")
            nxt = str(int(lo) + 1) if lo.lstrip("-").isdigit() else f"{lo} + 1"
            out.append(f"{pad}{packed} = {self.body_name}({lo}, {init}){newline}")
            out.append(f"{pad}{packed} = {self.lax}.fori_loop({nxt}, {hi}, {self.body_name}, {init}){newline}")
        edit = TextEdit(loop.lineno, 1, loop.end_lineno + 1, 1, "".join(out))  # type: ignore[operator]
        if loop.end_lineno == len(source.lines):  # the loop ends the file without a final newline
            last = source.line_text(loop.end_lineno)  # type: ignore[arg-type]
            edit = TextEdit(loop.lineno, 1, loop.end_lineno, len(last) + 1, "".join(out).rstrip("\r\n"))  # type: ignore[arg-type]
        return (edit,) if self.import_edit is None else (self.import_edit, edit)

    def fix(self, source: SourceText) -> Fix:
        return Fix(
            safe=False,
            description=f"Rewrite as `{self.lax}.fori_loop` (carry: {', '.join(self.carries)})",
            edits=self.edits(source),
        )


def _body_indent(source: SourceText, first: ast.stmt, outer: str) -> str:
    """The body's own indentation, character for character, used for the lines the rewrite adds inside it.

    The tokenizer accepts a body indented `\t    ` under a loop indented `    ` (deeper at tab size 8 and at tab
    size 1) although neither string starts with the other; any other spelling of the added lines' indent than
    the body's own can be inconsistent with it, so it is copied verbatim (tabs, spaces and form feeds alike)."""
    line = source.line_text(first.lineno)
    indent = line[: len(line) - len(line.lstrip(" \t\f"))]
    return indent if indent else outer + "    "


_BODY_NODES: dict[int, tuple[list[ast.stmt], list[ast.AST]]] = {}


def _nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """Every node of a loop body, computed once per body (the checks below look at it many times)."""
    cached = _BODY_NODES.get(id(body))
    if cached is None or cached[0] is not body:
        cached = (body, [n for stmt in body for n in walk_nodes(stmt)])
        if len(_BODY_NODES) > 64:
            _BODY_NODES.clear()
        _BODY_NODES[id(body)] = cached
    return cached[1]


def _trip_count_text(start: str, stop: str, step: int) -> str:
    try:
        return str(len(range(int(start), int(stop), step)))
    except ValueError:
        pass
    if step > 0:
        return f"max(0, ({stop} - {start} + {step - 1}) // {step})"
    return f"max(0, ({start} - {stop} + {-step - 1}) // {-step})"


def _names_loaded(node: ast.AST) -> set[str]:
    return {n.id for n in walk_nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _names_stored(node: ast.AST) -> set[str]:
    return {n.id for n in walk_nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


class _Carried:
    """Names read in an iteration before the iteration assigns them (so they flow in from the previous one)."""

    def __init__(self) -> None:
        self.read_first: set[str] = set()

    def block(self, body: list[ast.stmt], assigned: set[str]) -> set[str]:
        for stmt in body:
            assigned = self.statement(stmt, assigned)
        return assigned

    def reads(self, node: ast.AST | None, assigned: set[str]) -> None:
        if node is not None:
            self.read_first |= _names_loaded(node) - assigned

    def statement(self, stmt: ast.stmt, assigned: set[str]) -> set[str]:
        if isinstance(stmt, ast.Assign):
            self.reads(stmt.value, assigned)
            for t in stmt.targets:
                if not isinstance(t, (ast.Name, ast.Tuple, ast.List)):
                    self.reads(t, assigned)
            return assigned | set().union(*(_names_stored(t) for t in stmt.targets))
        if isinstance(stmt, ast.AugAssign):
            self.reads(stmt.value, assigned)
            self.reads(ast.Name(id=stmt.target.id, ctx=ast.Load()) if isinstance(stmt.target, ast.Name) else stmt.target, assigned)
            return assigned | _names_stored(stmt.target)
        if isinstance(stmt, ast.AnnAssign):
            self.reads(stmt.value, assigned)
            return assigned | (_names_stored(stmt.target) if stmt.value is not None else set())
        if isinstance(stmt, ast.If):
            self.reads(stmt.test, assigned)
            return self.block(stmt.body, set(assigned)) & self.block(stmt.orelse, set(assigned))
        if isinstance(stmt, ast.For):
            self.reads(stmt.iter, assigned)
            # One pass is enough: a second one (with more names assigned) could only find fewer first reads.
            self.block(stmt.body, assigned | _names_stored(stmt.target))
            return assigned
        if isinstance(stmt, ast.With):
            for item in stmt.items:
                self.reads(item.context_expr, assigned)
            return self.block(stmt.body, assigned)
        if isinstance(stmt, ast.FunctionDef):
            self.reads(stmt, assigned)  # a nested def reads its free names when called; be conservative
            return assigned | {stmt.name}
        self.reads(stmt, assigned)
        return assigned


def _statements_after(fn_node: ast.AST, loop: ast.For, parents: dict[ast.AST, ast.AST]) -> list[ast.AST]:
    """Code that can run after the loop: later statements of every enclosing block, and the bodies of
    enclosing loops (their next iteration)."""
    after: list[ast.AST] = []
    child: ast.AST = loop
    parent = parents.get(loop)
    while parent is not None and child is not fn_node:
        for field_name in ("body", "orelse", "finalbody"):
            block = getattr(parent, field_name, None)
            if isinstance(block, list) and child in block:
                after.extend(block[block.index(child) + 1 :])
        if isinstance(parent, (ast.For, ast.While)) and child is not loop:
            after.extend(parent.body)
        if parent is fn_node:
            break
        child, parent = parent, parents.get(parent)
    return after


def _bound_before(name: str, loop: ast.For | ast.While, fn: FunctionInfo, model_nodes: list[ast.AST]) -> ast.AST | None:
    """The last binding of `name` before the loop in the same function (a statement's value), or the
    parameter; None when it is not bound before."""
    if name in fn.params:
        return fn.param_nodes[fn.params.index(name)]
    best: ast.AST | None = None
    best_line = -1
    for node in model_nodes:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and getattr(node, "end_lineno", 0) < loop.lineno:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if name in _names_stored(t) and node.lineno > best_line:
                    value = node.value
                    if isinstance(t, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) and len(t.elts) == len(value.elts):
                        for elt, v in zip(t.elts, value.elts, strict=True):
                            if isinstance(elt, ast.Name) and elt.id == name:
                                value = v
                    elif isinstance(t, (ast.Tuple, ast.List)):
                        value = None
                    best, best_line = (value if value is not None else node), node.lineno
        elif isinstance(node, (ast.For, ast.With)) and getattr(node, "end_lineno", 0) < loop.lineno:
            stored = _names_stored(node.target) if isinstance(node, ast.For) else set()
            if name in stored and node.lineno > best_line:
                best, best_line = node, node.lineno
    return best


def _stable_initial(value: ast.AST | None, model: ModuleModel, fn: FunctionInfo) -> bool:
    """An initial value whose dtype the loop body cannot change: a Python int/float (weakly typed: JAX promotes
    it to the body's dtype), a float jnp constructor, or a tuple/list/dict of those."""
    if value is None:
        return False
    if isinstance(value, ast.Constant) and type(value.value) in (int, float):
        return True
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        return _stable_initial(value.operand, model, fn)
    if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        # a float array combined with Python numbers stays a float array of the same dtype
        return (_stable_initial(value.left, model, fn) and _stable_initial(value.right, model, fn)
                and not (isinstance(value.left, ast.Constant) and isinstance(value.right, ast.Constant)))
    if isinstance(value, (ast.Tuple, ast.List)):
        return all(_stable_initial(e, model, fn) for e in value.elts)
    if isinstance(value, ast.Dict):
        return all(v is not None and _stable_initial(v, model, fn) for v in value.values)
    if isinstance(value, ast.Call):
        q = model.scopes.qualname(value.func, fn)
        if q and q.startswith("jax.numpy.") and q.rsplit(".", 1)[1] in _FLOAT_CONSTRUCTORS:
            for kw in value.keywords:
                if kw.arg == "dtype":
                    return model.scopes.qualname(kw.value, fn) in ("jax.numpy.float32", "jax.numpy.float64") or (
                        isinstance(kw.value, ast.Name) and kw.value.id == "float"
                    )
            if q.endswith("_like"):
                return False  # takes the dtype of its argument, which may be an integer array
            if q.endswith(".full") and len(value.args) >= 2:
                return _stable_initial(value.args[1], model, fn)
            return True
    return False


def _only_at_updates(name: str, body: list[ast.stmt]) -> bool:
    """Every assignment to `name` is `name = name.at[...].method(...)`: dtype and shape are kept."""
    found = False
    for node in _nodes(body):
        if isinstance(node, ast.AugAssign) and name in _names_stored(node.target):
            return False
        if isinstance(node, ast.Assign) and any(name in _names_stored(t) for t in node.targets):
            v = node.value
            ok = (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(v, ast.Call)
                  and isinstance(v.func, ast.Attribute) and isinstance(v.func.value, ast.Subscript)
                  and isinstance(v.func.value.value, ast.Attribute) and v.func.value.value.attr == "at"
                  and isinstance(v.func.value.value.value, ast.Name) and v.func.value.value.value.id == name)
            if not ok:
                return False
            found = True
    return found


def _int_arithmetic_only(name: str, body: list[ast.stmt]) -> bool:
    """Every update of `name` combines it with integer literals (`c = c + 1`, `c *= 2`): dtype and shape kept."""
    ok_ops = _INT_OPS
    found = False
    for node in _nodes(body):
        if isinstance(node, ast.AugAssign) and name in _names_stored(node.target):
            if not (isinstance(node.op, ok_ops) and isinstance(node.value, ast.Constant) and type(node.value.value) is int):
                return False
            found = True
        elif isinstance(node, ast.Assign) and any(name in _names_stored(t) for t in node.targets):
            if not (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and _int_expr(node.value, name)):
                return False
            found = True
    return found


_INT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


def _int_expr(node: ast.AST, name: str) -> bool:
    """`name` combined with integer literals by `_INT_OPS` and negation. (A function of the module, not a closure
    that calls itself: that is a reference cycle, left to the cycle collector.)"""
    if isinstance(node, ast.Name):
        return node.id == name
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.BinOp) and isinstance(node.op, _INT_OPS):
        return _int_expr(node.left, name) and _int_expr(node.right, name)
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and _int_expr(node.operand, name)


def _derived(node: ast.AST, tracked: set[str]) -> bool:
    """Integer arithmetic on tracked names: `j = 2 * i + 1` (a function of the module, not a closure that calls
    itself: that is a reference cycle, left to the cycle collector)."""
    if isinstance(node, ast.Name):
        return node.id in tracked
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float))
    if isinstance(node, ast.BinOp):
        return _derived(node.left, tracked) and _derived(node.right, tracked)
    return isinstance(node, ast.UnaryOp) and _derived(node.operand, tracked)


def _check_traced_uses(name: str, body: list[ast.stmt], model: ModuleModel, fn: FunctionInfo,
                       parents: dict[ast.AST, ast.AST], why: str) -> None:
    """`name` becomes a tracer in the rewrite: refuse if the body uses it as a Python value."""
    tracked = {name}
    changed = True
    while changed:  # index temporaries computed from a traced index are traced too
        changed = False
        for stmt in _nodes(body):
            if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                    and stmt.targets[0].id not in tracked and _names_loaded(stmt.value) & tracked
                    and _derived(stmt.value, tracked)):
                tracked.add(stmt.targets[0].id)
                changed = True
    for node in _nodes(body):
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in tracked):
            continue
        child: ast.AST = node
        parent = parents.get(node)
        while (isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Tuple, ast.List, ast.Dict, ast.Compare, ast.IfExp))
               or (isinstance(parent, ast.Subscript) and child is parent.value and isinstance(parent.slice, ast.Constant))
               ) and not (isinstance(parent, ast.Tuple) and isinstance(parents.get(parent), ast.Subscript)):
            if isinstance(parent, ast.IfExp) and child is parent.test:
                break
            if isinstance(parent, ast.Dict) and child in parent.keys:
                break
            child, parent = parent, parents.get(parent)
        if isinstance(parent, ast.Tuple):  # an index tuple `x[i, j]`
            child, parent = parent, parents.get(parent)
        ok = False
        if isinstance(parent, ast.Subscript) and child is parent.slice:
            ok = model.kinds.kind_of(parent.value, fn) in (Kind.JAX, Kind.JAX_AT)
        elif isinstance(parent, ast.Call) and child is not parent.func:
            q = model.scopes.qualname(parent.func, fn) or ""
            tail = q.rsplit(".", 1)[-1]
            if q.startswith(_INDEX_SAFE_MODULES) and not (tail in _SHAPE_ARGUMENT_FUNCS and q.startswith("jax.numpy.")):
                ok = True
            elif isinstance(parent.func, ast.Attribute) and parent.func.value is not child and model.kinds.kind_of(parent.func.value, fn) is Kind.JAX_AT:
                ok = True  # x.at[j].set(i)
        elif isinstance(parent, (ast.Assign, ast.AugAssign, ast.Return)):
            ok = True  # assigned to a temporary (tracked above) or a carry
        elif isinstance(parent, ast.keyword):
            call = parents.get(parent)
            kq = model.scopes.qualname(call.func, fn) if isinstance(call, ast.Call) else None
            ok = bool(kq and kq.startswith(_INDEX_SAFE_MODULES) and parent.arg not in ("shape", "size", "axis", "num"))
        if not ok:
            snippet = ast.unparse(parent)[:50] if parent is not None else node.id
            raise Refusal(f"{why} `{node.id}` is used as a Python value in `{snippet}`, which a traced value cannot be")


def _fresh_name(base: str, *taken: set[str]) -> str:
    def used(name: str) -> bool:
        return any(name in names for names in taken)

    if not used(base):
        return base
    i = 2
    while used(f"{base}_{i}"):
        i += 1
    return f"{base}_{i}"


def _lax_spelling(model: ModuleModel, source: SourceText) -> tuple[str, TextEdit | None]:
    spelling = model.scopes.spelling_of("jax.lax")
    if spelling is not None:
        return spelling, None
    # add `from jax import lax` after the module's imports
    last_import = 0
    for stmt in model.tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            last_import = stmt.end_lineno or stmt.lineno
        elif last_import or not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            break
    line = last_import + 1
    return "lax", TextEdit(line, 1, line, 1, "from jax import lax\n")


def plan_fori_loop(source: SourceText, model: ModuleModel, fn: FunctionInfo, loop: ast.For) -> Plan:
    """The rewrite of `loop`, or Refusal with the reason."""
    parents = model.scopes.parents
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
            and not model.scopes.is_local("range", fn) and 1 <= len(it.args) <= 3 and not it.keywords):
        raise Refusal("only loops over `range(...)` can become `fori_loop`")
    if not isinstance(loop.target, ast.Name):
        raise Refusal("the loop variable must be a single name")
    if loop.orelse:
        raise Refusal("the loop has an `else:` clause")
    if loop.lineno == getattr(loop.body[0], "lineno", loop.lineno):
        raise Refusal("the loop body is on the `for` line")
    col = source.char_column(loop.lineno, loop.col_offset)
    indent = source.line_text(loop.lineno)[:col]
    if indent.strip():
        raise Refusal("the loop does not start its own line")
    args = it.args
    def segment(n: ast.AST) -> str:
        line, end = n.lineno, n.end_lineno or n.lineno  # type: ignore[attr-defined]
        return source.segment(line, source.char_column(line, n.col_offset),  # type: ignore[attr-defined]
                              end, source.char_column(end, n.end_col_offset or 0))  # type: ignore[attr-defined]

    if len(args) == 1:
        start, stop, step = "0", segment(args[0]), 1
    else:
        start, stop = segment(args[0]), segment(args[1])
        step = 1
        if len(args) == 3:
            literal = literal_int(args[2])
            if literal is None or literal == 0:
                raise Refusal("the range's step must be a non-zero integer literal")
            step = literal
    for arg in args:
        if model.kinds.kind_of(arg, fn) in ARRAYS:
            raise Refusal("the range's bounds are traced values")
    index = loop.target.id
    body = loop.body
    for node in _nodes(body):
        if isinstance(node, ast.Break):
            raise Refusal("`break` cannot be expressed in `fori_loop`")
        if isinstance(node, ast.Continue):
            raise Refusal("`continue` cannot be expressed in `fori_loop`")
        if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await)):
            raise Refusal(f"`{type(node).__name__.lower()}` inside the loop")
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            raise Refusal("`global`/`nonlocal` inside the loop")
        if isinstance(node, ast.NamedExpr):
            raise Refusal("an assignment expression (`:=`) inside the loop")
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in ("print", "input", "open", "exec", "eval", "setattr"):
                raise Refusal(f"`{node.func.id}(...)` is a side effect on Python state (it would run once)")
            if isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATING_METHODS:
                recv = node.func.value
                if model.kinds.kind_of(recv, fn) not in (Kind.JAX, Kind.JAX_AT):
                    raise Refusal(f"`{ast.unparse(node.func)}(...)` changes Python state (it would run once)")
    assigned = {n.id for n in _nodes(body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} - {index}
    for node in _nodes(body):
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            base = node.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            raise Refusal(f"`{ast.unparse(node)} = ...` assigns into `{ast.unparse(base)}` in place")
    carried = _Carried()
    carried.block(body, {index})
    after = _statements_after(fn.node, loop, parents)
    live_after = set().union(*(_names_loaded(s) for s in after)) if after else set()
    if index in live_after and index != "_":
        raise Refusal(f"the loop variable `{index}` is read after the loop, where it must keep its Python value")
    carries = sorted((carried.read_first & assigned) | (live_after & assigned),
                     key=lambda name: min((n.lineno, n.col_offset) for n in _nodes(body)
                                          if isinstance(n, ast.Name) and n.id == name))
    nested_defs = {s.name for s in _nodes(body) if isinstance(s, (ast.FunctionDef, ast.ClassDef))}
    carries = [c for c in carries if c not in nested_defs]
    if not carries:
        raise Refusal("the loop computes nothing that is used after it")
    peel = False
    for name in carries:
        initial = _bound_before(name, loop, fn, model.scopes.own_nodes(fn))
        if initial is None:
            raise Refusal(f"`{name}` is carried across iterations but has no value before the loop")
        is_param = isinstance(initial, ast.arg)
        for node in _nodes(body):
            if isinstance(node, ast.Assign) and any(name in _names_stored(t) for t in node.targets):
                value = node.value
                if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice) and name in _names_loaded(value.value):
                    raise Refusal(f"the shape of `{name}` changes between iterations")
                if isinstance(value, ast.Call):
                    q = model.scopes.qualname(value.func, fn) or ""
                    tail = q.rsplit(".", 1)[-1] if q else (value.func.attr if isinstance(value.func, ast.Attribute) else "")
                    if tail in _SHAPE_CHANGING and name in _names_loaded(value):
                        raise Refusal(f"the shape of `{name}` may change between iterations (`{tail}`)")
        stable = _only_at_updates(name, body) or _int_arithmetic_only(name, body) or (not is_param and _stable_initial(initial, model, fn)
                                                   and not isinstance(initial, (ast.Constant, ast.UnaryOp, ast.Tuple, ast.List, ast.Dict)))
        peel = peel or not stable
        if isinstance(initial, (ast.Constant, ast.UnaryOp, ast.Tuple, ast.List, ast.Dict)):
            _check_traced_uses(name, body, model, fn, parents, "carried Python value")
    if index != "_":
        _check_traced_uses(index, body, model, fn, parents, "the loop index")
    lax, import_edit = _lax_spelling(model, source)
    taken = (model.scopes.all_names(), fn.local_names)
    body_name = _fresh_name("loop_body", *taken)
    unpack = _fresh_name("carry", *taken, set(carries))
    trip: int | None = None
    if all(literal_int(a) is not None for a in args):
        values = [literal_int(a) for a in args]
        trip = len(range(*values))  # type: ignore[arg-type]
        if trip == 0:
            raise Refusal("the loop never runs")
    return Plan(loop, index, start, stop, step, carries, lax, import_edit, body_name, indent, unpack, peel, trip)


@dataclass
class WhilePlan:
    loop: ast.While
    carries: list[str]
    lax: str
    import_edit: TextEdit | None
    cond_name: str
    body_name: str
    indent: str
    unpack_name: str

    def fix(self, source: SourceText) -> Fix:
        loop = self.loop
        body_lines = source.lines[loop.body[0].lineno - 1 : loop.end_lineno]  # type: ignore[operator]
        newline = "\r\n" if body_lines and body_lines[0].endswith("\r\n") else "\n"
        inner = _body_indent(source, loop.body[0], self.indent)
        single = len(self.carries) == 1
        param = self.carries[0] if single else self.unpack_name
        packed = self.carries[0] if single else ", ".join(self.carries)
        unpack = [] if single else [f"{inner}{packed} = {self.unpack_name}{newline}"]
        t = loop.test
        test = source.segment(t.lineno, source.char_column(t.lineno, t.col_offset), t.end_lineno or t.lineno,
                              source.char_column(t.end_lineno or t.lineno, t.end_col_offset or 0))
        header = source.line_text(loop.lineno)[source.char_column(loop.lineno, loop.test.end_col_offset or 0):]
        comment = "  " + header[header.index("#"):] if "#" in header else ""
        body = "".join(body_lines)
        if not body.endswith(("\n", "\r")):
            body += newline
        out = [f"{self.indent}def {self.cond_name}({param}):{comment}{newline}", *unpack,
               f"{inner}return {test}{newline}{newline}",
               f"{self.indent}def {self.body_name}({param}):{newline}", *unpack, body,
               f"{inner}return {packed}{newline}{newline}"]
        init = self.carries[0] if single else f"({packed})"
        out.append(f"{self.indent}{packed} = {self.lax}.while_loop({self.cond_name}, {self.body_name}, {init}){newline}")
        edit = TextEdit(loop.lineno, 1, loop.end_lineno + 1, 1, "".join(out))  # type: ignore[operator]
        edits = (edit,) if self.import_edit is None else (self.import_edit, edit)
        return Fix(safe=False, description=f"Rewrite as `{self.lax}.while_loop` (carry: {', '.join(self.carries)})",
                   edits=edits)


def plan_while_loop(source: SourceText, model: ModuleModel, fn: FunctionInfo, loop: ast.While) -> WhilePlan:
    """`while cond:` -> `lax.while_loop(cond_fn, body_fn, carry)`, with the same carry analysis as for loops.
    No first-iteration peeling here (the loop may run zero times), so every carry must provably keep its
    dtype and shape."""
    if loop.orelse:
        raise Refusal("the loop has an `else:` clause")
    col = source.char_column(loop.lineno, loop.col_offset)
    indent = source.line_text(loop.lineno)[:col]
    if indent.strip() or loop.lineno == loop.body[0].lineno:
        raise Refusal("the loop does not have its own lines")
    _refuse_effects(loop.body, model, fn)
    carried = _Carried()
    carried.reads(loop.test, set())
    carried.block(loop.body, set())
    assigned = set().union(*(_names_stored(s) for s in loop.body))
    after = _statements_after(fn.node, loop, model.scopes.parents)  # type: ignore[arg-type]
    live_after = set().union(*(_names_loaded(s) for s in after)) if after else set()
    carries = [c for c in sorted(assigned & (carried.read_first | live_after | _names_loaded(loop.test)))]
    if not carries:
        raise Refusal("nothing the condition reads changes in the loop: it would never stop")
    for name in carries:
        initial = _bound_before(name, loop, fn, model.scopes.own_nodes(fn))
        if initial is None:
            raise Refusal(f"`{name}` is carried across iterations but has no value before the loop")
        is_param = isinstance(initial, ast.arg)
        stable = _only_at_updates(name, loop.body) or _int_arithmetic_only(name, loop.body) or (
            not is_param and _stable_initial(initial, model, fn)
            and not isinstance(initial, (ast.Constant, ast.UnaryOp, ast.Tuple, ast.List, ast.Dict)))
        if not stable:
            raise Refusal(f"cannot show that `{name}` keeps its dtype and shape in every iteration; give it a "
                          "`jnp` array of the final dtype before the loop")
        if isinstance(initial, (ast.Constant, ast.UnaryOp, ast.Tuple, ast.List, ast.Dict)):
            _check_traced_uses(name, loop.body, model, fn, model.scopes.parents, "carried Python value")
    lax, import_edit = _lax_spelling(model, source)
    taken = (model.scopes.all_names(), fn.local_names)
    return WhilePlan(loop, carries, lax, import_edit, _fresh_name("loop_cond", *taken), _fresh_name("loop_body", *taken),
                     indent, _fresh_name("carry", *taken, set(carries)))


def _refuse_effects(body: list[ast.stmt], model: ModuleModel, fn: FunctionInfo) -> None:
    for node in _nodes(body):
        if isinstance(node, (ast.Break, ast.Continue)):
            raise Refusal(f"`{type(node).__name__.lower()}` cannot be expressed in a lax loop")
        if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await)):
            raise Refusal(f"`{type(node).__name__.lower()}` inside the loop")
        if isinstance(node, (ast.Global, ast.Nonlocal, ast.NamedExpr)):
            raise Refusal("`global`, `nonlocal` or `:=` inside the loop")
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in ("print", "input", "open", "exec", "eval", "setattr"):
                raise Refusal(f"`{node.func.id}(...)` is a side effect on Python state (it would run once)")
            if (isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATING_METHODS
                    and model.kinds.kind_of(node.func.value, fn) not in (Kind.JAX, Kind.JAX_AT)):
                raise Refusal(f"`{ast.unparse(node.func)}(...)` changes Python state (it would run once)")
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            raise Refusal(f"`{ast.unparse(node)} = ...` assigns into a container in place")
