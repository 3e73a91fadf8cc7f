"""What is traced: the JAX transformations in every spelling (decorator or call, `functools.partial`,
`lax.scan`/`fori_loop`/... bodies, nested definitions, helpers called from traced code), and which parameters of
a traced function are static."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from sharpbits.analysis.scopes import FunctionInfo, Scopes
from sharpbits.analysis.syntax import literal_value

# --- what JAX names mean ------------------------------------------------------------------------------------

# Transformations whose function argument is traced. Values: does it take static_argnums/static_argnames?
TRANSFORMS: dict[str, bool] = {
    "jax.jit": True,
    "jax.pmap": True,
    "jax.grad": False,
    "jax.value_and_grad": False,
    "jax.vmap": False,
    "jax.jacfwd": False,
    "jax.jacrev": False,
    "jax.jacobian": False,
    "jax.hessian": False,
    "jax.checkpoint": True,
    "jax.remat": True,
    "jax.ad_checkpoint.checkpoint": True,
    "jax.linearize": False,
    "jax.jvp": False,
    "jax.vjp": False,
    "jax.eval_shape": False,
    "jax.make_jaxpr": True,
    "jax.shard_map": False,
    "jax.experimental.shard_map.shard_map": False,
    "jax.named_call": False,
    "jax.custom_jvp": False,
    "jax.custom_vjp": False,
    "equinox.filter_jit": False,
    "equinox.filter_grad": False,
    "equinox.filter_value_and_grad": False,
    "equinox.filter_vmap": False,
    "flax.nnx.jit": True,
    "flax.nnx.grad": False,
    "flax.nnx.value_and_grad": False,
    "flax.nnx.vmap": False,
}

# Control-flow primitives whose function arguments are traced bodies: qualified name -> argument positions.
LAX_BODIES: dict[str, tuple[int, ...]] = {
    "jax.lax.fori_loop": (2,),
    "jax.lax.while_loop": (0, 1),
    "jax.lax.scan": (0,),
    "jax.lax.cond": (1, 2),
    "jax.lax.switch": (1,),
    "jax.lax.map": (0,),
    "jax.lax.associative_scan": (0,),
    "jax.lax.custom_root": (0, 1, 2),
    "jax.lax.reduce": (2,),
}
LAX_BODY_KEYWORDS = {"body_fun", "cond_fun", "f", "true_fun", "false_fun", "branches", "fn"}


@dataclass
class TraceSite:
    """Why a function is traced: the transformation and its static arguments."""

    transform: str  # e.g. "jax.jit", "jax.lax.scan body", "called from traced `f`"
    static_argnums: tuple[int, ...] = ()
    static_argnames: tuple[str, ...] = ()
    node: ast.AST | None = None  # the decorator or call that made it traced



class TracedCode(Scopes):
    """The traced-code part of ModuleModel (see model.py)."""

    _calls_from_traced: dict[str, list[tuple[FunctionInfo, ast.Call]]]

    def traced_functions(self) -> Iterator[FunctionInfo]:
        return (f for f in self.functions.values() if f.traced)
    def calls_from_traced(self, fn: FunctionInfo) -> list[tuple[FunctionInfo, ast.Call]]:
        """The calls of `fn` made from traced functions (caller, call): how a helper is reached."""
        return self._calls_from_traced.get(fn.qualname, [])

    # ---- traced contexts -------------------------------------------------------------------------------

    def transform_of(self, expr: ast.AST, scope: FunctionInfo | None) -> TraceSite | None:
        """If `expr` (a decorator, or the callee of a call) is a JAX transformation, describe it."""
        keywords: list[ast.keyword] = []
        if isinstance(expr, ast.Call):
            q = self.qualname(expr.func, scope)
            if q == "functools.partial" and expr.args:
                inner = self.transform_of(expr.args[0], scope)
                if inner is None:
                    return None
                return _with_static(inner, expr.keywords)
            if q in TRANSFORMS:  # e.g. @jax.jit(static_argnames=...) or @jax.checkpoint(policy=...)
                return _with_static(TraceSite(q, node=expr), expr.keywords)
            return None
        q = self.qualname(expr, scope)
        if q in TRANSFORMS:
            return _with_static(TraceSite(q, node=expr), keywords)
        return None

    def _find_traced(self) -> None:
        for info in list(self.functions.values()):
            if isinstance(info.node, ast.Lambda):
                continue
            for deco in info.node.decorator_list:
                site = self.transform_of(deco, info.parent)
                if site is not None:
                    site.node = deco
                    info.traces.append(site)
        for node in self.nodes(ast.Call):
            assert isinstance(node, ast.Call)
            scope = self.enclosing_function(node)
            site = self.transform_of(node.func, scope)
            if site is not None and node.args:
                target = self._resolve_function(node.args[0], scope)
                if target is not None:
                    site = _with_static(site, node.keywords)
                    site.node = node
                    target.traces.append(site)
                continue
            q = self.qualname(node.func, scope)
            if q in LAX_BODIES:
                bodies = [node.args[i] for i in LAX_BODIES[q] if i < len(node.args)]
                bodies += [kw.value for kw in node.keywords if kw.arg in LAX_BODY_KEYWORDS]
                for body in bodies:
                    elts = body.elts if isinstance(body, ast.List | ast.Tuple) else [body]
                    for elt in elts:
                        target = self._resolve_function(elt, scope)
                        if target is not None:
                            target.traces.append(TraceSite(f"{q.rsplit('.', 1)[1]} body", node=node))
        # Nested definitions inside traced functions, and helpers they call, run under the same trace.
        work = [f for f in self.functions.values() if f.traced]
        seen = {id(f) for f in work}
        while work:
            fn = work.pop()
            for child in self.own_nodes(fn):
                callee: FunctionInfo | None = None
                reason = ""
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                    callee = self.functions.get(child)
                    reason = f"defined inside traced `{fn.name}`"
                elif isinstance(child, ast.Call) and isinstance(child.func, ast.Name):
                    callee = self._resolve_function(child.func, fn)
                    reason = f"called from traced `{fn.name}`"
                    if callee is not None:
                        self._calls_from_traced.setdefault(callee.qualname, []).append((fn, child))
                if callee is None or callee is fn:
                    continue
                if id(callee) not in seen:
                    if not callee.traced:
                        callee.traces.append(TraceSite(reason, node=child))
                    seen.add(id(callee))
                    work.append(callee)
        for info in self.functions.values():
            if info.traced:
                info.static_params = self._static_params(info)

    def _static_params(self, info: FunctionInfo) -> set[str]:
        static: set[str] = set()
        positional = [p.arg for p in [*info.node.args.posonlyargs, *info.node.args.args]]
        for site in info.traces:
            static.update(site.static_argnames)
            for i in site.static_argnums:
                if -len(positional) <= i < len(positional):
                    static.add(positional[i])
        if positional and positional[0] in ("self", "cls") and info.parent is None:
            static.add(positional[0])
        return static


def _with_static(site: TraceSite, keywords: list[ast.keyword]) -> TraceSite:
    nums, names = list(site.static_argnums), list(site.static_argnames)
    for kw in keywords:
        value = literal_value(kw.value)
        if kw.arg == "static_argnums":
            nums.extend([value] if isinstance(value, int) else [v for v in value or () if isinstance(v, int)]
                        if isinstance(value, tuple | list) else [])
        elif kw.arg == "static_argnames":
            names.extend([value] if isinstance(value, str) else [v for v in value or () if isinstance(v, str)]
                         if isinstance(value, tuple | list) else [])
    return TraceSite(site.transform, tuple(nums), tuple(names), site.node)

