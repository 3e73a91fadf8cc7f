"""Analysis of one document as it changes: what the language server calls on every version of an open file.

`IncrementalAnalysis(path, selection).update(text)` returns exactly `analyze(text, path, selection)`: the same
findings, syntax error and traced functions (tests/analysis/test_incremental.py checks this over random edit
sequences, over every one-line replacement in modules whose functions depend on each other, and that every
reused parse is the one `ast.parse` gives, positions included). What it reuses:

- whole results: a text seen among the last few versions (an undo, a redo, a change and its reversal, a
  didChange that repeats the text) is answered without any work;
- the parse: when an edit keeps the number of lines (typing inside a line, the common case while typing) and
  stays within the lines of one top-level statement (a function, a class, an assignment) that shares no line
  with another, only that statement's lines are parsed and put in place of the old one; every other
  statement's nodes are the previous version's (nothing is shifted, so nothing earlier results hold changes).
  An edit that adds or deletes lines parses from the statement it starts in to the end of the text: the
  statements above keep their nodes, those below get new ones (their lines moved);
- the model's work on those unchanged statements (analysis/reuse.py): the walk of each top-level statement
  (parents, owners, nodes by type, the functions it defines), and each function's value-kind dataflow when
  everything it read is the same (its parameter kinds and closure, the module-level kinds and imports, and the
  answers to what it asked of other functions: which function a name calls, what a helper returns for the
  argument kinds it passed). An edit inside a helper that changes what it returns runs its callers' flows again;
  a change to what the imports or module-level names hold (their kinds) runs every flow again. Likewise each
  function's walk for PRNG key reuse (when the kinds it read, the imports, which functions always consume a key
  and what each call it met may consume are the same), and the key passes over every function, class and loop
  that follow the walks (the scope filter, closed-over and unmapped keys, decorators' keys, keys handed back in a
  loop's carry, literal seeds in loop bodies, what methods consume after `__init__`: for the functions of a
  statement not linked by name to the edit whose recorded kinds and trace sites are the same; rules/
  prng_key_reuse/reuse.py), facts that follow from a node and the imports (a
  function's parameter evidence, what a function's calls say about keys, the calls that apply transformations,
  what each dotted name refers to), and the first filters of the rules and the model that look at syntax only
  (`Scopes.candidates`, `syntax_fact`: the conditions of a function, its global reads, its side-effect
  candidates, a statement's mutations, subscripts and dtype requests). Parents and owners are copied from the
  last version and changed only where statements were added or dropped. What finding the traced functions
  worked out (analysis/traced.py, TracedParts): per statement, the functions its calls transform with their trace
  sites and its transformation decorators' sites; per traced function, what its code reaches and what follows
  from its trace sites (static and donated parameters), each while the imports are the same and the questions it
  asked of other statements (which function or class a name is, what a module-level name is bound to, the values
  passed to a parameter, whether a branch runs) get the same answers. Which functions are traced, and why, is
  found from those parts again every version (in the order a fresh build finds it).

- the rules' findings, per top-level statement, for the rules that declare themselves function-local
  (`Rule.reuse = "function"`; analysis/rule_results.py says what that allows and how it is checked): they run on
  the statements an edit touched (new, gone, or whose functions' trace sites, parameter kinds or value kinds
  changed) and on the statements linked to those by name (callers of what they define, functions they call)
  or by a fact's answer about other statements that a rule asked for them (`Fact.across`, asked again of each
  version), and the other statements' findings are the last version's (their fixes are built on demand from a
  full analysis).

Not reused: what kinds the parameters of traced functions have (from the whole module), and the whole-module
rules (key flow across calls, but for the parts above; globals changed elsewhere, jit in a loop through callers,
donation, float64 and x64, timing), whose findings in one function depend on others in ways they do not spell out
yet: they run whole every version. Nothing is reused for the statements below an added or deleted line (their
nodes are new: the parse gives them their new positions).
"""

from __future__ import annotations

import ast
import gc
import threading
import warnings
from collections import OrderedDict

from sharpbits.analysis.engine import AnalysisResult, Selection, analyze_parsed, unparsable
from sharpbits.analysis.parsing import parse_module
from sharpbits.analysis.project_index import ProjectIndex
from sharpbits.analysis.reuse import Reusable
from sharpbits.analysis.rule_results import RuleResults
from sharpbits.source import SourceText, split_lines


class IncrementalAnalysis:
    """The analysis of one document across its versions; not shared between threads without a lock."""

    def __init__(self, path: str = "<unknown>", selection: Selection | None = None, remembered: int = 8,
                 project: ProjectIndex | None = None) -> None:
        self.path = path
        self.project = project  # the project index (None: the process's shared one, as for `analyze`)
        self.selection = selection or Selection()
        self.remembered = max(remembered, 1)
        self._recent: OrderedDict[str, AnalysisResult] = OrderedDict()  # text -> its result, newest last
        self._parsed: tuple[str, list[str], ast.Module] | None = None  # the last text that parsed, its lines, tree
        self.reusable = Reusable()  # what the last version's model hands to the next (analysis/reuse.py)
        self.rule_results = RuleResults()  # the function-local rules' findings per statement (rule_results.py)
        self.reused_results = 0  # updates answered from an earlier version (for benchmarks and tests)
        self.reused_parses = 0  # updates that parsed one statement instead of the whole text
        self._lock = threading.Lock()

    def update(self, text: str, selection: Selection | None = None) -> AnalysisResult:
        """Exactly `analyze(text, self.path, selection)`; `selection` (default: the last one) replaces the
        settings, and no result computed under other settings is reused. Safe to call from several threads."""
        with self._lock:
            if selection is not None and selection != self.selection:
                self.reconfigure(selection)
            return self._update(text)

    def _update(self, text: str) -> AnalysisResult:
        result = self._recent.get(text)
        if result is not None:
            self._recent.move_to_end(text)
            self.reused_results += 1
            return result
        source = SourceText(self.path, text)
        tree = self.parse(text)
        result = unparsable(source, tree) if isinstance(tree, Exception) else analyze_parsed(
            source, tree, self.selection, reusable=self.reusable, project=self.project,
            rule_results=self.rule_results)
        self._recent[text] = result
        while len(self._recent) > self.remembered:
            self._recent.popitem(last=False)
        return result

    def reconfigure(self, selection: Selection) -> None:
        """New settings (rules, severities): no result computed under the old ones is reused."""
        self.selection = selection
        self._recent.clear()
        self.rule_results = RuleResults()

    def parse(self, text: str) -> ast.Module | Exception:
        """What `ast.parse(text)` gives (or the exception it raises), reusing the previous version's nodes where
        the text did not change; the tree is remembered for the next version. Its nodes may be shared with
        earlier trees: never change them."""
        if self._parsed is not None and self._parsed[0] == text:
            return self._parsed[2]  # parsed just before (lsp/early.py times the parse, then updates)
        lines = split_lines(text)
        tree = self._spliced(text, lines)
        if tree is None:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # SyntaxWarnings about the user's code are not ours to print
                    tree = parse_module(text, filename=self.path)
            except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
                return exc  # the last tree stays: the next version is compared with the last one that parsed
        else:
            self.reused_parses += 1
        self._parsed = (text, lines, tree)
        return tree

    def _spliced(self, text: str, lines: list[str]) -> ast.Module | None:
        """The new tree from the previous one and a parse of the part that changed, or None when that does not
        apply (then the whole text must be parsed): the one statement whose lines changed when the number of
        lines is the same, else every statement from the first changed line to the end."""
        if self._parsed is None:
            return None
        old_text, old_lines, old_tree = self._parsed
        if text.startswith("\ufeff") or old_text == text:
            return None
        shorter = min(len(lines), len(old_lines))
        first = 0
        while first < shorter and lines[first] == old_lines[first]:
            first += 1
        first += 1  # 1-based, the first changed line
        body = old_tree.body
        if len(lines) == len(old_lines):
            last = len(lines) - 1
            while lines[last] == old_lines[last]:
                last -= 1
            within = self._one_statement(lines, body, first, last + 1)
            if within is not _NOT_WITHIN_ONE:
                return within  # type: ignore[return-value]
        return self._from_line(lines, body, first)

    def _one_statement(self, lines: list[str], body: list[ast.stmt], first: int, last: int) -> object:
        """The tree with the one statement whose lines hold lines first..last parsed again; _NOT_WITHIN_ONE when
        the change is not within one statement's lines, None when that statement must not be parsed alone."""
        for index, statement in enumerate(body):
            start = _first_line(statement)
            end = statement.end_lineno or statement.lineno
            if end < first:
                continue
            if start > first or end < last:
                return _NOT_WITHIN_ONE
            if index > 0 and (body[index - 1].end_lineno or 0) >= start:
                return None  # shares its first line with the statement before (`a = 1; def ...`)
            if index + 1 < len(body) and _first_line(body[index + 1]) <= end:
                return None
            part = self._parse_part(lines, start, end)
            if part is None:
                return None
            return ast.Module(body=[*body[:index], *part.body, *body[index + 1 :]], type_ignores=[])
        return _NOT_WITHIN_ONE

    def _from_line(self, lines: list[str], body: list[ast.stmt], first: int) -> ast.Module | None:
        """The tree with every statement from the first changed line on parsed again (a line added or deleted
        moves all the lines below it); the statements before it are the previous version's."""
        index = next((i for i, s in enumerate(body) if (s.end_lineno or s.lineno) >= first), len(body))
        start = first  # in the blank or comment lines between two statements (or after the last)
        if index < len(body) and _first_line(body[index]) <= first:
            start = _first_line(body[index])  # inside a statement: from its first line (decorators included)
        if index > 0:
            before = body[index - 1].end_lineno or body[index - 1].lineno
            if before >= start:
                return None  # shares a line with the statement before
            if lines[before - 1].rstrip("\r\n").endswith("\\"):
                return None  # a backslash joins the next line to the statement before
        part = self._parse_part(lines, start, len(lines))
        if part is None:
            return None
        return ast.Module(body=[*body[:index], *part.body], type_ignores=[])

    def _parse_part(self, lines: list[str], start: int, end: int) -> ast.Module | None:
        """`ast.parse` of lines start..end (1-based) with the positions they have in the whole text; None when it
        fails (the whole parse then says where and why) or holds what only the top of a file may."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                # blank lines first: the positions come out as in the whole text, with no pass to shift them
                part = parse_module("\n" * (start - 1) + "".join(lines[start - 1 : end]), filename=self.path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        if any(isinstance(s, ast.ImportFrom) and s.module == "__future__" for s in part.body):
            return None  # only valid at the top of the file: the whole parse decides
        return part


GC_THRESHOLDS = (50_000, 20, 20)  # CPython's default is (700, 10, 10)


def tune_garbage_collector() -> None:
    """Fewer cyclic collections while documents are analysed. Each version of a big document allocates tens of
    thousands of containers (the model's indexes, function records), and with CPython's default thresholds that
    sets off a full collection every few versions, which walks every object the server holds (the parsed
    versions kept for reuse included): on a 5,000-line document the mean time to new findings dropped from 101
    to 92 ms and the slowest tenth from 159 to 109 ms when this was added (bench/typing_speed.py shows it end
    to end; bench/incremental.py measures under these settings too). What the
    analysis allocates is freed by reference counting; the collector is only for cycles, which it still finds.
    The objects of start-up (imported modules) are moved out of its way too. (`sharpbits serve` then keeps the
    collector off and runs it itself between analyses, with these thresholds: lsp/language_server.py,
    `collect_when_idle`.)"""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


_NOT_WITHIN_ONE = object()  # Incremental._one_statement: the change spans more than one statement


def _first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", None) or []
    return min([statement.lineno, *(d.lineno for d in decorators)])


class DocumentAnalyses:
    """One IncrementalAnalysis per open document, for the language server: `update(uri, path, text, selection)`
    where it called `analyze(text, path, selection)`, and `close(uri)` when the document closes."""

    def __init__(self) -> None:
        self._documents: dict[str, IncrementalAnalysis] = {}
        self._lock = threading.Lock()

    def update(self, uri: str, path: str, text: str, selection: Selection | None = None) -> AnalysisResult:
        with self._lock:
            document = self._documents.get(uri)
            if document is None or document.path != path:
                document = self._documents[uri] = IncrementalAnalysis(path, selection)
        return document.update(text, selection)

    def adopt(self, uri: str, document: IncrementalAnalysis) -> None:
        """Takes a document's analysis made before the server started (lsp/early.py): its next update of the same
        text is answered from it."""
        with self._lock:
            self._documents[uri] = document

    def close(self, uri: str) -> None:
        with self._lock:
            self._documents.pop(uri, None)
