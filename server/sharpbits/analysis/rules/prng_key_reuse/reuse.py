"""What prng-key-reuse's key flow keeps from one version of a document to the next (its `Fact.Memory`).

Each function's walk for PRNG key reuse (key_flow.py's _ScopeWalk), by function node. A walk reads the function's
own nodes (the same node means the same statement: the parse shares unchanged statements between versions), the
module's imports, the kinds its flow and the flows of the functions inside it recorded, which module functions
always consume a key argument, and, for each call it met, what the call may consume (`argument_uses`: which
function of the module it runs and what that function consumes, asked in order), and for each `.apply` call what
a framework's apply surely draws (`framework_apply.apply_draws`: it reads the linen module's class, the function
haiku transforms, a module-level model, in other statements), and for each `PRNGKey(NAME)` of a name it does not
bind which seed it makes (`KeyFlow.seed_label`: a module constant, read from the module-level statements), and for
each read of an attribute holding a key whether it is a key generator's fresh key (`KeyFlow.fresh_each_read`: it
reads the classes of the module, other statements). A walk is taken again when all
of these are the same; the questions are asked again, in order, as for the value-kind flows (analysis/kinds.py).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sharpbits.analysis.facts import FactMemory

# a question the walk asked, in order: (call, answer) for `argument_uses(call, scope)`, or (node, answer, ask) for
# another question `ask(flow, node, scope)` (KeyFlow.framework_draws, KeyFlow.seed_label, KeyFlow.record_fields_of
# of a call; KeyFlow.fresh_each_read of an attribute read)
Asked = tuple[ast.Call, Any] | tuple[ast.AST, Any, Callable[..., Any]]

if TYPE_CHECKING:
    from sharpbits.analysis.kinds import Kind
    from sharpbits.analysis.rules.prng_key_reuse.key_flow import KeyFlow, KeyReuse
    from sharpbits.analysis.scopes import FunctionInfo


@dataclass
class _KeyWalk:
    node: ast.AST  # the function's node (kept alive: the answers below hold nodes under it)
    aliases: dict[str, str]
    always: dict[str, set[int]]
    flows: list[tuple[int, dict[int, Kind]]]  # (id of the function or one inside it, the kinds its flow recorded)
    asked: list[Asked]  # each call's `argument_uses` answer (or another question's, see Asked), in order
    found: list[KeyReuse]


class KeyWalks(FactMemory):
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
              walk: Callable[[list[Asked]], list[KeyReuse]]) -> list[KeyReuse]:
        """What `walk(log)` finds (it runs the function's walk, appending each call's `argument_uses` answer to
        `log`), from the last walk of the same function when everything it read is the same. `flows`: the
        recorded kinds of the function and of every function inside it, in this version."""
        old = self._walks.get(id(info.node))
        if (old is not None and old.node is info.node and old.aliases == model.scopes.aliases and old.always == always
                and _same_flows(old.flows, flows) and _same_uses(model, info, old.asked)):
            self._next[id(info.node)] = old
            self.reused += 1
            return old.found
        asked: list[Asked] = []
        found = walk(asked)
        self._next[id(info.node)] = _KeyWalk(info.node, dict(model.scopes.aliases), always, flows, asked, found)
        self.run += 1
        return found


def _same_flows(old: list[tuple[int, dict[int, Kind]]], new: list[tuple[int, dict[int, Kind]]]) -> bool:
    return len(old) == len(new) and all(
        a_id == b_id and (a is b or a == b) for (a_id, a), (b_id, b) in zip(old, new, strict=True))


def _same_uses(model: KeyFlow, info: FunctionInfo, asked: list[Asked]) -> bool:
    """Asks each call's question again, in order (as the walk, run again, would up to the first difference)."""
    return all((entry[2](model, entry[0], info) if len(entry) == 3 else model.argument_uses(entry[0], info)) == entry[1]
               for entry in asked)
