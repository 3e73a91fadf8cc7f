"""Rule results reused per top-level statement: an edit inside one function re-runs the function-local rules for
that function only (and for what its change touches), and takes the rest of their findings from the last version.

IncrementalAnalysis keeps one `RuleResults` per document; `engine.analyze_parsed` asks it, version after version,
which statements each rule that declares itself function-local (`Rule.reuse = "function"`, rules/base.py) must
run on, runs the rule on those only (through `FocusedModel`, which lists only their nodes and traced functions),
and hands back the findings of every other statement from the last version. The result is exactly what a full
analysis gives (tests/analysis/test_incremental.py checks it over random edit sequences, and that the reuse
happens). What a function-local rule's findings in a statement may depend on, and how each is compared:

- the statement's own syntax: the same statement object (the parse shares an unchanged statement's nodes, with
  their positions, between versions; a statement below an added or deleted line is a new object);
- what the model says about each function defined in it (its "context"): whether and how it is traced (its
  trace sites, static and donated parameters, compiled or abstract), the kinds of its parameters, and its value
  kinds (the identity of its dataflow's records, which FunctionFlows keeps only when everything the flow read is
  the same);
- the module: its imports and aliases, the kinds of its module-level names, every top-level statement that is not
  a function or class definition, and the names those definitions bind (all compared as a whole: any change runs
  every rule on every statement), and the settings;
- other statements, through names: a statement is run again when it names something a touched statement (new,
  gone, or whose context changed) defines, and so on transitively (what a helper returns for an argument, a
  module-level `g = jax.jit(f)`), or when a touched statement names one of its functions (their call sites: the
  values passed, `f` also run eagerly, a `global` declared elsewhere is a module-level change);
- other statements, through a fact's answer: what a rule asked of a fact through `Fact.across` while it ran on
  the statement (the int `self.steps` holds, from the stores of `steps` anywhere and the calls of the class) is
  asked again of the new version, and the statement is run again when an answer differs.

Rules that read more than that (key flow across calls, globals changed elsewhere, loops around a caller, the
project index, the whole text) keep the default `reuse = "module"` and run whole, every version.

A reused finding is a copy of the last version's, pointing at the new text; its fix (when it has one) is built,
on demand only, from a full analysis of the new text (computed once per version, shared by every reused finding):
a fix may read anything of the module, and is asked for only when the editor resolves a code action.
"""

from __future__ import annotations

import ast
import dataclasses
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from sharpbits.analysis.syntax import walk_nodes
from sharpbits.findings import Finding, Fix

if TYPE_CHECKING:
    from sharpbits.analysis.model import ModuleModel
    from sharpbits.analysis.scopes import FunctionInfo, Scopes
    from sharpbits.analysis.traced import TracedCode

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", None)
    return min(statement.lineno, *(d.lineno for d in decorators)) if decorators else statement.lineno


class Statements:
    """The top-level statements of one version and which one holds a line."""

    def __init__(self, body: list[ast.stmt]) -> None:
        self.body = body
        self.starts = [_first_line(s) for s in body]
        self.ends = [s.end_lineno or s.lineno for s in body]

    def index_of_line(self, line: int) -> int | None:
        i = bisect_right(self.starts, line) - 1
        return i if i >= 0 and line <= self.ends[i] else None


def _names(statement: ast.stmt, scopes: Scopes) -> tuple[frozenset[str], frozenset[str]]:
    """(every identifier the statement names: names, attributes, global/nonlocal declarations, imported names;
    the names of the functions and classes it defines, at any depth, and the names it declares global), from the
    walk's index of the statement's nodes (ast.walk for a statement of another version)."""
    if scopes.statement_nodes(statement, ast.Name) or scopes.statement_nodes(statement, ast.Attribute):
        def nodes(cls: type) -> list[ast.AST]:
            return [*scopes.statement_nodes(statement, cls), *([statement] if type(statement) is cls else [])]
    else:
        walked = list(walk_nodes(statement))

        def nodes(cls: type) -> list[ast.AST]:
            return [n for n in walked if type(n) is cls]
    named = {n.id for n in nodes(ast.Name)}  # type: ignore[attr-defined]
    named.update(n.attr for n in nodes(ast.Attribute))  # type: ignore[attr-defined]
    defined = {n.name for cls in _DEFINITIONS for n in nodes(cls)}  # type: ignore[attr-defined]
    for cls in (ast.Global, ast.Nonlocal):
        for n in nodes(cls):
            named.update(n.names)  # type: ignore[attr-defined]
            defined.update(n.names)  # type: ignore[attr-defined]  # a module-level name no longer constant
    named.update((n.asname or n.name).split(".")[0] for n in nodes(ast.alias))  # type: ignore[attr-defined]
    return frozenset(named), frozenset(defined)


@dataclasses.dataclass
class _Kept:
    """One version, as the next compares with it."""

    module: tuple[Any, ...]  # the module's part (see the module docstring), compared as a whole
    statements: Statements
    contexts: dict[int, dict[int, tuple[Any, ...]]]  # id(statement) -> id(function node) -> its context
    records: list[object]  # the dataflow records the contexts name by id: kept alive so no id is reused
    findings: dict[str, dict[int, list[Finding]]]  # rule name -> id(statement) -> its findings, in order
    # id(statement) -> each `Fact.across` question the rules asked for it ((ask, args)) -> its answer
    questions: dict[int, dict[tuple[Callable[..., object], tuple[object, ...]], object]] = dataclasses.field(
        default_factory=dict)


class RuleResults:
    """What one document's function-local rules found per top-level statement, kept from version to version."""

    def __init__(self) -> None:
        self._kept: _Kept | None = None
        self._names: dict[int, tuple[ast.stmt, tuple[frozenset[str], frozenset[str]]]] = {}
        self.rerun_statements = 0  # statements the function-local rules ran on in the last version (tests, benches)
        self.reused_statements = 0  # statements whose findings were taken again in the last version

    def names(self, statement: ast.stmt, scopes: Scopes) -> tuple[frozenset[str], frozenset[str]]:
        kept = self._names.get(id(statement))
        if kept is None or kept[0] is not statement:
            kept = self._names[id(statement)] = (statement, _names(statement, scopes))
        return kept[1]

    def begin(self, model: ModuleModel, settings: object) -> VersionRules:
        """This version's plan: which statements the function-local rules run on (all of them when nothing can
        be reused)."""
        return VersionRules(self, model, settings)

    def commit(self, version: VersionRules) -> None:
        self._kept = version.kept
        live = {id(s) for s in version.kept.statements.body}
        self._names = {k: v for k, v in self._names.items() if k in live}


class VersionRules:
    """One version's use of a document's RuleResults: `run(rule_cls, run_on)` per function-local rule."""

    def __init__(self, memory: RuleResults, model: ModuleModel, settings: object) -> None:
        self.memory = memory
        self.model = model
        body = model.tree.body
        self.statements = Statements(body)
        kinds = model.kinds
        flows = model.scopes.reusable.flows if model.scopes.reusable is not None else None
        contexts: dict[int, dict[int, tuple[Any, ...]]] = {}  # id(statement) -> id(function node) -> context
        records: list[object] = []
        starts, ends = self.statements.starts, self.statements.ends
        for fn in model.scopes.functions.values():
            node = fn.node
            line = node.lineno
            index = bisect_right(starts, line) - 1  # (Statements.index_of_line, inlined: a thousand an edit)
            if index < 0 or line > ends[index]:
                continue
            flow = flows.records(node) if flows is not None else None
            records.append(flow)
            # the function's context; no copies: each version's FunctionInfos are fresh (Scopes copies them
            # unfilled) and the model's phases give them new lists, sets and dicts, never changed once it is built
            contexts.setdefault(id(body[index]), {})[id(node)] = (
                node, fn.qualname, fn.traces, fn.compiled, fn.abstract, fn.static_params, fn.donated_params,
                fn.param_kinds, id(flow))
        module = (
            settings,
            frozenset(model.scopes.aliases.items()),
            dict(kinds.module_env),
            tuple(s for s in body if not isinstance(s, _DEFINITIONS)),
            tuple(s.name for s in body if isinstance(s, _DEFINITIONS)),
        )
        self.kept = _Kept(module, self.statements, contexts, records, {})
        self._in_focus: list[ast.stmt] | None = None  # the statements in focus, in order (once asked)
        self.focus = self._focus(memory._kept)

    def _focus(self, last: _Kept | None) -> set[int] | None:
        """ids of the statements the function-local rules must run on; None: all (nothing can be reused)."""
        if last is None or last.module != self.kept.module:
            return None
        body = self.statements.body
        old = {id(s) for s in last.statements.body}
        new = {id(s) for s in body}
        touched: list[ast.stmt] = [s for s in last.statements.body if id(s) not in new]  # gone
        touched += [s for s in body if id(s) not in old or self.kept.contexts.get(id(s)) != last.contexts.get(id(s))]
        names = partial(self.memory.names, scopes=self.model.scopes)
        focus = {id(s) for s in touched if id(s) in new}
        touched_named: set[str] = set()
        defined: set[str] = set()
        for s in touched:
            named, made = names(s)
            touched_named |= named
            defined |= made
        rest = [s for s in body if id(s) not in focus]
        module_level = [s for s in body if not isinstance(s, _DEFINITIONS)]
        # callers of what the touched statements define (transitively), and statements whose functions they name;
        # the module-level statements go together (one dataflow runs through them all)
        names_of, scopes = self.memory.names, self.model.scopes
        while True:
            more = [s for s in rest if not (pair := names_of(s, scopes))[0].isdisjoint(defined)
                    or not pair[1].isdisjoint(touched_named)]
            if any(id(s) in focus or s in more for s in module_level):
                more += [s for s in module_level if id(s) not in focus and s not in more]
            if not more:
                break
            for s in more:
                focus.add(id(s))
                defined |= names(s)[1]
            rest = [s for s in rest if id(s) not in focus]
        # statements whose findings read a fact's answer about other statements (Fact.across): run again when the
        # answer differs now; the others' questions hold for the findings taken again
        for s in rest:
            asked = last.questions.get(id(s))
            if not asked:
                continue
            if any(ask(self.model, *args) != answer for (ask, args), answer in asked.items()):
                focus.add(id(s))
            else:
                self.kept.questions[id(s)] = dict(asked)
        return focus

    def run(self, rule_name: str, run_on: Callable[[ModuleModel], list[Finding]], text: str,
            fix_from_fresh: Callable[[Finding], Fix | None]) -> list[Finding]:
        """The rule's findings for this version: run (`run_on(model)`) on the statements in focus only, the
        others' taken from the last version; run on the whole module when nothing can be reused, or when the
        focused run reported outside its statements (then the rule is not function-local after all)."""
        last = self.memory._kept
        kept_findings = last.findings.get(rule_name) if last is not None else None
        focus = self.focus
        self.model.note_across = self.note_across
        try:
            return self._run(rule_name, run_on, text, fix_from_fresh, last, kept_findings, focus)
        finally:
            self.model.note_across = None

    def note_across(self, where: ast.AST, question: tuple[Callable[..., object], tuple[object, ...]],
                    answer: object) -> None:
        """A rule running now asked a fact about other statements for the statement holding `where` (Fact.across)."""
        index = self.statements.index_of_line(getattr(where, "lineno", 0))
        if index is not None:
            self.kept.questions.setdefault(id(self.statements.body[index]), {})[question] = answer

    def _run(self, rule_name: str, run_on: Callable[[ModuleModel], list[Finding]], text: str,
             fix_from_fresh: Callable[[Finding], Fix | None], last: _Kept | None,
             kept_findings: dict[int, list[Finding]] | None, focus: set[int] | None) -> list[Finding]:
        if focus is not None and kept_findings is not None:
            if self._in_focus is None:  # the same for every rule of the version
                self._in_focus = [s for s in self.statements.body if id(s) in focus]
            focused = FocusedModel(self.model, self._in_focus)
            try:
                found = run_on(focused)  # type: ignore[arg-type]
            finally:
                focused.release()  # fixes built later see the whole module
            split = self._split(found)
            if split is not None and all(key in focus for key in split):
                out: list[Finding] = []
                by_statement: dict[int, list[Finding]] = {}
                reused = 0
                for s in self.statements.body:
                    key = id(s)
                    if key in focus:
                        part = split.get(key)
                    else:
                        reused += 1
                        kept = kept_findings.get(key)  # (most statements have none: no list made for them)
                        part = [_again(f, text, fix_from_fresh) for f in kept] if kept else None
                    if part:
                        by_statement[key] = part
                self.memory.rerun_statements = len(focus)
                self.memory.reused_statements = reused
                self.kept.findings[rule_name] = {k: [_copy(f) for f in v] for k, v in by_statement.items()}
                # in the order a full run reports them within each statement (the engine sorts by position)
                for part in by_statement.values():
                    out.extend(part)
                return out
        found = run_on(self.model)
        split = self._split(found)
        if split is not None:
            self.kept.findings[rule_name] = {k: [_copy(f) for f in v] for k, v in split.items()}
        if focus is None or kept_findings is None:
            self.memory.rerun_statements = len(self.statements.body)
            self.memory.reused_statements = 0
        return found

    def _split(self, findings: Iterable[Finding]) -> dict[int, list[Finding]] | None:
        """The findings by the top-level statement holding their first line; None when one is outside all."""
        body = self.statements.body
        out: dict[int, list[Finding]] = {}
        for f in findings:
            index = self.statements.index_of_line(f.line)
            if index is None or f.cell is not None:
                return None
            out.setdefault(id(body[index]), []).append(f)
        return out


def _copy(finding: Finding) -> Finding:
    """A copy to keep: consumers may change a finding they were given (its severity)."""
    return dataclasses.replace(finding, _fix=None, _fix_built=False)


def _again(kept: Finding, text: str, fix_from_fresh: Callable[[Finding], Fix | None]) -> Finding:
    """A kept finding for a new version of the text: its fix, if it has one, comes from a full analysis."""
    builder = None
    if kept.fix_builder is not None:
        def builder() -> Fix | None:
            return fix_from_fresh(found)
    found = dataclasses.replace(kept, source_text=text if kept.source_text is not None else None,
                                fix_builder=builder, _fix=None, _fix_built=False)
    return found


class _FocusedScopes:
    """`Scopes` listing only the nodes of some top-level statements (in the order `Scopes` lists them)."""

    def __init__(self, scopes: Scopes, focus: list[ast.stmt]) -> None:
        self._scopes = scopes
        self._focus: list[ast.stmt] | None = focus

    def __getattr__(self, name: str) -> Any:
        return getattr(self._scopes, name)

    def nodes(self, *types: type) -> list[ast.AST]:
        focus = self._focus
        if focus is None:
            return self._scopes.nodes(*types)
        scopes = self._scopes
        return [n for t in types for n in [*(s for s in focus if type(s) is t),
                                            *(n for s in reversed(focus) for n in scopes.statement_nodes(s, t))]]

    def candidates(self, what: str, types: tuple[type, ...], keep: Callable[[ast.AST], bool]) -> list[ast.AST]:
        focus = self._focus
        if focus is None:
            return self._scopes.candidates(what, types, keep)
        scopes = self._scopes
        return [n for t in types for n in [*(s for s in focus if type(s) is t and keep(s)),
                                            *(n for s in reversed(focus) for n in scopes.statement_nodes(s, t)
                                              if keep(n))]]


class _FocusedTraced:
    def __init__(self, traced: TracedCode, focus: list[ast.stmt]) -> None:
        self._traced = traced
        self._statements: Statements | None = Statements(focus)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._traced, name)

    def traced_functions(self) -> Iterator[FunctionInfo]:
        found = self._traced.traced_functions()
        statements = self._statements
        if statements is None:
            return found
        return (fn for fn in found if statements.index_of_line(fn.node.lineno) is not None)


class FocusedModel:
    """A ModuleModel whose `scopes.nodes`, `scopes.candidates` and `traced.traced_functions` list only what is in
    some top-level statements: what a function-local rule iterates over. Everything else (facts, kinds, names)
    is the whole module's. `release()` makes it the whole module's again (for fixes built later)."""

    def __init__(self, model: ModuleModel, focus: list[ast.stmt]) -> None:
        self._model = model
        self.scopes = _FocusedScopes(model.scopes, focus)
        self.traced = _FocusedTraced(model.traced, focus)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)

    def release(self) -> None:
        self.scopes._focus = None
        self.traced._statements = None
