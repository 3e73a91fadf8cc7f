"""Record classes: classes of this module whose body declares fields (`err: jnp.ndarray`, `n_iter: int = 200`,
`dtype: Any = jnp.float64`): dataclasses, NamedTuples, flax struct dataclasses, linen, NNX and Equinox modules,
chex dataclasses. Which of them a name holds (`holder_class`), what a field is declared as (`field_annotation`) and
the default nothing in the module can replace (`unreplaced_default`).

Read statically from the module's syntax, never imported. Every answer here reads the class bodies and (for a
parameter) the module's call sites: callers that keep results across versions ask through `Fact.across` or a
logged query of the kinds dataflow, which asks again when anything changed.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

from sharpbits.analysis.syntax import called_name

if TYPE_CHECKING:
    from sharpbits.analysis.scopes import FunctionInfo, Scopes
    from sharpbits.analysis.traced import TracedCode

# methods every object of a record class has besides its fields (NamedTuple's, dataclasses', flax's): reading them
# tells nothing about which record class it is
RECORD_METHODS = frozenset({"_replace", "_asdict", "_make", "_fields", "replace", "copy", "clone"})

# functions and methods that copy a record with some fields replaced (`dataclasses.replace(cfg, dtype=...)`,
# `cfg._replace(...)`, attrs' `evolve`, flax's `module.clone(...)`, `.copy(...)`)
REPLACERS = ("replace", "_replace", "evolve", "clone", "copy")

# annotations that name a JAX array (a field so declared holds one, wherever the object is)
_JAX_ARRAY_TYPES = frozenset({"jax.Array", "jax.numpy.ndarray", "jax.numpy.Array", "jaxtyping.Array"})
# annotations of array-like leaves (NumPy arrays, scalars of arrays): inside a traced pytree each is a tracer
_ARRAY_LIKE_TYPES = _JAX_ARRAY_TYPES | {"chex.Array", "chex.ArrayDevice", "jax.typing.ArrayLike", "numpy.ndarray",
                                        "jaxtyping.ArrayLike"}


def declared_fields(cls: ast.ClassDef) -> dict[str, ast.AnnAssign]:
    """The fields a class body declares with an annotation (`name: T` or `name: T = default`), by name."""
    return {s.target.id: s for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}


def field_annotation(scopes: Scopes, cls: str, attr: str) -> ast.expr | None:
    """The annotation the body of the module's class `cls` declares `attr` with, or None."""
    body = scopes.module_classes().get(cls)
    stmt = declared_fields(body).get(attr) if body is not None else None
    return stmt.annotation if stmt is not None else None


def array_annotation(scopes: Scopes, annotation: ast.AST | None, *, leaf: bool) -> bool:
    """Whether an annotation declares a JAX array (`jax.Array`, `jnp.ndarray`, jaxtyping's `Float[Array, "n"]`);
    with `leaf`, also any array-like leaf (`chex.Array`, `ArrayLike`, `np.ndarray`), which is a tracer when the
    object holding it is a traced pytree."""
    if annotation is None:
        return False
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value in ("jax.Array", "jnp.ndarray")
    if isinstance(annotation, ast.Subscript):  # jaxtyping: Float[Array, "n"], Shaped[jax.Array, "..."]
        head = scopes.qualname(annotation.value, None) or ""
        inner = annotation.slice.elts[0] if isinstance(annotation.slice, ast.Tuple) and annotation.slice.elts else None
        return head.startswith("jaxtyping.") and inner is not None and array_annotation(scopes, inner, leaf=leaf)
    q = scopes.qualname(annotation, None)
    return q in (_ARRAY_LIKE_TYPES if leaf else _JAX_ARRAY_TYPES)


def holder_class(scopes: Scopes, traced: TracedCode, holder: str, scope: FunctionInfo | None) -> str | None:
    """The record class of this module whose object the name `holder` holds where `scope` reads it: `self` in a
    method of the class; a parameter annotated with the class, to which every call site of this module passes an
    object built by `Cls(...)`, or on which the function reads two or more attributes, all fields of that one
    record class and of no other (`cfg.n_iter`, `cfg.lr`); a name the scope (or the module) binds once to
    `Cls(...)`. None when not known."""
    classes = scopes.module_classes()
    if not classes or scope is None:
        return None
    if holder == "self":
        method = scope.outermost
        if method.params[:1] != ["self"] or "." not in method.qualname or method.parent is not None:
            return None
        cls = method.qualname.rsplit(".", 1)[0]
        return cls if cls in classes else None
    binder: FunctionInfo | None = scope
    while binder is not None and holder not in binder.params:
        if holder in binder.local_names:
            bound = traced.bound_once(holder, binder)
            return _constructed_class(bound, classes)
        binder = binder.parent
    if binder is None:
        return _constructed_class(scopes.module_constant(holder), classes)
    if isinstance(binder.node, ast.Lambda) or any(
            isinstance(n, ast.Name) and n.id == holder and not isinstance(n.ctx, ast.Load)
            for n in scopes.own_nodes(binder)):
        return None  # rebound in its function: which object it holds is not one answer
    annotation = next((p.annotation for p in binder.param_nodes if p.arg == holder), None)
    if annotation is not None:
        named = annotation.value if isinstance(annotation, ast.Constant) else (
            annotation.id if isinstance(annotation, ast.Name) else None)
        return named if isinstance(named, str) and named in classes else None
    passed = [v for v in traced.argument_values(binder, holder)
              if not (isinstance(v, ast.Constant) and v.value is None)]
    built = {_constructed_class(_through_name(v, scopes, traced), classes) for v in passed}
    if passed and None not in built:
        return built.pop() if len(built) == 1 else None
    read = {n.attr for n in scopes.own_nodes(binder) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
            and n.value.id == holder and isinstance(n.ctx, ast.Load)} - RECORD_METHODS
    if len(read) < 2:
        return None
    matching = [name for name, body in classes.items() if read <= declared_fields(body).keys()]
    return matching[0] if len(matching) == 1 else None


def _through_name(value: ast.AST, scopes: Scopes, traced: TracedCode) -> ast.AST | None:
    if isinstance(value, ast.Name):
        return traced.bound_once(value.id, scopes.enclosing_function(value))
    return value


def _constructed_class(value: ast.AST | None, classes: dict[str, ast.ClassDef]) -> str | None:
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in classes:
        return value.func.id
    return None


def unreplaced_default(scopes: Scopes, cls: str, attr: str,
                       wanted: Callable[[ast.expr], bool] = lambda _: True) -> ast.expr | None:
    """The default the body of the module's class `cls` gives the field `attr` (`dtype: Any = jnp.float64`, a
    dataclass field, a linen module attribute `num_steps: int = 100`), when `wanted(default)` and nothing in the
    module can replace it: no subclass, no store of the attribute (`self.dtype = ...`, `cfg.dtype = ...`), no
    `setattr`, no call given it by keyword (`C(dtype=...)`, `replace(cfg, dtype=...)`), no construction that may
    fill it by position or by `**`. The default, or None."""
    classes = scopes.module_classes()
    body = classes.get(cls)
    if body is None:
        return None
    fields = list(declared_fields(body))
    default = None
    for stmt in body.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == attr:
            default = stmt.value
        elif isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in stmt.targets):
            default = stmt.value if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) else None
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == attr:
            return None
    if default is None or not wanted(default):
        return None
    takes_init = any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__" for s in body.body)
    position = fields.index(attr) if attr in fields and not takes_init else None
    for other in classes.values():
        if any(isinstance(b, ast.Name) and b.id == cls for b in other.bases):
            return None  # a subclass may give it another default
    for n in scopes.nodes(ast.Attribute):
        if isinstance(n, ast.Attribute) and n.attr == attr and not isinstance(n.ctx, ast.Load):
            return None  # cfg.dtype = ..., self.dtype = ...
    for assign in scopes.nodes(ast.Assign):
        if isinstance(assign, ast.Assign) and isinstance(assign.value, ast.Name) and assign.value.id == cls:
            return None  # another name for the class: its constructions are not followed
    for call in scopes.nodes(ast.Call):
        assert isinstance(call, ast.Call)
        called = called_name(call.func).rsplit(".", 1)[-1]
        if called in ("setattr", "__setattr__") or (called in (cls, *REPLACERS) and any(
                k.arg == attr or k.arg is None for k in call.keywords)):
            return None
        if isinstance(call.func, ast.Name) and call.func.id == cls and (
                any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args)
                or (position is not None and len(call.args) > position)):
            return None
    return default
