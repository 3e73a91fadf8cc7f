"""Analysis of one document as it changes: what the language server calls on every version of an open file.

`IncrementalAnalysis(path, selection).update(text)` returns exactly `analyze(text, path, selection)`: the same
findings, syntax error and traced functions (tests/analysis/test_incremental.py checks this over random edit
sequences). What it reuses today is whole results: a text seen among the last few versions (an undo, a redo, a
change and its reversal, a save that changed nothing, a didChange that repeats the text) is answered without
parsing. A finer reuse (one function's findings when only its body changed) needs every rule's dependencies
across functions spelled out first (helper return kinds, call-site trip counts, keys reused at module level,
globals changed by other functions); until that is proven equal by the same property test, every other text
is analysed from scratch.
"""

from __future__ import annotations

from collections import OrderedDict

from sharpbits.analysis.engine import AnalysisResult, Selection, analyze


class IncrementalAnalysis:
    """The analysis of one document across its versions; not shared between threads without a lock."""

    def __init__(self, path: str = "<unknown>", selection: Selection | None = None, remembered: int = 8) -> None:
        self.path = path
        self.selection = selection or Selection()
        self.remembered = max(remembered, 1)
        self._recent: OrderedDict[str, AnalysisResult] = OrderedDict()  # text -> its result, newest last
        self.reused = 0  # how many updates were answered from an earlier version (for benchmarks and tests)

    def update(self, text: str) -> AnalysisResult:
        result = self._recent.get(text)
        if result is not None:
            self._recent.move_to_end(text)
            self.reused += 1
            return result
        result = analyze(text, self.path, self.selection)
        self._recent[text] = result
        while len(self._recent) > self.remembered:
            self._recent.popitem(last=False)
        return result

    def reconfigure(self, selection: Selection) -> None:
        """New settings (rules, severities): nothing remembered under the old ones is reused."""
        self.selection = selection
        self._recent.clear()
