"""The shared analysis model of one module: what every rule asks before it says anything.

Built once per analysis from the standard library's `ast` (fast enough for every keystroke; libcst is kept for
rewriting), it answers three questions:

1. Names: what does a name or dotted expression refer to (`jnp.zeros` -> `jax.numpy.zeros`, under any alias,
   also `import jax.numpy as np`, `from jax import random as jr`, and module-level re-bindings)?
2. Traced code: which functions run under a JAX transformation (jit, grad, vmap, ... in decorator or call
   form, with `functools.partial`, bodies passed to `lax.scan/fori_loop/...`, nested definitions, and helpers
   called from traced code), and which of their parameters are static?
3. Value kinds: at each use of a name, is the value a JAX array, a NumPy array, a PRNG key, a Python container,
   a plain Python value, or unknown? Found by a small forward dataflow over each scope. Rules only warn on
   kinds they know: UNKNOWN never produces a finding.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from sharpbits.analysis.donation import DonatedCall, Donations
from sharpbits.analysis.effects import SideEffect
from sharpbits.analysis.execution import COMPILING, LOOPS, Execution
from sharpbits.analysis.globals import Change, GlobalChanges
from sharpbits.analysis.keys import KeyReuse, KeyUse
from sharpbits.analysis.kinds import (
    ARRAY_STATIC_ATTRS,
    ARRAYS,
    BOOL_FUNCS,
    Kind,
    arith,
    merge,
    qualified_call_kind,
)
from sharpbits.analysis.scopes import FunctionInfo
from sharpbits.analysis.syntax import FunctionNode, iter_children, literal_int, literal_value
from sharpbits.analysis.traced import LAX_BODIES, TRANSFORMS, TraceSite
from sharpbits.analysis.tracers import TracerValues

if TYPE_CHECKING:
    from sharpbits.analysis.reuse import Reusable

__all__ = [
    "ARRAYS",
    "ARRAY_STATIC_ATTRS",
    "BOOL_FUNCS",
    "COMPILING",
    "LAX_BODIES",
    "LOOPS",
    "TRANSFORMS",
    "Change",
    "DonatedCall",
    "FunctionInfo",
    "FunctionNode",
    "KeyReuse",
    "KeyUse",
    "Kind",
    "ModuleModel",
    "SideEffect",
    "TraceSite",
    "arith",
    "iter_children",
    "literal_int",
    "literal_value",
    "merge",
    "qualified_call_kind",
]


class ModuleModel(GlobalChanges, TracerValues, Donations, Execution):
    """Names, traced functions and value kinds of one parsed module, built once per analysis.

    Its parts live in their own files: scopes.py (the walk, imports, names), traced.py (what runs under a JAX
    transformation), kinds.py (what kind each value is), keys.py (where PRNG keys are consumed, and reused),
    globals.py (module-level values that change after a trace captured them), tracers.py (where a value is a
    tracer with no concrete value), donation.py (calls that donate buffers, and the reads of a name after a
    point), effects.py (what traced code does to state outside its trace), execution.py (loops, calls that
    dispatch JAX work and calls that wait for it)."""

    def __init__(self, tree: ast.Module, reusable: Reusable | None = None) -> None:
        """`reusable`: what the model of an earlier version of the same document left (analysis/reuse.py),
        updated to this one's; the model is the same with or without it."""
        self.tree = tree
        self._reusable = reusable
        if reusable is not None:
            reusable.syntax.begin()
        self.aliases: dict[str, str] = {}  # local name -> qualified name of a module or attribute
        self.functions: dict[FunctionNode, FunctionInfo] = {}
        self.parents: dict[ast.AST, ast.AST] = {}
        self.module_functions: dict[str, FunctionInfo] = {}  # top-level defs by name
        self.name_kinds: dict[int, Kind] = {}  # id(ast.Name load) -> kind at that point
        self.module_env: dict[str, Kind] = {}
        self._calls_from_traced: dict[str, list[tuple[FunctionInfo, ast.Call]]] = {}
        self.owner: dict[ast.AST, FunctionNode | None] = {}  # node -> its function's node (None: module level)
        self.by_type: dict[type, list[ast.AST]] = {}
        self.owned: dict[int, list[ast.AST]] = {}
        self._statement_walks = {}
        self._names: set[str] | None = None
        self._returns = {}
        self._attribute_kinds = {}
        self._collect(reusable.walks if reusable is not None else None)
        self._find_traced()
        self._run_dataflow(reusable.flows if reusable is not None else None)
