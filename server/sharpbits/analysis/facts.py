"""The interface of the model's derived facts: `model.fact(KeyFlow)` builds a fact once, on first demand.

The model's core parts (model.py) are the language and JAX facts every rule may ask: `model.scopes` (names,
imports, functions, indexes), `model.traced` (what runs under a transformation, and why), `model.kinds` (the
kind of each value). A fact is anything derived from them that only some rules need (where PRNG keys are
reused, which calls donate buffers, what traced code does to outer state, ...): a class taking the model in its
constructor, built lazily by `ModuleModel.fact` and kept for the rest of the analysis. A fact reads the core
parts and other facts only through their public methods.

Incremental reuse is part of the interface: a fact that reuses work from an earlier version of the same document
(IncrementalAnalysis) names its memory class (`Memory`, a FactMemory) and gets this document's instance from
`memory()` (None when there is no earlier version). The memory records what each piece of the fact's work read
and gives an earlier result back only when all of that is the same, so the fact comes out exactly as a fresh
build makes it (tests/analysis/test_incremental.py checks this over random edits). Nothing outside the fact
logs what it reads.

A fact asked by a function-local rule (`Rule.reuse = "function"`, analysis/rule_results.py) whose answer reads
other top-level statements than the one the rule is looking at (the stores of an attribute anywhere, the calls of
a class) answers through `across(where, ask, *args)`: while IncrementalAnalysis runs the rule, the question is
recorded for the statement holding `where`, and asked again of the next version, which runs the rule there again
when the answer differs (the statement's syntax and context being the same, its findings would otherwise be
taken from the last version).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, ClassVar, TypeVar

if TYPE_CHECKING:
    import ast

    from sharpbits.analysis.kinds import ValueKinds
    from sharpbits.analysis.model import ModuleModel
    from sharpbits.analysis.scopes import Scopes
    from sharpbits.analysis.traced import TracedCode


T = TypeVar("T")


class FactMemory:
    """What a fact keeps of one version of a document for the next (see the module docstring)."""

    def begin(self) -> None:
        """A new version's fact starts: what it takes again or makes anew from here on is what it keeps."""

    def commit(self) -> None:
        """The version's fact finished: what it kept is what the next version compares with."""


class Fact:
    """A derived fact of one module's model (see the module docstring). Subclasses add their own state in their
    constructor (after calling this one) and compute what they know lazily, on the first question."""

    Memory: ClassVar[type[FactMemory] | None] = None  # what it keeps between versions; None: nothing

    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.scopes: Scopes = model.scopes
        self.traced: TracedCode = model.traced
        self.kinds: ValueKinds = model.kinds

    def memory(self) -> FactMemory | None:
        """This fact's memory for this document (None: analysed from scratch, nothing kept)."""
        reusable = self.scopes.reusable
        return reusable.memory_of(type(self)) if reusable is not None else None

    def across(self, where: ast.AST, ask: Callable[..., T], *args: Hashable) -> T:
        """`ask(model, *args)`: an answer that reads top-level statements other than the one holding `where` (a
        node of the statement whose findings depend on it). `ask` is a module-level function and `args` name what
        it reads (strings, numbers), never a node of this version: the next version asks it again (see the
        module docstring)."""
        answer = ask(self.model, *args)
        note = self.model.note_across
        if note is not None:
            note(where, (ask, args), answer)
        return answer
