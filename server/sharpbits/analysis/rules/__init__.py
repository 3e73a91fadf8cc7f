"""The rule registry: every rule, by code and by name. Codes group by theme: SB1xx array semantics, SB2xx
randomness, SB3xx control flow, SB4xx trace-time state."""

from __future__ import annotations

from sharpbits.analysis.rules.base import Rule
from sharpbits.analysis.rules.boolean_indexing_in_jit import BooleanIndexingInJit
from sharpbits.analysis.rules.global_captured_in_jit import GlobalCapturedInJit
from sharpbits.analysis.rules.in_place_update import InPlaceUpdate
from sharpbits.analysis.rules.prng_key_reuse import PrngKeyReuse
from sharpbits.analysis.rules.python_loop_in_jit import PythonLoopInJit

ALL_RULES: list[type[Rule]] = [InPlaceUpdate, BooleanIndexingInJit, PrngKeyReuse, PythonLoopInJit, GlobalCapturedInJit]
BY_CODE: dict[str, type[Rule]] = {r.code: r for r in ALL_RULES}
BY_NAME: dict[str, type[Rule]] = {r.name: r for r in ALL_RULES}


def lookup(key: str) -> type[Rule] | None:
    """A rule by code (`SB101`, case-insensitive) or name (`in-place-update`)."""
    key = key.strip()
    return BY_CODE.get(key.upper()) or BY_NAME.get(key.lower())
