"""What the model of one version of a document hands to the next (IncrementalAnalysis keeps it): work on code that
did not change, taken again only where everything it read is the same, so the model comes out exactly as a
fresh build makes it. Each part of the model keeps its own memory and says itself what its work read:

- `StatementWalks` (scopes.py): the walk of each top-level statement (parents, owners, nodes by type, the
  functions it defines), by statement object. The parse shares the unchanged statements' nodes between versions,
  so an edit inside one function re-walks that function's statement only.
- `FunctionFlows` (kinds.py): each function's value-kind dataflow, taken again when everything it read is the
  same (see there).
- `TracedParts` (traced.py): what finding the traced functions worked out per top-level statement (the functions
  its calls transform, with their trace sites) and per traced function (what its code reaches, its static and
  donated parameters), taken again when the node is the same, the imports are, and every question the work
  asked of other statements gets the same answer (see there).
- A fact's memory (`Fact.Memory`, facts.py), one per fact class, kept here by `memory_of`: e.g. the key-reuse
  walks and the per-function results of the module-wide key passes of prng-key-reuse
  (rules/prng_key_reuse/reuse.py).
- `SyntaxFacts` (here): facts of one node kept while the node is in the document: those that follow from its
  top-level statement alone (the first filters of rules and model parts, `Scopes.candidates`, a function's
  parameter evidence), or from it and the imports (`Scopes.imports_fact`: what a function's calls say about
  keys, the calls that apply transformations). The parse shares a node only together with its whole top-level
  statement.
- `StatementParts` (here): the per-statement parts of the module's indexes (`Scopes.candidates`,
  `Scopes.per_statement`), taken by position for the statements an edit left in place at the start and end of the
  body, asked of `SyntaxFacts` for the rest.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

from sharpbits.analysis.kinds import FunctionFlows
from sharpbits.analysis.scopes import StatementWalks
from sharpbits.analysis.traced import TracedParts

if TYPE_CHECKING:
    from sharpbits.analysis.facts import Fact, FactMemory


class SyntaxFacts:
    """Facts that follow from the top-level statement holding a node alone, or from it and the imports (when
    `what` names them, see Scopes.imports_fact): by what they are and the node. The parse shares a node only
    with its whole statement, so a fact is taken again while its node is in the document; a fact no version
    asked for is dropped at the start of the next (`begin`, once per version)."""

    def __init__(self) -> None:
        self._last: dict[tuple[object, int], tuple[ast.AST, object]] = {}
        self._now: dict[tuple[object, int], tuple[ast.AST, object]] = {}

    def begin(self) -> None:
        self._last, self._now = self._now, {}

    def get(self, what: object, node: ast.AST, compute: Callable[..., object], *args: object) -> object:
        """The fact (`compute(*args)` when not kept)."""
        key = (what, id(node))
        found = self._now.get(key)
        if found is None:
            found = self._last.get(key)
            if found is None or found[0] is not node:
                found = (node, compute(*args))
            self._now[key] = found
        return found[1]


class StatementParts:
    """The per-statement parts of an index over the module (`Scopes.candidates`, `Scopes.per_statement`), by what
    they are: each a syntax fact of its top-level statement. The statements an edit left in place are the same
    objects at the start and the end of the body (IncrementalAnalysis shares them), so their parts are taken from
    the last version's list by position, without a look-up each (some 10,000 an edit of a 5,000-line module);
    the statements between are asked as before."""

    def __init__(self) -> None:
        self._last: dict[object, tuple[list[ast.stmt], list[object], object]] = {}

    def parts(self, what: object, statements: list[ast.stmt], part: Callable[[ast.stmt], object],
              reads: object = None) -> list[object]:
        """`[part(s) for s in statements]`, where `part(s)` follows from the statement `s` alone and `reads` (what
        else it reads, e.g. the imports: the last version's parts are taken only when it is equal); one list is
        kept per `what`."""
        last = self._last.get(what)
        if last is None or last[2] != reads:
            out = [part(s) for s in statements]
        else:
            old, old_parts, _ = last
            n, m = len(statements), len(old)
            start = 0
            while start < n and start < m and statements[start] is old[start]:
                start += 1
            end = 0  # statements the same at the end
            while end < n - start and end < m - start and statements[n - 1 - end] is old[m - 1 - end]:
                end += 1
            out = [*old_parts[:start], *(part(s) for s in statements[start:n - end]), *old_parts[m - end:]]
        self._last[what] = (statements, out, reads)
        return out


class Reusable:
    """Everything one document's analysis hands from one version to the next."""

    def __init__(self) -> None:
        self.walks = StatementWalks()
        self.flows = FunctionFlows()
        self.traced = TracedParts()
        self.syntax = SyntaxFacts()
        self.parts = StatementParts()
        self._memories: dict[type[Fact], FactMemory] = {}

    def memory_of(self, fact: type[Fact]) -> FactMemory | None:
        """The memory the fact class keeps from version to version (its `Memory`; None when it keeps none)."""
        if fact.Memory is None:
            return None
        memory = self._memories.get(fact)
        if memory is None:
            memory = self._memories[fact] = fact.Memory()
        return memory
