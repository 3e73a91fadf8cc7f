"""An analysis that a newer edit supersedes is abandoned at a checkpoint (`engine.between_rules`: before each rule,
so also between the model and the rules). Whatever checkpoint it stops at, the document's IncrementalAnalysis
still gives exactly what a fresh `analyze` gives for the next versions (and for the abandoned text itself)."""

import threading

import pytest
from sharpbits.analysis import engine
from sharpbits.analysis.engine import AnalysisResult, Selection, analyze
from sharpbits.analysis.incremental import DocumentAnalyses, IncrementalAnalysis
from sharpbits.lsp.language_server import Abandoned, _run_analysis

from tests.conftest import ROOT

BASE = (ROOT / "examples" / "in_place_update.py").read_text() + '''

def helper(key, x):
    y = jax.random.normal(key, x.shape)
    z = jax.random.normal(key, x.shape)
    return y + z
'''
if "import jax\n" not in BASE:
    BASE = "import jax\n" + BASE
TYPED = BASE.replace("    return y + z\n", "    return y + z  # a\n")  # a keystroke inside a function
NEXT = BASE.replace("    return y + z\n", "    return y - z  # ab\n")  # the keystroke after it
RULES = len(Selection().rules())


def summary(result: AnalysisResult) -> tuple:
    findings = [(f.to_json(with_fix=False), f.fixable, f.fix_title) for f in result.findings]
    error = result.syntax_error.to_json(with_fix=False) if result.syntax_error else None
    return findings, error, result.functions


class StopAt:
    """A checkpoint that abandons the analysis at its `at`-th call (0: between the model and the first rule)."""

    def __init__(self, at: int) -> None:
        self.at, self.calls = at, 0

    def __call__(self) -> None:
        self.calls += 1
        if self.calls > self.at:
            raise Abandoned


@pytest.fixture
def restore_hook():
    saved = engine.between_rules
    yield
    engine.between_rules = saved


@pytest.mark.parametrize("at", range(RULES))
def test_abandoned_at_any_checkpoint_the_next_versions_are_exact(at, restore_hook):
    document = IncrementalAnalysis("m.py")
    assert summary(document.update(BASE)) == summary(analyze(BASE, "m.py"))
    stop = StopAt(at)
    engine.between_rules = stop
    with pytest.raises(Abandoned):
        document.update(TYPED)
    assert stop.calls == at + 1  # it stopped there, with `at` rules run
    engine.between_rules = None
    assert summary(document.update(NEXT)) == summary(analyze(NEXT, "m.py"))
    assert summary(document.update(TYPED)) == summary(analyze(TYPED, "m.py"))  # the abandoned text, later
    assert summary(document.update(BASE)) == summary(analyze(BASE, "m.py"))


def test_the_findings_checked_are_not_empty():
    assert analyze(BASE, "m.py").findings and RULES > 1  # so the comparisons above compare something


def test_run_analysis_stops_when_its_event_is_set_and_runs_through_otherwise(restore_hook, monkeypatch):
    import sharpbits.lsp.language_server as language_server

    documents = DocumentAnalyses()
    abandon = threading.Event()
    abandon.set()
    with pytest.raises(Abandoned):  # set before it started: not even parsed
        _run_analysis(documents, "file:///m.py", "m.py", BASE, Selection(), abandon)
    result = _run_analysis(documents, "file:///m.py", "m.py", BASE, Selection(), threading.Event())
    assert summary(result) == summary(analyze(BASE, "m.py"))  # an event never set: it runs to the end

    # set while it runs (here at the first checkpoint, as a didChange would from the event loop)
    abandon = threading.Event()
    calls = []
    checkpoint = language_server._checkpoint

    def set_then_check() -> None:
        calls.append(1)
        abandon.set()
        checkpoint()

    monkeypatch.setattr(language_server, "_checkpoint", set_then_check)
    with pytest.raises(Abandoned):
        _run_analysis(documents, "file:///m.py", "m.py", TYPED, Selection(), abandon)
    assert len(calls) == 1  # it stopped at the first checkpoint after the event was set
    monkeypatch.undo()
    engine.between_rules = None
    assert summary(documents.update("file:///m.py", "m.py", NEXT)) == summary(analyze(NEXT, "m.py"))
