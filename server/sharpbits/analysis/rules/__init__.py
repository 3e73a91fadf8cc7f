"""The rule registry: every rule, by code and by name, found by importing each module or package of this package (a
rule is one file, or one folder when it has an analysis of its own: `prng_key_reuse/` holds the rule and its key
flow; adding one edits nothing else). Codes group by theme: SB1xx array semantics, SB2xx randomness, SB3xx
control flow, SB4xx trace-time state, SB5xx measuring."""

from __future__ import annotations

import importlib
import pkgutil

from sharpbits.analysis.rules.base import Rule


def _discover() -> list[type[Rule]]:
    found: dict[str, type[Rule]] = {}
    for module_info in pkgutil.iter_modules(__path__):
        if module_info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Rule) and value is not Rule and "code" in vars(value):
                if value.code in found and found[value.code] is not value:
                    raise RuntimeError(f"two rules claim {value.code}: {found[value.code].name} and {value.name}")
                found[value.code] = value
    return [found[code] for code in sorted(found)]


ALL_RULES: list[type[Rule]] = _discover()
BY_CODE: dict[str, type[Rule]] = {r.code: r for r in ALL_RULES}
BY_NAME: dict[str, type[Rule]] = {r.name: r for r in ALL_RULES}


def lookup(key: str) -> type[Rule] | None:
    """A rule by code (`SB101`, case-insensitive) or name (`in-place-update`)."""
    key = key.strip()
    return BY_CODE.get(key.upper()) or BY_NAME.get(key.lower())
