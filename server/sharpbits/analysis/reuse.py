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
- `KeyWalks` (here): each function's walk for PRNG key reuse (keys.py's _ScopeWalk), by function node. A walk
  reads the function's own nodes (the same node means the same statement, as above), the module's imports, the
  kinds its flow and the flows of the functions inside it recorded, which module functions always consume a
  key argument, and, for each call it met, what the call may consume (`argument_uses`: which function of the
  module it runs and what that function consumes, asked in order). A walk is taken again when all of these
  are the same; the questions are asked again, in order, as for flows.
- `SyntaxFacts` (here): facts of one node kept while the node is in the document: those that follow from its
  top-level statement alone (the first filters of rules and model parts, `Scopes.candidates`, a function's
  parameter evidence), or from it and the imports (`Scopes.imports_fact`: what a function's calls say about
  keys, the calls that apply transformations). The parse shares a node only together with its whole top-level
  statement.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sharpbits.analysis.scopes import StatementWalks

if TYPE_CHECKING:
    from sharpbits.analysis.kinds import Kind, ValueKinds
    from sharpbits.analysis.rules.prng_key_reuse.key_flow import KeyFlow, KeyReuse
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
        self._same_module = self._module == (model.module_env, model.scopes.aliases)
        self._next = {}

    def commit(self, model: ValueKinds) -> None:
        """The dataflow finished: its flows are what the next version compares with."""
        self._flows, self._next = self._next, {}
        self._module = (dict(model.module_env), dict(model.scopes.aliases))

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
        final_env = model.function_flow(info, closure, records, log)
        model.name_kinds.update(records)
        self._next[id(info.node)] = _Flow(info.node, dict(info.param_kinds), dict(closure), log, records, final_env)
        self.run += 1
        return final_env

    def records(self, node: ast.AST) -> dict[int, Kind] | None:
        """The kinds the flow of this function node recorded in the version whose dataflow last finished."""
        flow = self._flows.get(id(node))
        return flow.records if flow is not None and flow.node is node else None


def _same_answers(model: ValueKinds, queries: list[tuple]) -> bool:
    """Asks the questions again, in order, and stops at the first answer that differs. Each one asked is one the
    flow, run again, would ask at this point with these arguments (the earlier answers being the same)."""
    for query in queries:
        what = query[0]
        if what == "lookup":
            _, name, node = query
            fn = model.scopes.module_functions.get(name)
            if (fn.node if fn is not None else None) is not node:
                return False
            continue
        fn = model.scopes.functions.get(query[1])  # type: ignore[arg-type]
        if fn is None:
            return False
        if what == "returns":
            answer: object = model.return_kinds(fn, query[2])
        else:
            answer = model.instance_attribute_kind(fn, query[2])
        if answer != query[3]:
            return False
    return True


@dataclass
class _KeyWalk:
    node: ast.AST  # the function's node (kept alive: the answers below hold nodes under it)
    aliases: dict[str, str]
    always: dict[str, set[int]]
    flows: list[tuple[int, dict[int, Kind]]]  # (id of the function or one inside it, the kinds its flow recorded)
    asked: list[tuple[ast.Call, list[tuple[ast.AST, str]]]]  # each call's `argument_uses` answer, in order
    found: list[KeyReuse]


class KeyWalks:
    """The key-reuse walk of each function of the last version that had one (see the module docstring)."""

    def __init__(self) -> None:
        self._walks: dict[int, _KeyWalk] = {}  # id(function node) -> its walk in the last version that ran one
        self._next: dict[int, _KeyWalk] = {}
        self.reused = 0  # walks taken again (for tests and benchmarks)
        self.run = 0  # walks run

    def begin(self) -> None:
        self._next = {}

    def commit(self) -> None:
        self._walks, self._next = self._next, {}

    def found(self, model: KeyFlow, info: FunctionInfo, always: dict[str, set[int]],
              flows: list[tuple[int, dict[int, Kind]]],
              walk: Callable[[list[tuple[ast.Call, list[tuple[ast.AST, str]]]]], list[KeyReuse]]) -> list[KeyReuse]:
        """What `walk(log)` finds (it runs the function's walk, appending each call's `argument_uses` answer to
        `log`), from the last walk of the same function when everything it read is the same. `flows`: the
        recorded kinds of the function and of every function inside it, in this version."""
        old = self._walks.get(id(info.node))
        if (old is not None and old.node is info.node and old.aliases == model.scopes.aliases and old.always == always
                and _same_flows(old.flows, flows) and _same_uses(model, info, old.asked)):
            self._next[id(info.node)] = old
            self.reused += 1
            return old.found
        asked: list[tuple[ast.Call, list[tuple[ast.AST, str]]]] = []
        found = walk(asked)
        self._next[id(info.node)] = _KeyWalk(info.node, dict(model.scopes.aliases), always, flows, asked, found)
        self.run += 1
        return found


def _same_flows(old: list[tuple[int, dict[int, Kind]]], new: list[tuple[int, dict[int, Kind]]]) -> bool:
    return len(old) == len(new) and all(
        a_id == b_id and (a is b or a == b) for (a_id, a), (b_id, b) in zip(old, new, strict=True))


def _same_uses(model: KeyFlow, info: FunctionInfo, asked: list[tuple[ast.Call, list[tuple[ast.AST, str]]]]) -> bool:
    """Asks each call's question again, in order (as the walk, run again, would up to the first difference)."""
    return all(model.argument_uses(call, info) == answer for call, answer in asked)


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

    def get(self, what: object, node: ast.AST, compute: Callable[[], object]) -> object:
        key = (what, id(node))
        found = self._now.get(key)
        if found is None:
            found = self._last.get(key)
            if found is None or found[0] is not node:
                found = (node, compute())
            self._now[key] = found
        return found[1]


class Reusable:
    """Everything one document's analysis hands from one version to the next."""

    def __init__(self) -> None:
        self.walks = StatementWalks()
        self.flows = FunctionFlows()
        self.keys = KeyWalks()
        self.syntax = SyntaxFacts()
