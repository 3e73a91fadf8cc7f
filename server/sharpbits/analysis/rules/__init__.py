"""The rule registry: every rule, by code and by name."""

from __future__ import annotations

from sharpbits.analysis.rules.base import Rule
from sharpbits.analysis.rules.in_place_update import InPlaceUpdate

ALL_RULES: list[type[Rule]] = [InPlaceUpdate]
BY_CODE: dict[str, type[Rule]] = {r.code: r for r in ALL_RULES}
BY_NAME: dict[str, type[Rule]] = {r.name: r for r in ALL_RULES}


def lookup(key: str) -> type[Rule] | None:
    """A rule by code (`SB101`, case-insensitive) or name (`in-place-update`)."""
    key = key.strip()
    return BY_CODE.get(key.upper()) or BY_NAME.get(key.lower())
