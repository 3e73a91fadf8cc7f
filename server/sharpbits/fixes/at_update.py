"""`x[i] = v` -> `x = x.at[i].set(v)` (and `+=` -> `.add`, `-=` -> `.subtract`, ...), with libcst.

Only the statement is re-parsed and re-printed: its index and value expressions are moved over as libcst nodes,
so comments and spacing inside them survive untouched.
"""

from __future__ import annotations

import libcst as cst

# augmented operator -> the .at[] method that does the same thing
AT_METHODS: dict[type[cst.BaseAugOp], str] = {
    cst.AddAssign: "add",
    cst.SubtractAssign: "subtract",
    cst.MultiplyAssign: "multiply",
    cst.DivideAssign: "divide",
    cst.PowerAssign: "power",
}
# augmented operators without an .at[] method: x[i] //= v -> x.at[i].set(x[i] // v)
BINARY_FOR_AUG: dict[type[cst.BaseAugOp], type[cst.BaseBinaryOp]] = {
    cst.FloorDivideAssign: cst.FloorDivide,
    cst.ModuloAssign: cst.Modulo,
    cst.BitAndAssign: cst.BitAnd,
    cst.BitOrAssign: cst.BitOr,
    cst.BitXorAssign: cst.BitXor,
    cst.LeftShiftAssign: cst.LeftShift,
    cst.RightShiftAssign: cst.RightShift,
    cst.MatrixMultiplyAssign: cst.MatrixMultiply,
}
_ATOMS = (cst.Name, cst.Attribute, cst.Subscript, cst.Call, cst.Integer, cst.Float, cst.Imaginary,
          cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.List, cst.Tuple, cst.Dict, cst.Set)


def _at_call(sub: cst.Subscript, method: str, value: cst.BaseExpression) -> cst.Assign:
    base = sub.value
    assert isinstance(base, cst.Name)  # the analysis only offers the fix for `name[...]`
    indexed = sub.with_changes(value=cst.Attribute(value=base, attr=cst.Name("at")))
    call = cst.Call(func=cst.Attribute(value=indexed, attr=cst.Name(method)), args=[cst.Arg(value=value)])
    return cst.Assign(targets=[cst.AssignTarget(target=base)], value=call)


def _parenthesized(expr: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(expr, _ATOMS) or expr.lpar:
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def rewrite_statement(statement: str, minmax: tuple[str, int] | None = None) -> str | None:
    """Rewrites one `x[...] = v` / `x[...] op= v` statement's source; None if it is not of that form.

    `minmax=("min", argindex)` turns `x[i] = jnp.minimum(x[i], v)` into `x = x.at[i].min(v)`, where
    `argindex` is the position of `v` in the call.
    """
    try:
        line = cst.parse_statement(statement)
    except cst.ParserSyntaxError:
        return None
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    stmt = line.body[0]
    new: cst.Assign | None = None
    if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0].target, cst.Subscript):
        sub = stmt.targets[0].target
        if minmax is not None and isinstance(stmt.value, cst.Call) and len(stmt.value.args) == 2:
            method, index = minmax
            new = _at_call(sub, method, stmt.value.args[index].value)
        else:
            new = _at_call(sub, "set", stmt.value)
    elif isinstance(stmt, cst.AugAssign) and isinstance(stmt.target, cst.Subscript):
        sub = stmt.target
        op = type(stmt.operator)
        if op in AT_METHODS:
            new = _at_call(sub, AT_METHODS[op], stmt.value)
        elif op in BINARY_FOR_AUG:
            combined = cst.BinaryOperation(left=sub, operator=BINARY_FOR_AUG[op](), right=_parenthesized(stmt.value))
            new = _at_call(sub, "set", combined)
    if new is None:
        return None
    return cst.Module(body=[]).code_for_node(new)
