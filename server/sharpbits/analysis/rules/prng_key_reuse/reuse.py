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

And the scope filter's question to the project index (`KeyFlow._project_may_consume`: whether a call of a function
hands a key to another module's function that consumes it), by function node. The answer reads the function's
own nodes, the kinds its flow recorded, the imports, and, through names, the module's other statements (which
function or class of the module a call runs, what a name was bound to at module level, the index's summary of
this module's functions and classes) and the other modules of the project. So an answer is taken again when the
function's node and recorded kinds are the same, the module's part is the same (the other modules' texts, as
`ProjectIndex.changes_beside` counts their changes; imports, module-level kinds, every top-level statement that is
not a definition, the names the definitions bind), and its top-level statement is not linked by name to one the edit
touched (it names nothing a touched statement defines, transitively, and a touched statement names nothing it
defines), as for the function-local rules (analysis/rule_results.py; a module-level statement "defines" the names
it assigns, so `step(key)` with `step = make_step()` is linked to `make_step`); an edit that touches a statement
holding a class (a subclass may change what the index answers for a method of the family) or a `global`/`nonlocal`
declaration asks every function again.

The same check spares a walk that is otherwise the same (node, imports, recorded kinds, consuming functions) its
questions asked again in order (`_same_uses`, about 5% of an edit): what they read outside the function (which
function a call runs and what it consumes, what a framework's apply draws, module constants, the module's classes)
is reached through names, module-level statements or classes, all covered above. (Not covered: a module of the
project that calls back into this one, an import cycle, through which the index's answer for a call of another
module reads a function of this one that the call does not name.)

A name bound at module level (`SEED = 0`) is read by some answers wherever it appears in the module: a seed is a
module constant only while nothing anywhere stores the name, a function's local `SEED = 1` included
(`KeyFlow.seed_label`, which a function's walk asks), and a parametrize table
only while every read of it is a parametrize argument (`_ScopeWalk._case_row`). So a touched statement that names
one links every statement that names it too (as if it defined it), whatever it does with it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sharpbits.analysis.facts import FactMemory
from sharpbits.analysis.syntax import walk_nodes

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


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class KeyWalks(FactMemory):
    """The key-reuse walk of each function of the last version that had one, and the project index's answers to
    the scope filter (see the module docstring)."""

    def __init__(self) -> None:
        self._walks: dict[int, _KeyWalk] = {}  # id(function node) -> its walk in the last version that ran one
        self._next: dict[int, _KeyWalk] = {}
        self.reused = 0  # walks taken again (for tests and benchmarks)
        self.run = 0  # walks run
        # id(function node) -> (node, recorded kinds, answer) of `_project_may_consume`, last version and this one
        self._answers: dict[int, tuple[ast.AST, dict[int, Kind], bool]] = {}
        self._next_answers: dict[int, tuple[ast.AST, dict[int, Kind], bool]] = {}
        self._version: tuple[tuple[Any, ...], list[ast.stmt]] | None = None  # the module's part and body, last seen
        self._kept: set[int] = set()  # ids of this version's statements whose functions' answers may be taken
        # id(statement) -> (statement, (names it names, names it defines, whether it holds a class or a global))
        self._names: dict[int, tuple[ast.stmt, tuple[frozenset[str], frozenset[str], bool]]] = {}
        self.answers_reused = 0  # answers taken again in the last version (for tests and benchmarks)

    def begin(self) -> None:
        self._next = {}
        self._next_answers = {}
        self._kept = set()
        self.answers_reused = 0

    def commit(self) -> None:
        self._walks, self._next = self._next, {}
        self._answers, self._next_answers = self._next_answers, {}

    def begin_version(self, model: KeyFlow) -> None:
        """This version's statements whose functions' answers about other statements (the project index's, and
        the questions a walk asked) hold from the last version (see the module docstring); called after `begin`."""
        scopes = model.scopes
        body = scopes.tree.body
        project = model.model.project
        module = (project.index.changes_beside(project.module) if project is not None else None,
                  frozenset(scopes.aliases.items()), dict(model.kinds.module_env),
                  tuple(s for s in body if not isinstance(s, _DEFINITIONS)),
                  tuple(s.name for s in body if isinstance(s, _DEFINITIONS)))
        last, self._version = self._version, (module, body)
        if last is None or last[0] != module:
            return
        old_body = last[1]
        old = {id(s) for s in old_body}
        new = {id(s) for s in body}
        touched = [s for s in old_body if id(s) not in new] + [s for s in body if id(s) not in old]
        touched_named: set[str] = set()
        defined: set[str] = set()
        # the names module-level statements bind (the same statements in both versions: the module's part)
        bound_at_module = frozenset().union(*(self._names_of(s)[1] for s in module[3]))
        for s in touched:
            named, made, unsafe = self._names_of(s)
            if unsafe:
                return
            touched_named |= named
            defined |= made
            defined |= named & bound_at_module  # read anywhere (see the module docstring)
        focus = {id(s) for s in touched}
        rest = [s for s in body if id(s) not in focus]
        while True:  # (a module-level statement is the same object, kinds and all: what names it is not run again)
            more = [s for s in rest if not (names := self._names_of(s))[0].isdisjoint(defined)
                    or (isinstance(s, _DEFINITIONS) and not names[1].isdisjoint(touched_named))]
            if not more:
                break
            for s in more:
                focus.add(id(s))
                defined |= self._names_of(s)[1]
            rest = [s for s in rest if id(s) not in focus]
        self._kept = {id(s) for s in rest}
        if len(self._names) > 2 * len(new):
            self._names = {k: v for k, v in self._names.items() if k in new}

    def _names_of(self, statement: ast.stmt) -> tuple[frozenset[str], frozenset[str], bool]:
        kept = self._names.get(id(statement))
        if kept is None or kept[0] is not statement:
            named: set[str] = set()
            defined: set[str] = set()
            unsafe = False
            binds = not isinstance(statement, _DEFINITIONS)  # a module-level statement: the names it binds count
            for n in walk_nodes(statement):  # as defined (`step = make_step()` links `step(key)` to `make_step`)
                cls = type(n)
                if cls is ast.Name:
                    named.add(n.id)  # type: ignore[attr-defined]
                    if binds and type(n.ctx) is not ast.Load:  # type: ignore[attr-defined]
                        defined.add(n.id)  # type: ignore[attr-defined]
                elif cls is ast.Attribute:
                    named.add(n.attr)  # type: ignore[attr-defined]
                elif cls is ast.alias:  # (what an import binds is in the module's part: `aliases`)
                    named.add((n.asname or n.name).split(".")[0])  # type: ignore[attr-defined]
                elif cls is ast.FunctionDef or cls is ast.AsyncFunctionDef:
                    defined.add(n.name)  # type: ignore[attr-defined]
                elif cls is ast.ClassDef or cls is ast.Global or cls is ast.Nonlocal:
                    unsafe = True
            kept = self._names[id(statement)] = (statement, (frozenset(named), frozenset(defined), unsafe))
        return kept[1]

    def kept(self, model: KeyFlow, info: FunctionInfo) -> bool:
        """Whether the top-level statement holding the function is one whose answers about other statements
        hold from the last version (`begin_version`)."""
        if not self._kept:
            return False
        parents, tree = model.scopes.parents, model.scopes.tree
        statement: ast.AST | None = info.node
        while statement is not None and (parent := parents.get(statement)) is not tree:
            statement = parent  # (up to the top-level statement holding the function)
        return statement is not None and id(statement) in self._kept

    def project_answer(self, model: KeyFlow, info: FunctionInfo, records: dict[int, Kind],
                       ask: Callable[[], bool]) -> bool:
        """`ask()` (the function's `_project_may_consume`), from the last version when it holds (see the module
        docstring). `records`: the kinds the function's flow recorded in this version."""
        key = id(info.node)
        old = self._answers.get(key)
        if (old is not None and old[0] is info.node and (old[1] is records or old[1] == records)
                and self.kept(model, info)):
            self._next_answers[key] = old
            self.answers_reused += 1
            return old[2]
        answer = ask()
        self._next_answers[key] = (info.node, records, answer)
        return answer

    def found(self, model: KeyFlow, info: FunctionInfo, always: dict[str, set[int]],
              flows: list[tuple[int, dict[int, Kind]]],
              walk: Callable[[list[Asked]], list[KeyReuse]]) -> list[KeyReuse]:
        """What `walk(log)` finds (it runs the function's walk, appending each call's `argument_uses` answer to
        `log`), from the last walk of the same function when everything it read is the same. `flows`: the
        recorded kinds of the function and of every function inside it, in this version."""
        old = self._walks.get(id(info.node))
        if (old is not None and old.node is info.node and old.aliases == model.scopes.aliases and old.always == always
                and _same_flows(old.flows, flows) and (self.kept(model, info) or _same_uses(model, info, old.asked))):
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
