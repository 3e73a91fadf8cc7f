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
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from sharpbits.analysis.effects import SideEffect, SideEffects
from sharpbits.analysis.execution import COMPILING, LOOPS, Execution
from sharpbits.analysis.facts import Fact
from sharpbits.analysis.globals import Change, GlobalChanges
from sharpbits.analysis.kinds import (
    ARRAY_STATIC_ATTRS,
    ARRAYS,
    BOOL_FUNCS,
    Kind,
    ValueKinds,
    arith,
    merge,
    qualified_call_kind,
)
from sharpbits.analysis.scopes import FunctionInfo, Scopes
from sharpbits.analysis.syntax import FunctionNode, iter_children, literal_int, literal_value
from sharpbits.analysis.traced import LAX_BODIES, TRANSFORMS, Provenance, TracedCode, TraceSite
from sharpbits.analysis.tracers import TracerValues

if TYPE_CHECKING:
    from sharpbits.analysis.project_index import ProjectView
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
    "Execution",
    "Fact",
    "FunctionInfo",
    "FunctionNode",
    "GlobalChanges",
    "Kind",
    "ModuleModel",
    "Provenance",
    "Scopes",
    "SideEffect",
    "SideEffects",
    "TraceSite",
    "TracedCode",
    "TracerValues",
    "ValueKinds",
    "arith",
    "iter_children",
    "literal_int",
    "literal_value",
    "merge",
    "qualified_call_kind",
]


F = TypeVar("F", bound=Fact)


class ModuleModel:
    """Names, traced functions and value kinds of one parsed module, built once per analysis.

    It holds its parts, each a class of its own: `scopes` (scopes.py: the walk, imports, names, the indexes rules
    use instead of walking), `traced` (traced.py: what runs under a JAX transformation, and why), `kinds`
    (kinds.py: what kind each value is). Facts derived from them that only some rules need are built on first
    demand by `fact(Cls)` (facts.py): globals.py
    (module-level values that change after a trace captured them), tracers.py (where a value is a tracer with no
    concrete value), effects.py (what traced code does to state outside its trace), execution.py (loops, calls
    that dispatch JAX work and calls that wait for it). A fact that serves one rule lives beside it, in the
    rule's folder: rules/prng_key_reuse/key_flow.py (where PRNG keys are consumed, and reused),
    rules/donated_buffer_reuse/donation.py (calls that donate buffers, and the reads of a name after a point).
    What functions of other modules do with their arguments is asked of `project` (project_index.py)."""

    def __init__(self, tree: ast.Module, reusable: Reusable | None = None, project: ProjectView | None = None) -> None:
        """`reusable`: what the model of an earlier version of the same document left (analysis/reuse.py),
        updated to this one's; the model is the same with or without it. `project`: the module's window on the
        project index (project_index.py: what functions of other modules do with their parameters); None: calls
        into other modules are unknown."""
        self.tree = tree
        self.project = project
        if reusable is not None:
            reusable.syntax.begin()
        self.scopes = Scopes(tree, reusable)
        self.traced = TracedCode(self.scopes, project)
        self.kinds = ValueKinds(self.scopes, self.traced, project)
        self._facts: dict[type[Fact], Fact] = {}
        # while a function-local rule runs for IncrementalAnalysis: records what `Fact.across` answered for a
        # statement (rule_results.VersionRules.note_across); None otherwise
        self.note_across: Callable[[ast.AST, tuple[Callable[..., object], tuple[object, ...]], object], None] | None = None

    def release(self) -> None:
        """Drops the facts built so far (each refers back to the model, a cycle only the cycle collector frees),
        for an analysis whose caller keeps nothing of the model (engine.analyze). A fact asked for afterwards is
        built again, the same."""
        self._facts.clear()

    def fact(self, cls: type[F]) -> F:
        """The fact `cls` of this module, built on the first call and kept (facts.py)."""
        known = self._facts.get(cls)
        if known is None:
            known = self._facts[cls] = cls(self)
        return known  # type: ignore[return-value]
