"""Analysis of one document as it changes: what the language server calls on every version of an open file.

`IncrementalAnalysis(path, selection).update(text)` returns exactly `analyze(text, path, selection)`: the same
findings, syntax error and traced functions (tests/analysis/test_incremental.py checks this over random edit
sequences, and that every reused parse is the one `ast.parse` gives, positions included). What it reuses:

- whole results: a text seen among the last few versions (an undo, a redo, a change and its reversal, a
  didChange that repeats the text) is answered without any work;
- the parse: when an edit keeps the number of lines (typing inside a line, the common case while typing) and
  stays within the lines of one top-level statement (a function, a class, an assignment) that shares no line
  with another, only that statement's lines are parsed and put in place of the old one; every other
  statement's nodes are the previous version's (nothing is shifted, so nothing earlier results hold changes).

The model and the rules run over the whole module on every new text: a finer reuse (one function's findings
when only its body changed) needs every rule's dependencies across functions spelled out first (helper return
kinds, call-site trip counts, keys reused at module level, globals changed by other functions, which functions
a traced one calls); until such a reuse is proven equal by the same property test, it is not done.
"""

from __future__ import annotations

import ast
import threading
import warnings
from collections import OrderedDict

from sharpbits.analysis.engine import AnalysisResult, Selection, analyze_parsed, unparsable
from sharpbits.analysis.reuse import Reusable
from sharpbits.source import SourceText, split_lines


class IncrementalAnalysis:
    """The analysis of one document across its versions; not shared between threads without a lock."""

    def __init__(self, path: str = "<unknown>", selection: Selection | None = None, remembered: int = 8) -> None:
        self.path = path
        self.selection = selection or Selection()
        self.remembered = max(remembered, 1)
        self._recent: OrderedDict[str, AnalysisResult] = OrderedDict()  # text -> its result, newest last
        self._parsed: tuple[str, list[str], ast.Module] | None = None  # the last text that parsed, its lines, tree
        self.reusable = Reusable()  # what the last version's model hands to the next (analysis/reuse.py)
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
            source, tree, self.selection, self.reusable)
        self._recent[text] = result
        while len(self._recent) > self.remembered:
            self._recent.popitem(last=False)
        return result

    def reconfigure(self, selection: Selection) -> None:
        """New settings (rules, severities): no result computed under the old ones is reused."""
        self.selection = selection
        self._recent.clear()

    def parse(self, text: str) -> ast.Module | Exception:
        """What `ast.parse(text)` gives (or the exception it raises), reusing the previous version's nodes where
        the text did not change; the tree is remembered for the next version. Its nodes may be shared with
        earlier trees: never change them."""
        lines = split_lines(text)
        tree = self._spliced(text, lines)
        if tree is None:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # SyntaxWarnings about the user's code are not ours to print
                    tree = ast.parse(text, filename=self.path)
            except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
                return exc  # the last tree stays: the next version is compared with the last one that parsed
        else:
            self.reused_parses += 1
        self._parsed = (text, lines, tree)
        return tree

    def _spliced(self, text: str, lines: list[str]) -> ast.Module | None:
        """The new tree from the previous one and a parse of the one statement whose lines changed, or None
        when that does not apply (then the whole text must be parsed)."""
        if self._parsed is None:
            return None
        old_text, old_lines, old_tree = self._parsed
        if len(lines) != len(old_lines) or text.startswith("\ufeff") or old_text == text:
            return None
        first = 0
        while lines[first] == old_lines[first]:
            first += 1
        last = len(lines) - 1
        while lines[last] == old_lines[last]:
            last -= 1
        first, last = first + 1, last + 1  # 1-based lines, both changed
        body = old_tree.body
        for index, statement in enumerate(body):
            start = _first_line(statement)
            end = statement.end_lineno or statement.lineno
            if end < first:
                continue
            if start > first or end < last:
                return None  # the change is not within one top-level statement's lines
            if index > 0 and (body[index - 1].end_lineno or 0) >= start:
                return None  # shares its first line with the statement before (`a = 1; def ...`)
            if index + 1 < len(body) and _first_line(body[index + 1]) <= end:
                return None
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    part = ast.parse("".join(lines[start - 1 : end]), filename=self.path)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return None  # the whole parse says where and why
            if any(isinstance(s, ast.ImportFrom) and s.module == "__future__" for s in part.body):
                return None  # only valid at the top of the file: the whole parse decides
            ast.increment_lineno(part, start - 1)
            return ast.Module(body=[*body[:index], *part.body, *body[index + 1 :]], type_ignores=[])
        return None


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

    def close(self, uri: str) -> None:
        with self._lock:
            self._documents.pop(uri, None)
