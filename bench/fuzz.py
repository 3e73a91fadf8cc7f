"""The long fuzz run: the properties of tests/robustness/properties.py (the ones `make test` checks with a fixed
seed and a bounded number of examples), here with random seeds and many examples. Prints, per property, how
many examples ran and what failed (the shrunk example and the error), then what the properties saw.

A failure here is a bug to fix and then to pin as a fixed case in tests/ (as the mixed tabs/spaces loop was).
Re-run one finding with `--seed` (printed per run). Exits 1 when anything failed.

    .venv/bin/python bench/fuzz.py [--examples N] [--seed S] [--quick]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.robustness.properties import (  # noqa: E402
    STATS,
    arbitrary_text,
    check_document,
    check_fix_check_is_sound,
    document_and_edit,
    mutated_documents,
    statement_soup,
)

PROPERTIES: list[tuple[str, st.SearchStrategy[Any], Callable[[Any], None], float]] = [
    # name, strategy, property, share of the examples
    ("mutated documents", mutated_documents, check_document, 1.0),
    ("arbitrary text", arbitrary_text, check_document, 0.3),
    ("statement soup", statement_soup, check_document, 0.2),
    ("fix check vs full parse", document_and_edit(), lambda case: check_fix_check_is_sound(*case), 0.5),
]


def run_property(name: str, strategy: st.SearchStrategy[Any], prop: Callable[[Any], None], examples: int,
                 run_seed: int) -> str | None:
    """Runs one property; returns a description of the failure (None when it held)."""
    failure: list[str] = []

    @seed(run_seed)
    @settings(max_examples=examples, derandomize=False, database=None, deadline=None, print_blob=False,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink])
    @given(strategy)
    def test(value: Any) -> None:
        prop(value)

    try:
        test()
    except BaseException as exc:  # a failing property: hypothesis has shrunk it to a small example
        if isinstance(exc, KeyboardInterrupt):
            raise
        failure.append("".join(traceback.format_exception_only(type(exc), exc)).strip())
        for note in map(str, getattr(exc, "__notes__", [])):
            if note not in failure:
                failure.append(note)
    return "\n".join(failure) or None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=20000, help="examples for the main property (default 20000)")
    parser.add_argument("--seed", type=int, default=None, help="the run's seed (default: a random one)")
    parser.add_argument("--quick", action="store_true", help="200 examples (to check that the script runs)")
    args = parser.parse_args()
    examples = 200 if args.quick else args.examples
    run_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"fuzz run: seed {run_seed}, {examples} examples for the main property")
    failed = 0
    for name, strategy, prop, share in PROPERTIES:
        n = max(10, int(examples * share))
        started = time.perf_counter()
        failure = run_property(name, strategy, prop, n, run_seed)
        elapsed = time.perf_counter() - started
        verdict = "held" if failure is None else "FAILED"
        print(f"{name:<26} {n:>7} examples  {elapsed:7.1f} s  {verdict}")
        if failure is not None:
            failed += 1
            print("    " + failure.replace("\n", "\n    "))
    print("seen: " + ", ".join(f"{key} {value}" for key, value in sorted(STATS.items())))
    print(f"{failed} of {len(PROPERTIES)} properties failed (re-run with --seed {run_seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
