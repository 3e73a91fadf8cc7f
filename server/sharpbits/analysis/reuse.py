"""What the model of one version of a document hands to the next (IncrementalAnalysis keeps it): work on code that
did not change, taken again only where everything it read is the same, so the model comes out exactly as a
fresh build makes it.

- `StatementWalks` (scopes.py): the walk of each top-level statement (parents, owners, nodes by type, the
  functions it defines), by statement object. The parse shares the unchanged statements' nodes between versions,
  so an edit inside one function re-walks that function's statement only.
- `FunctionFlows` (here): each function's value-kind dataflow (the kind at each name it reads, its environment at
  the end), by function node. A flow is taken again when its inputs are the same: the same node, parameter kinds
  and closure, the same module-level kinds and imports, and the same answers, asked in the same order, to what
  it asked of other functions (which function a name calls, what a helper returns for these argument kinds, what
  `self.attr` holds). Those questions are asked again, in order, before a flow is taken: answering them is what
  a fresh build does at that point (they fill the same memo tables), so what comes later sees the same state.
  An edit inside a helper changes what its callers were told: they run again.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sharpbits.analysis.scopes import StatementWalks

if TYPE_CHECKING:
    from sharpbits.analysis.kinds import Kind, ValueKinds
    from sharpbits.analysis.scopes import FunctionInfo


@dataclass
class _Flow:
    node: ast.AST  # the function's node (kept alive: the records are keyed by the ids of nodes under it)
    param_kinds: dict[str, Kind]
    closure: dict[str, Kind]
    queries: list[tuple]  # what it asked of the rest of the module, in order, with the answers
    records: dict[int, Kind]  # id(ast.Name) -> kind, as the flow recorded them
    final_env: dict[str, Kind]


class FunctionFlows:
    """The dataflow of each function of the last version (see the module docstring)."""

    def __init__(self) -> None:
        self._flows: dict[int, _Flow] = {}  # id(function node) -> its flow in the last version
        self._next: dict[int, _Flow] = {}
        self._module: tuple[dict[str, Kind], dict[str, str]] | None = None  # module_env and aliases it saw
        self._same_module = False
        self.reused = 0  # flows taken again (for tests and benchmarks)
        self.run = 0  # flows run

    def begin(self, model: ValueKinds) -> None:
        """A new version's dataflow starts (its module-level kinds are known)."""
        self._same_module = self._module == (model.module_env, model.aliases)
        self._next = {}

    def commit(self, model: ValueKinds) -> None:
        """The dataflow finished: its flows are what the next version compares with."""
        self._flows, self._next = self._next, {}
        self._module = (dict(model.module_env), dict(model.aliases))

    def flow(self, model: ValueKinds, info: FunctionInfo, closure: dict[str, Kind]) -> dict[str, Kind]:
        """What `model.function_flow(info, closure, model.name_kinds)` does, from the last version's flow when
        everything it read is the same."""
        old = self._flows.get(id(info.node))
        if (old is not None and self._same_module and old.node is info.node and old.param_kinds == info.param_kinds
                and old.closure == closure and _same_answers(model, old.queries)):
            model.name_kinds.update(old.records)
            self._next[id(info.node)] = old
            self.reused += 1
            return old.final_env
        log: list[tuple] = []
        records: dict[int, Kind] = {}
        model._query_log = log
        try:
            final_env = model.function_flow(info, closure, records)
        finally:
            model._query_log = None
        model.name_kinds.update(records)
        self._next[id(info.node)] = _Flow(info.node, dict(info.param_kinds), dict(closure), log, records, final_env)
        self.run += 1
        return final_env


def _same_answers(model: ValueKinds, queries: list[tuple]) -> bool:
    """Asks the questions again, in order, and stops at the first answer that differs. Each one asked is one the
    flow, run again, would ask at this point with these arguments (the earlier answers being the same)."""
    for query in queries:
        what = query[0]
        if what == "lookup":
            _, name, node = query
            fn = model.module_functions.get(name)
            if (fn.node if fn is not None else None) is not node:
                return False
            continue
        fn = model.functions.get(query[1])  # type: ignore[arg-type]
        if fn is None:
            return False
        if what == "returns":
            answer: object = model.return_kinds(fn, query[2])
        else:
            answer = model.instance_attribute_kind(fn, query[2])
        if answer != query[3]:
            return False
    return True


class Reusable:
    """Everything one document's analysis hands from one version to the next."""

    def __init__(self) -> None:
        self.walks = StatementWalks()
        self.flows = FunctionFlows()
