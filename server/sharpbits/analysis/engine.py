"""The engine: source text in, findings out. The CLI, the language server and the tests all call `analyze`.

It parses once with `ast`, builds the shared ModuleModel once, runs every selected rule over it, and drops
suppressed findings. Nothing here imports libcst or jax.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import os
import warnings
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import cast

from sharpbits.analysis import suppressions
from sharpbits.analysis.measured import Measured, TraceConfirmations
from sharpbits.analysis.model import ModuleModel
from sharpbits.analysis.parsing import TargetVersion, parse_module
from sharpbits.analysis.project_index import ProjectIndex, shared_index
from sharpbits.analysis.reuse import Reusable
from sharpbits.analysis.rule_results import RuleResults
from sharpbits.analysis.rules import ALL_RULES, lookup
from sharpbits.analysis.rules.base import Rule, RuleContext, TimedRegion
from sharpbits.findings import Finding, Fix, Severity
from sharpbits.source import SourceText

SYNTAX_ERROR_CODE, SYNTAX_ERROR_RULE = "SB000", "syntax-error"


# Called before each rule (so also between the model and the rules): the language server sets it to abandon an
# analysis a newer edit superseded, by raising; state kept for the next version stays usable (tests/lsp/test_abandon.py).
between_rules: Callable[[], None] | None = None

# Fault injection for the tests of the server's analysis budget (tests/lsp/test_analysis_budget.py): the rule named
# by this variable spins before it runs on a text holding STALL_MARK, as a rule does on a pathological file
# (CPU-bound, never returning).
STALL_RULE = os.environ.get("SHARPBITS_DEBUG_STALL_RULE") or None
STALL_MARK = "# sharpbits-debug-stall"


def stall_if_asked(rule: str, text: str) -> None:
    while rule == STALL_RULE and STALL_MARK in text:
        pass


@dataclass
class Selection:
    """Which rules run, and at which severity (defaults: every rule at its own severity)."""

    select: frozenset[str] | None = None  # rule names; None = all
    ignore: frozenset[str] = frozenset()
    severities: dict[str, Severity] = field(default_factory=dict)  # rule name -> severity override
    # the oldest Python the code must parse on (config.py: `target-version`, or the project's `requires-python`);
    # None: unknown, every syntax the parser reads is fine (rules/unsupported_syntax.py)
    target: TargetVersion | None = None

    @staticmethod
    def parse_names(text: str | Iterable[str] | None) -> frozenset[str] | None:
        """`SB101,prng-key-reuse` -> rule names; raises ValueError naming an unknown rule."""
        if text is None:
            return None
        items = text.split(",") if isinstance(text, str) else list(text)
        names = set()
        for item in items:
            if not item.strip():
                continue
            rule = lookup(item)
            if rule is None:
                raise ValueError(f"unknown rule {item.strip()!r} (see `sharpbits rule` for the list)")
            names.add(rule.name)
        return frozenset(names)

    def rules(self) -> list[type[Rule]]:
        return [r for r in ALL_RULES if (self.select is None or r.name in self.select) and r.name not in self.ignore]


@dataclass(frozen=True)
class TracedFunction:
    """A module-level function or method that runs under a JAX transformation: what the editor can trace."""

    qualname: str  # `f` or `Class.method`, as `sharpbits trace FILE::QUALNAME` takes it
    line: int  # the `def` line (1-based)
    column: int  # the name on that line (1-based characters)
    end_column: int
    end_line: int  # the function's last line
    reason: str  # e.g. "jax.jit"
    # (first line, last line) of every for/while loop in the function, nested functions included: where a trace's
    # equations are counted per loop (Rule.confirm_with_trace)
    loops: tuple[tuple[int, int], ...] = ()


@dataclass
class AnalysisResult:
    findings: list[Finding]
    syntax_error: Finding | None = None  # set when the text does not parse (findings is then empty)
    functions: list[TracedFunction] = field(default_factory=list)
    # the language server's analysis budget (lsp/analysis_process.py): the rules stopped when it ran out (their
    # findings are missing), and after how many seconds; empty when nothing was stopped
    stopped: tuple[str, ...] = ()
    stopped_after_s: float = 0.0


def analyze(text: str, path: str = "<unknown>", selection: Selection | None = None,
            timed_regions: tuple[TimedRegion, ...] = (), project: ProjectIndex | None = None) -> AnalysisResult:
    """`timed_regions`: statements timed from outside the code (a notebook's `%timeit`), see TimedRegion.
    `project`: the index of the project the file belongs to (project_index.py); None: the process's shared
    index when one was started (the language server's), else calls into other modules stay unknown."""
    selection = selection or Selection()
    source = SourceText(path, text)
    with without_cycle_collection():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarnings about the user's code are not ours to print
                tree = parse_module(text, filename=path)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:  # NUL bytes; nesting too deep
            return unparsable(source, exc)
        index = project if project is not None else shared_index()
        if index is not None:  # its summary, if another module asks for it, made from this parse
            index.adopt(path, text, tree)
        result = _analyze_parsed(source, tree, selection, timed_regions, None, project, None, release=True)
        del tree  # (freed now, see _analyze_parsed's `release`: not alive, and walked, when the collector is on again)
        return result


@contextlib.contextmanager
def without_cycle_collection() -> Iterator[None]:
    """The cyclic garbage collector off while one analysis runs (on again after it, when it was on): the tree and
    the model's indexes are tens of thousands of containers that live until the analysis ends, and the collector
    walked them again and again as they were made (a tenth of the CLI's analysis time on real code). What the
    analysis drops is freed by reference counting; its cycles wait for the next collection after it. Nested
    analyses (and a caller that turned the collector off itself) leave it as they found it; two threads at once
    may at worst run part of one analysis with the collector on."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def unparsable(source: SourceText, exc: Exception) -> AnalysisResult:
    """The result for a text whose `ast.parse` raised `exc`: the syntax error alone."""
    if not isinstance(exc, SyntaxError):
        exc = SyntaxError(str(exc) or type(exc).__name__)
    return AnalysisResult([], _syntax_error_finding(source, exc))


def analyze_parsed(source: SourceText, tree: ast.Module, selection: Selection,
                   timed_regions: tuple[TimedRegion, ...] = (), reusable: Reusable | None = None,
                   project: ProjectIndex | None = None, rule_results: RuleResults | None = None) -> AnalysisResult:
    """`analyze` after the parse: `tree` must be what `ast.parse(source.text)` gives (positions included).
    `reusable`: what IncrementalAnalysis keeps from the previous version (the result is the same without it).
    `project`: as for `analyze`. `rule_results`: the function-local rules' findings per top-level statement
    that IncrementalAnalysis keeps (rule_results.py; used with `reusable` only, the result is the same without)."""
    with without_cycle_collection():
        return _analyze_parsed(source, tree, selection, timed_regions, reusable, project, rule_results)


def _analyze_parsed(source: SourceText, tree: ast.Module, selection: Selection, timed_regions: tuple[TimedRegion, ...],
                    reusable: Reusable | None, project: ProjectIndex | None,
                    rule_results: RuleResults | None, release: bool = False) -> AnalysisResult:
    """`release`: the caller keeps nothing of the model (`analyze`): the model's facts are dropped at the end
    (ModuleModel.release), so the model and the tree are freed by reference counting as soon as the caller lets go
    of the tree (or, when a fix builder holds them, of the result), instead of by the next cycle collection, which
    walked every one of their objects after each analysis (a tenth of the CLI's CPU; 0.4x `ast.parse` of a file
    with fixable findings, which kept the facts until a later version of this function). A fix builder never
    asks for a fact (it holds what it needs, or asks the model's scopes, traced code and kinds, which stay); one
    that did would get it built again, the same. So nothing here may hold a reference cycle that reaches the
    model (a fact's helper refers back to its fact weakly, a recursive walk is a loop, not a closure that calls
    itself): tests/analysis/test_engine.py checks an analysis leaves no cycle behind."""
    if project is None:
        project = shared_index()
    try:
        model = ModuleModel(tree, reusable, project.view(source.path, tree) if project is not None else None)
        findings: list[Finding] = []
        version = rule_results.begin(model, (selection, timed_regions, source.path)) if (
            rule_results is not None and reusable is not None) else None
        fresh = _FreshFixes(source, selection, timed_regions, project)
        for rule_cls in selection.rules():
            if between_rules is not None:
                between_rules()
            if STALL_RULE is not None:
                stall_if_asked(rule_cls.name, source.text)

            def run_on(on: ModuleModel, rule_cls: type[Rule] = rule_cls) -> list[Finding]:
                ctx = RuleContext(source, tree, on, rule_cls(), timed_regions=timed_regions, target=selection.target)
                ctx.rule.check(ctx)
                found, ctx.found = ctx.found, []  # (a fix builder may hold `ctx`: no cycle through its findings)
                return found

            if version is not None and rule_cls.reuse == "function":
                findings.extend(version.run(rule_cls.name, run_on, source.text, fresh.fix))
            else:
                findings.extend(run_on(model))
        if version is not None:
            cast(RuleResults, rule_results).commit(version)
    except RecursionError:
        error = SyntaxError("the code is nested too deeply to analyse")
        return AnalysisResult([], _syntax_error_finding(source, error))
    for f in findings:
        if f.rule in selection.severities:
            f.severity = selection.severities[f.rule]
    findings = suppressions.apply(findings, source, {r.name for r in selection.rules()}, selection.severities)
    findings.sort(key=lambda f: (f.line, f.column, f.code))
    result = AnalysisResult(findings, functions=_traced_functions(model, source))
    if release:
        model.release()
    return result


class _FreshFixes:
    """The fixes of findings taken from an earlier version (rule_results.py): built from a full analysis of this
    version's text, made on the first fix asked for and shared by the rest."""

    def __init__(self, source: SourceText, selection: Selection, timed_regions: tuple[TimedRegion, ...],
                 project: ProjectIndex | None) -> None:
        self.source, self.selection, self.timed_regions, self.project = source, selection, timed_regions, project
        self._found: dict[tuple[object, ...], Finding] | None = None

    def fix(self, finding: Finding) -> Fix | None:
        if self._found is None:
            result = analyze(self.source.text, self.source.path, self.selection, self.timed_regions, self.project)
            self._found = {}
            for f in result.findings:
                self._found.setdefault(_identity(f), f)
        match = self._found.get(_identity(finding))
        return match.fix_builder() if match is not None and match.fix_builder is not None else None


def _identity(f: Finding) -> tuple[object, ...]:
    return f.rule, f.line, f.column, f.end_line, f.end_column, f.message


def confirm_with_traces(result: AnalysisResult, measured: list[Measured], lines: list[str]) -> TraceConfirmations:
    """What traces measured (one `Measured` per traced function of the analysed text `lines`), turned by the
    rules into confirmations of the result's findings and findings only a trace shows."""
    out = TraceConfirmations()
    if measured:
        for rule in ALL_RULES:
            out.update(rule.confirm_with_trace(result.findings, measured, lines))
    return out


def _traced_functions(model: ModuleModel, source: SourceText) -> list[TracedFunction]:
    out = []
    loops = sorted(((n.lineno, n.end_lineno or n.lineno) for n in model.scopes.nodes(ast.For, ast.While)),  # type: ignore[attr-defined]
                   key=lambda span: span[0])
    starts = [first for first, _ in loops]
    for fn in model.traced.traced_functions():
        node = fn.node
        if isinstance(node, ast.Lambda) or fn.parent is not None:
            continue  # the worker traces module-level functions and methods by name
        text = source.line_text(node.lineno)
        at = text.find("def", source.char_column(node.lineno, node.col_offset))
        col = at + 3 + (len(text) - at - 3 - len(text[at + 3 :].lstrip())) if at >= 0 else -1
        if col < 0 or not text.startswith(node.name, col):
            continue
        end = node.end_lineno or node.lineno
        inside = tuple(loops[bisect_right(starts, node.lineno):bisect_right(starts, end)])
        out.append(TracedFunction(fn.qualname, node.lineno, col + 1, col + 1 + len(node.name), end,
                                  fn.trace_reason, inside))
    return sorted(out, key=lambda f: f.line)


def _syntax_error_finding(source: SourceText, exc: SyntaxError) -> Finding:
    line = exc.lineno or 1
    col = max((exc.offset or 1), 1)
    end_line = exc.end_lineno or line
    end_col = exc.end_offset if exc.end_offset and exc.end_offset > 0 else col + 1
    if end_line == line and end_col <= col:
        end_col = col + 1
    return Finding(
        path=source.path, line=line, column=col, end_line=end_line, end_column=end_col,
        code=SYNTAX_ERROR_CODE, rule=SYNTAX_ERROR_RULE, severity="error",
        message=f"syntax error: {exc.msg or exc} (nothing else in this file was checked)", url="",
    )
