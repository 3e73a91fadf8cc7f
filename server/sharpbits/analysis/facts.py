"""The interface of the model's derived facts: `model.fact(KeyFlow)` builds a fact once, on first demand.

The model's core parts (model.py) are the language and JAX facts every rule may ask: `model.scopes` (names,
imports, functions, indexes), `model.traced` (what runs under a transformation, and why), `model.kinds` (the
kind of each value). A fact is anything derived from them that only some rules need (where PRNG keys are
reused, which calls donate buffers, what traced code does to outer state, ...): a class taking the model in its
constructor, built lazily by `ModuleModel.fact` and kept for the rest of the analysis. A fact reads the core
parts and other facts only through their public methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sharpbits.analysis.kinds import ValueKinds
    from sharpbits.analysis.model import ModuleModel
    from sharpbits.analysis.scopes import Scopes
    from sharpbits.analysis.traced import TracedCode


class Fact:
    """A derived fact of one module's model (see the module docstring). Subclasses add their own state in their
    constructor (after calling this one) and compute what they know lazily, on the first question."""

    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.scopes: Scopes = model.scopes
        self.traced: TracedCode = model.traced
        self.kinds: ValueKinds = model.kinds
