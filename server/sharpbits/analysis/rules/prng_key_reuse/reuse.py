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
(`KeyFlow.seed_label`; a function's walk and the seeded keys of a repeated body ask it), and a parametrize table
only while every read of it is a parametrize argument (`_ScopeWalk._case_row`). So a touched statement that names
one links every statement that names it too (as if it defined it), whatever it does with it.

And the module passes that follow the walks (`ModulePasses`): per function, the scope filter's answer
(`KeyFlow._may_consume`), the closure reuses (`_closure_reuses`: a key a repeated body or a tree-mapped function
closes over, a key handed unmapped to a vmapped function), the decorator reuses (`_decorator_key_reuses`), its key
facts (`KeyFlow._key_facts`, which `always` is made of) and, for a body run per iteration, what runs it and the keys
of a literal seed it consumes (`seed_keys_in_repeated_bodies`); per class, what its methods consume after
`__init__` (`after_init_reuses`); per loop call, the body it runs and the keys that body hands back in its carry
(`carry_reuses`) and the body it runs per iteration (`seed_keys_in_repeated_bodies`). Each reads the function's
(class's, call's) own nodes, the imports, the kinds the flows of its statement's functions recorded (a tree-mapped
lambda reads those of the function it is in; no pass reads a parameter's kind but through them) and their trace
sites (an unmapped key is read at the vmap call site the trace site names), which module functions always consume
a key argument (the filter and the walks after `__init__` read it: compared whole), and, through names,
module-level statements and classes, other statements (which function a call or a loop runs, which calls name a
decorated function, what a framework's apply draws, module constants). So a result is taken again when the
top-level statement holding it is kept (`kept`, above) and every function of that statement has the same recorded
kinds (the same flow records, or equal ones) and equal trace sites (the same call or decorator nodes, statics and
all) as in the last version, and, for the two that read it, `always` is the same. A function's walk is then taken
again too (all it reads is among these). The passes put the results together in the order they always did
(functions in the order of `Scopes.functions`, classes in the order of `nodes`, loop calls in walk order), so the
findings come out the same and in the same order.
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
    from sharpbits.analysis.rules.prng_key_reuse.key_flow import KeyFlow, KeyReuse, _ScopeKeyFacts
    from sharpbits.analysis.scopes import FunctionInfo


@dataclass
class _KeyWalk:
    node: ast.AST  # the function's node (kept alive: the answers below hold nodes under it)
    aliases: dict[str, str]
    always: dict[str, set[int]]
    relay: dict[str, frozenset[int]]  # KeyFlow._relayed_params of its version (the walk's key labels read it)
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
        # ids of this version's statements whose functions' answers may not be taken (None: none may be)
        self._focus: set[int] | None = None
        # id(statement) -> (statement, (names it names, names it defines, whether it holds a class or a global))
        self._names: dict[int, tuple[ast.stmt, tuple[frozenset[str], frozenset[str], bool]]] = {}
        # name -> ids of the statements that name it, and of the definitions that define it, in `_indexed` (the
        # body the index was last updated to; `_indexed_before`: the one before)
        self._named_by: dict[str, set[int]] = {}
        self._defined_by: dict[str, set[int]] = {}
        self._indexed: list[ast.stmt] | None = None
        self._indexed_before: list[ast.stmt] | None = None
        self.answers_reused = 0  # answers taken again in the last version (for tests and benchmarks)
        self.passes = ModulePasses()  # the module passes' results (see the module docstring)

    def begin(self) -> None:
        self._next = {}
        self._next_answers = {}
        self._focus = None
        self.answers_reused = 0

    def commit(self) -> None:
        self._walks, self._next = self._next, {}
        self._answers, self._next_answers = self._next_answers, {}
        self.passes.commit()

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
        touched = self._index(body)
        if last is None or last[0] != module or touched is None or last[1] is not self._indexed_before:
            return
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
        # the statements linked to the touched ones (a module-level statement is the same object, kinds and all:
        # what names it is not run again): the definitions of what they name, and, transitively, the statements
        # that name what the touched ones or those define (through the index of the names, `_index`)
        focus = {id(s) for s in touched}
        names = self._names
        pending = list(defined)
        for name in touched_named:
            for key in self._defined_by.get(name, ()):
                if key not in focus:
                    focus.add(key)
                    made = names[key][1][1]
                    pending.extend(made - defined)
                    defined |= made
        named_by = self._named_by
        while pending:
            for key in named_by.get(pending.pop(), ()):
                if key not in focus:
                    focus.add(key)
                    made = names[key][1][1]
                    pending.extend(made - defined)
                    defined |= made
        self._focus = focus

    def _index(self, body: list[ast.stmt]) -> list[ast.stmt] | None:
        """Updates the index of the names the statements name and define (`_named_by`, `_defined_by`) from the
        body it was last updated to (`_indexed_before`, then) to this one; returns the statements gone or new
        since, or None when the index was made anew."""
        indexed, self._indexed_before = self._indexed, self._indexed
        try:
            if indexed is None:
                self._named_by, self._defined_by = {}, {}
                touched = None
                for s in body:
                    self._note(s, True)
            else:
                new = {id(s) for s in body}
                old = {id(s) for s in indexed}
                gone = [s for s in indexed if id(s) not in new]
                added = [s for s in body if id(s) not in old]
                for s in gone:
                    self._note(s, False)
                for s in added:
                    self._note(s, True)
                touched = gone + added
                if len(self._names) > 2 * len(new):
                    self._names = {k: v for k, v in self._names.items() if k in new}
        except BaseException:
            self._indexed = None  # (half updated: made anew next time)
            raise
        self._indexed = body
        return touched

    def _note(self, statement: ast.stmt, present: bool) -> None:
        """Puts a statement in the index of names, or takes it out."""
        named, made, _ = self._names_of(statement)
        key = id(statement)
        for index, names in ((self._named_by, named),
                             (self._defined_by, made if isinstance(statement, _DEFINITIONS) else ())):
            for name in names:
                if present:
                    index.setdefault(name, set()).add(key)
                else:
                    holders = index.get(name)
                    if holders is not None:
                        holders.discard(key)
                        if not holders:
                            del index[name]

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
        focus = self._focus
        if focus is None:
            return False
        parents, tree = model.scopes.parents, model.scopes.tree
        statement: ast.AST | None = info.node
        while statement is not None and (parent := parents.get(statement)) is not tree:
            statement = parent  # (up to the top-level statement holding the function)
        return statement is not None and id(statement) not in focus

    def begin_passes(self, model: KeyFlow) -> ModulePasses:
        """The module passes' records of this version (`ModulePasses.begin`), after `begin_version`."""
        self.passes.begin(model, self._focus)
        return self.passes

    def answering(self) -> bool:
        """Whether the last version kept any answer of the project index (`keep_answer` has something to do)."""
        return bool(self._answers)

    def keep_answer(self, info: FunctionInfo) -> None:
        """The function's scope filter was taken from the last version (ModulePasses): so is the project index's
        answer it holds, if it asked for one (the same conditions hold, and more)."""
        old = self._answers.get(id(info.node))
        if old is not None and old[0] is info.node:
            self._next_answers[id(info.node)] = old
            self.answers_reused += 1

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
              flows_of: Callable[[], list[tuple[int, dict[int, Kind]]]],
              walk: Callable[[list[Asked]], list[KeyReuse]], held: bool = False) -> list[KeyReuse]:
        """What `walk(log)` finds (it runs the function's walk, appending each call's `argument_uses` answer to
        `log`), from the last walk of the same function when everything it read is the same. `flows_of()`: the
        recorded kinds of the function and of every function inside it, in this version. `held`: the module
        passes' results for the function hold (ModulePasses.held: its statement is kept, its functions' recorded
        kinds are the same, and so is `always`), which is all the walk reads."""
        old = self._walks.get(id(info.node))
        if old is not None and old.node is info.node and held:
            self._next[id(info.node)] = old
            self.reused += 1
            return old.found
        flows = flows_of()
        if (old is not None and old.node is info.node and old.aliases == model.scopes.aliases
                and (old.always is always or old.always == always) and old.relay == model.relay()
                and _same_flows(old.flows, flows)
                and (self.kept(model, info) or _same_uses(model, info, old.asked))):
            self._next[id(info.node)] = old
            self.reused += 1
            return old.found
        asked: list[Asked] = []
        found = walk(asked)
        self._next[id(info.node)] = _KeyWalk(info.node, dict(model.scopes.aliases), always, model.relay(), flows, asked,
                                             found)
        self.run += 1
        return found


def _same_flows(old: list[tuple[int, dict[int, Kind]]], new: list[tuple[int, dict[int, Kind]]]) -> bool:
    return len(old) == len(new) and all(
        a_id == b_id and (a is b or a == b) for (a_id, a), (b_id, b) in zip(old, new, strict=True))


def _same_uses(model: KeyFlow, info: FunctionInfo, asked: list[Asked]) -> bool:
    """Asks each call's question again, in order (as the walk, run again, would up to the first difference)."""
    return all((entry[2](model, entry[0], info) if len(entry) == 3 else model.argument_uses(entry[0], info)) == entry[1]
               for entry in asked)


class _Passes:
    """One function's (or class's) part of the module passes, carried from version to version while its node is
    in the document (see ModulePasses). The results are None where not asked yet, or where they do not hold."""

    __slots__ = ("after_init", "closure", "consumes", "decorator", "facts", "held", "node", "records", "repeats",
                 "seeds", "statement", "traces")

    def __init__(self, node: ast.AST, statement: ast.AST) -> None:
        self.node = node  # kept alive: the results hold nodes under it
        self.statement = statement  # the top-level statement holding it (the same node: the same statement)
        self.held = False  # its results hold in this version (ModulePasses.begin)
        # what it was in the version its record was last compared in: its flow's recorded kinds and its trace
        # sites (a class: none)
        self.records: Any = None
        self.traces: Any = None
        self.facts: _ScopeKeyFacts | None = None  # KeyFlow._key_facts: its own nodes and the imports alone
        self.consumes: bool | None = None  # the scope filter's answer (KeyFlow._may_consume; reads `always`)
        self.closure: list[KeyReuse] | None = None  # KeyFlow._closure_reuses for the function
        self.decorator: list[KeyReuse] | None = None  # KeyFlow._decorator_key_reuses for the function
        self.repeats: str | None = None  # seed_keys_in_repeated_bodies: what runs it per iteration, from its traces
        self.seeds: list[tuple[ast.AST, str]] | None = None  # seed_keys_in_repeated_bodies: (key, label) as a body
        self.after_init: list[KeyReuse] | None = None  # after_init_reuses for a class (reads `always`)

    def drop(self) -> None:
        """Its results do not hold in this version: asked again."""
        self.held = False
        self.consumes = self.closure = self.decorator = self.repeats = self.seeds = self.after_init = None


class ModulePasses:
    """The module passes' results per function, class and loop call, from version to version (see the module
    docstring): `begin` says which hold, the passes (key_flow.py) take them or compute and record them."""

    def __init__(self) -> None:
        self._last: dict[int, _Passes] = {}  # id(function or class node) -> its record, last version
        self._next: dict[int, _Passes] = {}
        # id(loop call) -> (the call, its scope's node, what the passes asked of it -> the answer), last version
        self._loops: dict[int, tuple[ast.Call, ast.AST | None, dict[str, Any]]] = {}
        self._next_loops: dict[int, tuple[ast.Call, ast.AST | None, dict[str, Any]]] = {}
        self._unheld: set[int] | None = None  # ids of this version's top-level statements whose results do not
        # hold (None: none holds)
        self._imports: frozenset[tuple[str, str]] | None = None  # the aliases the records' key facts follow from
        self._always: dict[str, set[int]] | None = None
        self._relay: dict[str, frozenset[int]] | None = None
        # the imports, the module level's own calls and its key facts, last version (see module_facts)
        self._module_facts: tuple[frozenset[tuple[str, str]] | None, list[ast.Call], _ScopeKeyFacts] | None = None
        self.same_always = False  # `always` is the last version's
        self.units: list[tuple[FunctionInfo, _Passes]] = []  # this version's functions and their records, in order
        # those of the module-level functions with a decorator (KeyFlow._always_consumed_params lists them)
        self.decorated: list[tuple[FunctionInfo, _Passes]] = []
        self.reused: dict[str, int] = {}  # results taken again in the last version, per pass (tests, benchmarks)
        self.run: dict[str, int] = {}  # results computed in the last version, per pass

    def begin(self, model: KeyFlow, focus: set[int] | None) -> None:
        """This version's records, one per function in the order of Scopes.functions (`units`): the results of
        the last version's record hold (`held`) when its top-level statement is kept (not in `focus`, the ids
        KeyWalks.begin_version does not keep; None: it keeps none) and every function of that statement has the
        same recorded kinds and trace sites; the others' are dropped. Then `set_always`."""
        self.reused, self.run = {}, {}
        self._next_loops = {}
        scopes = model.scopes
        records_of = scopes.reusable.flows.records  # type: ignore[union-attr]
        imports = frozenset(scopes.aliases.items())
        same_imports, self._imports = self._imports == imports, imports
        parents, tree = scopes.parents, scopes.tree
        last, now = self._last, {}
        last_get = last.get
        changed: set[int] = set()  # ids of the statements with a function whose context changed
        units: list[tuple[FunctionInfo, _Passes]] = []
        append = units.append
        for info in scopes.functions.values():
            node = info.node
            record = last_get(id(node))
            if record is None or record.node is not node:
                record = _Passes(node, _statement_of(node, parents, tree))
                record.records, record.traces = records_of(node), info.traces
            elif focus is not None and id(record.statement) not in focus:  # (kept: the same imports, key facts)
                # the context: kept as the last version's where equal (the next version compares it again)
                records = records_of(node)
                if record.records is not records:
                    if record.records != records:
                        changed.add(id(record.statement))
                    record.records = records
                if record.traces != info.traces:
                    changed.add(id(record.statement))
                    record.traces = info.traces
                record.held = True
            else:
                record.drop()
                if not same_imports:
                    record.facts = None
                record.records, record.traces = records_of(node), info.traces
            now[id(node)] = record
            append((info, record))
        self._next, self.units = now, units
        self._unheld = focus | changed if focus is not None and changed else focus
        if changed:  # (rare: the functions an edit changes the kinds or trace sites of are linked to it by name)
            for _, record in units:
                if id(record.statement) in changed:
                    record.drop()

    def set_always(self, always: dict[str, set[int]], relay: dict[str, frozenset[int]]) -> dict[str, set[int]]:
        """This version's `always` (which module functions always consume a key argument, found from the records'
        key facts) and `relay` (which hand a parameter on to one, KeyFlow._relayed_params): the results that read
        them do not hold when either changed. Returns the last version's `always` when both are equal (the walks
        compare it)."""
        last, self._always = self._always, always
        last_relay, self._relay = self._relay, relay
        self.same_always = last is not None and (last is always or last == always) and last_relay == relay
        if self.same_always:
            self._always = last
            return last  # type: ignore[return-value]
        for _, record in self.units:
            record.consumes = None
        return always

    def of(self, model: KeyFlow, node: ast.AST) -> _Passes:
        """This version's record for a function or class node (`begin` made those of the functions)."""
        record = self._next.get(id(node))
        if record is not None and record.node is node:
            return record
        record = self._last.get(id(node))
        if record is None or record.node is not node:
            record = _Passes(node, _statement_of(node, model.scopes.parents, model.scopes.tree))
        elif self._unheld is not None and id(record.statement) not in self._unheld:
            record.held = True
            if not self.same_always:
                record.after_init = None
        else:
            record.drop()
        self._next[id(node)] = record
        return record

    def loop(self, call: ast.Call, scope_of: Callable[[], FunctionInfo | None]) -> dict[str, Any]:
        """What the passes asked of a loop call (what -> answer): the last version's answers when the call's
        function is held (a call at module level is asked again), else a fresh record they fill in (`scope_of()`:
        the call's function)."""
        now = self._next_loops.get(id(call))
        if now is not None and now[0] is call:
            return now[2]
        old = self._loops.get(id(call))
        if old is not None and old[0] is call and old[1] is not None:
            record = self._next.get(id(old[1]))
            if record is not None and record.node is old[1] and record.held:
                self._next_loops[id(call)] = old
                return old[2]
        scope = scope_of()
        entry: tuple[ast.Call, ast.AST | None, dict[str, Any]] = (call, scope.node if scope is not None else None, {})
        self._next_loops[id(call)] = entry
        return entry[2]

    def module_facts(self, model: KeyFlow, compute: Callable[[], _ScopeKeyFacts]) -> _ScopeKeyFacts:
        """The module level's key facts (`compute()`: `_ScopeKeyFacts.of(model, None)`): they follow from its own
        calls (the module-level statements', the decorators', defaults' and class bodies' calls) and the imports
        alone, so they are the last version's when those are the same calls, in the same order."""
        calls = model.scopes.own_calls(None)
        last = self._module_facts
        if last is not None and last[0] == self._imports and last[1] == calls:  # (nodes compare by identity)
            self.count("module facts", 1, 0)
            return last[2]
        facts = compute()
        self._module_facts = (self._imports, calls, facts)
        self.count("module facts", 0, 1)
        return facts

    def count(self, what: str, reused: int, run: int) -> None:
        """For tests and benchmarks: a pass took `reused` results again and computed `run`."""
        self.reused[what] = self.reused.get(what, 0) + reused
        self.run[what] = self.run.get(what, 0) + run

    def commit(self) -> None:
        self._last, self._next = self._next, {}
        self._loops, self._next_loops = self._next_loops, {}
        self.units, self.decorated = [], []


def _statement_of(node: ast.AST, parents: dict[ast.AST, ast.AST], tree: ast.AST) -> ast.AST:
    """The top-level statement holding a node."""
    while (parent := parents.get(node)) is not tree and parent is not None:
        node = parent
    return node
