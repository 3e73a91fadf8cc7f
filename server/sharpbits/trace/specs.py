"""The argument-spec language: example inputs written in jaxpr's own notation.

    x=f32[1000,10], n=i32[], mask=bool[8], w=bf16[128,128], key=key, neg=True, steps=10,
    params={"W": f32[4,3], "b": f32[4]}, pair=(f32[3], i32[]), xs=[f32[2], f32[2]]
    x=f32[16,8] @ rows          sharded as `rows`, a jax.sharding.Sharding defined at module level in the document

Specs are parsed statically with `ast` (no jax here): the result is plain JSON that the worker turns into
`jax.ShapeDtypeStruct`s (for tracing) and NumPy arrays (for timing). Where a spec comes from, in order:
an explicit spec (CLI flag, editor prompt), a directive comment above the `def`
(`# sharpbits: trace(x=f32[1000,10], neg=True)`), jaxtyping annotations (`Float[Array, "1000 10"]`).

Encoded values (all JSON):
  {"kind": "array", "dtype": "float32", "shape": [1000, 10]}   (+ "sharding": "rows" after `@ rows`)
  {"kind": "key", "shape": []}                      a typed PRNG key (jax.random.key)
  {"kind": "literal", "value": 3}                   int, float, str, bool or None
  {"kind": "tuple" | "list", "items": [...]}
  {"kind": "dict", "items": [[key, value], ...]}
An argument spec: {"args": [value, ...], "kwargs": {name: value}, "text": "the spec as written"}.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

DTYPES = {
    "bool": "bool", "pred": "bool",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
    "c64": "complex64", "c128": "complex128",
}
# long names are accepted too: float32[3], int32[], bfloat16[2,2]
DTYPES.update({v: v for v in list(DTYPES.values())})

# jaxtyping's dtype annotations -> the dtype we build (the abstract ones pick JAX's default width)
JAXTYPING_DTYPES = {
    "Float": "float32", "Float16": "float16", "Float32": "float32", "Float64": "float64", "BFloat16": "bfloat16",
    "Int": "int32", "Int8": "int8", "Int16": "int16", "Int32": "int32", "Int64": "int64",
    "UInt": "uint32", "UInt8": "uint8", "UInt16": "uint16", "UInt32": "uint32", "UInt64": "uint64",
    "Bool": "bool", "Complex": "complex64", "Complex64": "complex64", "Complex128": "complex128",
    "Inexact": "float32", "Real": "float32", "Num": "float32", "Integer": "int32", "Shaped": "float32",
}
KEY_ANNOTATIONS = {"PRNGKeyArray", "Key"}

DIRECTIVE = re.compile(r"#\s*sharpbits:\s*trace\s*\((?P<spec>.*)\)\s*$")
_EMPTY_SHAPE = re.compile(r"\b(?P<dt>[A-Za-z_][A-Za-z0-9_]*)\[\s*\]")


class SpecError(ValueError):
    """A spec that cannot be parsed, or no spec where one is needed. The message says what to write."""


@dataclass
class ResolvedSpec:
    spec: dict[str, Any]
    source: str  # "explicit" | "directive" | "jaxtyping" | "none-needed"
    line: int | None = None  # the directive's line (1-based), or the def's line


# ---------------------------------------------------------------------------------------------- parsing


def parse_spec(text: str) -> dict[str, Any]:
    """`'x=f32[1000,10], neg=True'` -> {"args": [], "kwargs": {...}, "text": ...}. Raises SpecError."""
    stripped = text.strip()
    if stripped.startswith("(") and stripped.endswith(")") and _balanced(stripped[1:-1]):
        stripped = stripped[1:-1]
    source = _EMPTY_SHAPE.sub(lambda m: f"{m.group('dt')}[()]", stripped)
    try:
        tree = ast.parse(f"_spec_({source})", mode="eval")
    except SyntaxError as exc:
        raise SpecError(f"cannot parse the argument spec {text!r}: {exc.msg} "
                        "(write e.g. 'x=f32[1000,10], n=i32[], neg=True')") from None
    except (ValueError, RecursionError, MemoryError):  # NUL bytes; nesting deeper than the parser's stack
        raise SpecError(f"cannot parse the argument spec {text[:80]!r}: it is nested too deeply or holds a NUL "
                        "byte (write e.g. 'x=f32[1000,10], n=i32[], neg=True')") from None
    call = tree.body
    assert isinstance(call, ast.Call)
    args = [_value(node, text) for node in call.args]
    kwargs: dict[str, Any] = {}
    for kw in call.keywords:
        if kw.arg is None:
            raise SpecError(f"'**' is not part of the spec language: {text!r}")
        if kw.arg in kwargs:
            raise SpecError(f"argument {kw.arg!r} is given twice in {text!r}")
        kwargs[kw.arg] = _value(kw.value, text)
    return {"args": args, "kwargs": kwargs, "text": text.strip()}


def _balanced(s: str) -> bool:
    depth = 0
    for ch in s:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth < 0:
            return False
    return depth == 0


def _value(node: ast.expr, text: str) -> dict[str, Any]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        array = _value(node.left, text)
        where = ast.unparse(node.right)
        if array["kind"] != "array" or not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", where):
            raise SpecError(f"'@' gives an array a sharding by the name of a module-level jax.sharding.Sharding, "
                            f"e.g. 'x=f32[16,8] @ rows'; got {ast.unparse(node)!r} in {text!r}")
        return {**array, "sharding": where}
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        name = node.value.id
        if name == "key":
            return {"kind": "key", "shape": _shape(node.slice, text)}
        if name in DTYPES:
            return {"kind": "array", "dtype": DTYPES[name], "shape": _shape(node.slice, text)}
        raise SpecError(f"unknown dtype {name!r} in {text!r} (use one of f32, f16, bf16, f64, i8..i64, u8..u64, "
                        "bool, c64, c128)")
    if isinstance(node, ast.Name):
        if node.id == "key":
            return {"kind": "key", "shape": []}
        if node.id in DTYPES:
            return {"kind": "array", "dtype": DTYPES[node.id], "shape": []}
        raise SpecError(f"{node.id!r} in {text!r} is neither a dtype[shape], 'key' nor a Python literal")
    if isinstance(node, ast.Constant):
        if isinstance(node.value, (bool, int, float, str)) or node.value is None:
            return {"kind": "literal", "value": node.value}
        raise SpecError(f"unsupported literal {node.value!r} in {text!r}")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _value(node.operand, text)
        if inner["kind"] == "literal" and isinstance(inner["value"], (int, float)) and not isinstance(
            inner["value"], bool
        ):
            return {"kind": "literal", "value": -inner["value"] if isinstance(node.op, ast.USub) else inner["value"]}
        raise SpecError(f"a sign applies only to numbers, in {text!r}")
    if isinstance(node, ast.Tuple):
        return {"kind": "tuple", "items": [_value(e, text) for e in node.elts]}
    if isinstance(node, ast.List):
        return {"kind": "list", "items": [_value(e, text) for e in node.elts]}
    if isinstance(node, ast.Dict):
        items = []
        for k, v in zip(node.keys, node.values, strict=True):
            if not isinstance(k, ast.Constant) or not isinstance(k.value, (str, int)):
                raise SpecError(f"dict keys in a spec must be string or int literals, in {text!r}")
            items.append([k.value, _value(v, text)])
        return {"kind": "dict", "items": items}
    raise SpecError(f"cannot use {ast.unparse(node)!r} in an argument spec {text!r}")


def _shape(node: ast.expr, text: str) -> list[int]:
    elts = node.elts if isinstance(node, ast.Tuple) else [node]
    shape = []
    for e in elts:
        if isinstance(e, ast.Constant) and isinstance(e.value, int) and not isinstance(e.value, bool) and e.value >= 0:
            shape.append(e.value)
        else:
            raise SpecError(f"shape dimensions must be non-negative integers, got {ast.unparse(e)!r} in {text!r}")
    return shape


def format_value(v: dict[str, Any]) -> str:
    """The spec notation back from an encoded value (for display)."""
    kind = v["kind"]
    short = {long: s for s, long in DTYPES.items() if s != long and s != "pred"}
    if kind == "array":
        sharded = f" @ {v['sharding']}" if v.get("sharding") else ""
        return f"{short.get(v['dtype'], v['dtype'])}[{','.join(map(str, v['shape']))}]{sharded}"
    if kind == "key":
        return "key" if not v["shape"] else f"key[{','.join(map(str, v['shape']))}]"
    if kind == "literal":
        return repr(v["value"])
    if kind == "tuple":
        inner = ", ".join(format_value(i) for i in v["items"])
        return f"({inner},)" if len(v["items"]) == 1 else f"({inner})"
    if kind == "list":
        return "[" + ", ".join(format_value(i) for i in v["items"]) + "]"
    if kind == "dict":
        return "{" + ", ".join(f"{k!r}: {format_value(i)}" for k, i in v["items"]) + "}"
    return "?"


def format_spec(spec: dict[str, Any]) -> str:
    parts = [format_value(v) for v in spec.get("args", [])]
    parts += [f"{k}={format_value(v)}" for k, v in spec.get("kwargs", {}).items()]
    return ", ".join(parts)


def has_array(v: dict[str, Any]) -> bool:
    if v["kind"] in ("array", "key"):
        return True
    if v["kind"] in ("tuple", "list"):
        return any(has_array(i) for i in v["items"])
    if v["kind"] == "dict":
        return any(has_array(i) for _, i in v["items"])
    return False


# ---------------------------------------------------------------------------------------------- lookup


def split_target(target: str) -> tuple[str, str]:
    """`path/to/file.py::Class.method` -> (path, "Class.method")."""
    if "::" not in target:
        raise SpecError(f"target {target!r} must be FILE::FUNCTION (e.g. model.py::loss or model.py::Net.apply)")
    path, _, func = target.rpartition("::")
    if not path or not func or not all(part.isidentifier() for part in func.split(".")):
        raise SpecError(f"target {target!r} must be FILE::FUNCTION with FUNCTION a name or Class.method")
    return path, func


def find_def(tree: ast.Module, qualname: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    body: list[ast.stmt] = tree.body
    parts = qualname.split(".")
    for i, part in enumerate(parts):
        found = None
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == part:
                found = node  # the last definition wins, as at run time
        if found is None:
            return None
        if i == len(parts) - 1:
            return found if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        if not isinstance(found, ast.ClassDef):
            return None
        body = found.body
    return None


def find_wrapped_def(tree: ast.Module, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """`f_jit = jax.jit(f, ...)` or `f_jit = partial(jax.jit, ...)(f)` at module level -> the def of `f`."""
    for node in reversed(tree.body):
        if not (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)):
            continue
        value = node.value
        while isinstance(value, ast.Call):
            if value.args and isinstance(value.args[0], ast.Name):
                found = find_def(tree, value.args[0].id)
                if found is not None:
                    return found
            value = value.func  # partial(jax.jit, ...)(f): the name is in the outer call's arguments
        return None
    return None


def directive_for(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, int] | None:
    """The `# sharpbits: trace(...)` comment directly above the def (above its decorators too)."""
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    candidates = list(range(first - 2, -1, -1))  # 0-based lines above the first decorator / def
    # a directive may also sit between the decorators and the def
    candidates = list(range(node.lineno - 2, first - 2, -1)) + candidates
    for idx in candidates:
        if idx < 0 or idx >= len(lines):
            continue
        stripped = lines[idx].strip()
        if not stripped.startswith("#") and not stripped.startswith("@"):
            if idx < first - 1:
                break
            continue
        m = DIRECTIVE.search(stripped)
        if m:
            return m.group("spec"), idx + 1
    return None


def _jaxtyping_value(ann: ast.expr) -> dict[str, Any] | str:
    """An encoded value from a jaxtyping annotation, or a string saying why not."""
    if isinstance(ann, ast.Attribute):
        name = ann.attr
    elif isinstance(ann, ast.Name):
        name = ann.id
    elif isinstance(ann, ast.Subscript):
        base = ann.value
        name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
        if name in KEY_ANNOTATIONS or name in JAXTYPING_DTYPES:
            sl = ann.slice
            if not (isinstance(sl, ast.Tuple) and len(sl.elts) == 2 and isinstance(sl.elts[1], ast.Constant)
                    and isinstance(sl.elts[1].value, str)):
                return f"annotation {ast.unparse(ann)!r} is not Dtype[Array, \"dims\"]"
            dims = sl.elts[1].value.split()
            shape = []
            for d in dims:
                if d.isdigit():
                    shape.append(int(d))
                else:
                    return f"dimension {d!r} in {ast.unparse(ann)!r} is symbolic: give sizes in a spec"
            if name in KEY_ANNOTATIONS:
                return {"kind": "key", "shape": shape}
            return {"kind": "array", "dtype": JAXTYPING_DTYPES[name], "shape": shape}
        return f"annotation {ast.unparse(ann)!r} is not a jaxtyping array type"
    else:
        return f"annotation {ast.unparse(ann)!r} is not a jaxtyping array type"
    if name == "PRNGKeyArray":
        return {"kind": "key", "shape": []}
    return f"annotation {name!r} does not give a shape"


def _params(node: ast.FunctionDef | ast.AsyncFunctionDef, skip_self: bool) -> list[tuple[ast.arg, bool]]:
    """(param, has_default) for the parameters a caller passes, in order."""
    a = node.args
    positional = a.posonlyargs + a.args
    defaults = [False] * (len(positional) - len(a.defaults)) + [True] * len(a.defaults)
    out = list(zip(positional, defaults, strict=True))
    out += [(p, d is not None) for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)]
    if skip_self and out and out[0][0].arg in ("self", "cls"):
        out = out[1:]
    return out


def resolve_spec(text: str, function: str, explicit: str | None) -> ResolvedSpec:
    """Where the example inputs come from: explicit spec, directive comment, jaxtyping annotations."""
    if explicit is not None and explicit.strip():
        return ResolvedSpec(parse_spec(explicit), "explicit")
    try:
        tree = ast.parse(text)
    except SyntaxError:
        tree = None  # the worker reports the syntax error with its line; we just cannot read directives
    node = find_def(tree, function) if tree is not None else None
    if node is None and tree is not None and "." not in function:
        node = find_wrapped_def(tree, function)
    if node is None:
        raise SpecError(
            f"no argument spec for {function!r}: pass one (--args 'x=f32[1000,10], neg=True') or put "
            f"'# sharpbits: trace(x=f32[1000,10])' on the line above its def"
        )
    found = directive_for(text.splitlines(), node)
    if found is not None:
        spec_text, line = found
        return ResolvedSpec(parse_spec(spec_text), "directive", line)
    params = _params(node, skip_self="." in function)
    kwargs: dict[str, Any] = {}
    problems: list[str] = []
    for p, has_default in params:
        if p.annotation is not None:
            v = _jaxtyping_value(p.annotation)
            if isinstance(v, dict):
                kwargs[p.arg] = v
                continue
            if not has_default:
                problems.append(f"{p.arg}: {v}")
        elif not has_default:
            problems.append(f"{p.arg}: no annotation")
    if node.args.vararg is not None or node.args.kwarg is not None:
        problems.append("*args/**kwargs need an explicit spec")
    if not problems:
        source = "jaxtyping" if kwargs else "none-needed"
        return ResolvedSpec({"args": [], "kwargs": kwargs, "text": format_spec({"kwargs": kwargs})}, source,
                            node.lineno)
    names = ", ".join(f"{p.arg}=..." for p, d in params if not d) or "..."
    raise SpecError(
        f"no argument spec for {function!r} ({'; '.join(problems)}): pass --args '{names}' "
        f"(e.g. x=f32[1000,10], n=i32[], neg=True) or add '# sharpbits: trace({names})' above its def"
    )
