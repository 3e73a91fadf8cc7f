"""Which fields of a record a rebinding carries over unchanged: what key_flow.py asks before it forgets the keys
stored under a name that is assigned again.

`state = TrainState(params, state.rng, state.step + 1)` (a dataclass or NamedTuple of this module, its fields in
order), `state = state.replace(params=p)` (flax struct, chex), `state._replace(params=p)` (NamedTuple),
`dataclasses.replace(state, params=p)` and flax's `state.apply_gradients(grads=g)` (a `replace` of the step, the
parameters and the optimiser state) make a new record that holds the old one's other fields as they were: a key
kept in `state.rng` is the same key after the assignment, so drawing from it in every step of a loop draws the
same numbers. Anything else (another constructor, a function of the state, `**kwargs`) is a new value.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from sharpbits.analysis.project_index import dotted

# what makes a class a record whose generated __init__ takes its annotated fields in order, by qualified name
_RECORD_DECORATORS = {"dataclasses.dataclass", "flax.struct.dataclass", "chex.dataclass", "chex.mappable_dataclass",
                      "attrs.define", "attrs.frozen", "attrs.mutable", "attr.s", "attr.attrs", "attr.define",
                      "attr.frozen", "attr.mutable"}
_RECORD_BASES = {"typing.NamedTuple", "typing_extensions.NamedTuple", "flax.struct.PyTreeNode", "equinox.Module"}
_REPLACING_METHODS = {"replace", "_replace"}
_APPLY_GRADIENTS = {"step", "params", "opt_state", "grads"}  # what flax's TrainState.apply_gradients replaces


def carried_fields(value: ast.expr, name: str, fields_of: Callable[[ast.Call], tuple[str, ...] | None],
                   qualname: Callable[[ast.expr], str | None]) -> Callable[[str], bool] | None:
    """For `name = value`: a test of which fields of `name`'s old value the new one holds unchanged, or None when
    the new value is not known to hold any of them. `fields_of(call)`: the fields, in order, of the record class of
    this module that `call` builds (`record_fields`), or None (key_flow.py logs the answer: it reads the class's
    statement, so the walk of the function is taken again when the class changes)."""
    if not isinstance(value, ast.Call) or any(k.arg is None for k in value.keywords):
        return None
    given = {k.arg for k in value.keywords}
    func = value.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == name:
        if func.attr in _REPLACING_METHODS and not value.args:
            return lambda field: field not in given
        if func.attr == "apply_gradients" and not value.args:
            return lambda field: field not in given | _APPLY_GRADIENTS
        return None
    if qualname(func) == "dataclasses.replace" and len(value.args) == 1 and (
            isinstance(value.args[0], ast.Name) and value.args[0].id == name):
        return lambda field: field not in given
    if isinstance(func, ast.Name):
        fields = fields_of(value)
        if fields is None or len(value.args) > len(fields) or any(isinstance(a, ast.Starred) for a in value.args):
            return None
        handed = dict(zip(fields, value.args, strict=False))  # (fewer arguments than fields: the defaults)
        handed.update({k.arg: k.value for k in value.keywords if k.arg is not None})
        same = {field for field, arg in handed.items() if _is_field_of(arg, name, field)}
        return (lambda field: field in same) if same else None
    return None


def is_record(cls: ast.ClassDef, qualname: Callable[[ast.expr], str | None]) -> bool:
    """A record class: a dataclass (dataclasses, flax.struct, chex, attrs), a NamedTuple, a flax `PyTreeNode` or an
    Equinox `Module`, recognised by the qualified names of its decorators and bases (`qualname`: the module's
    imports). Its generated `__init__` stores what it is given."""
    return any(_record_decorator(_names(d.func if isinstance(d, ast.Call) else d, qualname, "dataclass"))
               for d in cls.decorator_list) or any(_names(b, qualname, "NamedTuple") in _RECORD_BASES for b in cls.bases)


def record_fields(cls: ast.ClassDef, qualname: Callable[[ast.expr], str | None]) -> list[str] | None:
    """The fields of a record class (`is_record`), in the order its generated `__init__` takes them (annotated
    class-level names; `ClassVar`s and `field(init=False)` left out), or None when the class is not one, defines
    its own `__init__`, or has another base (whose fields would come first)."""
    if any(isinstance(n, ast.FunctionDef) and n.name == "__init__" for n in cls.body) or not is_record(cls, qualname):
        return None
    if any(_names(b, qualname, "NamedTuple") not in _RECORD_BASES for b in cls.bases):
        return None
    return [n.target.id for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
            and "ClassVar" not in ast.unparse(n.annotation) and not _not_in_init(n.value)]


def _record_decorator(name: str | None) -> bool:
    """attrs' and the dataclass decorators of any package (`jax_dataclasses.pytree_dataclass`, `tjax.dataclass`,
    pydantic's): a decorator whose name, once its imports are read, ends in `dataclass`."""
    return name is not None and (name in _RECORD_DECORATORS or name.rsplit(".", 1)[-1].endswith("dataclass"))


def _names(node: ast.expr, qualname: Callable[[ast.expr], str | None], usual: str) -> str | None:
    """The qualified name of a decorator or base; where the module's imports do not say (a star import), the bare
    `dataclass` / `NamedTuple` spelling is taken for the standard library's."""
    q = qualname(node)
    if q is None and dotted(node) == usual:
        return "dataclasses.dataclass" if usual == "dataclass" else "typing.NamedTuple"
    return q


def _not_in_init(value: ast.expr | None) -> bool:
    """`x: int = field(init=False)` (dataclasses, flax, equinox, attrs): a field `__init__` does not take."""
    return isinstance(value, ast.Call) and any(
        k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False for k in value.keywords)


def _is_field_of(arg: ast.expr, name: str, field: str) -> bool:
    return (isinstance(arg, ast.Attribute) and arg.attr == field and isinstance(arg.value, ast.Name)
            and arg.value.id == name)

