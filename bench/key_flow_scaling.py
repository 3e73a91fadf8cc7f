"""Does the key flow (prng-key-reuse) grow linearly with the length of a function, and a notebook's analysis with
its number of `%time` cells? Ratios measured in one run.

Issue 24 item 5: for each use of a key the analysis walked all earlier statements, so a function of 500
`key, sub = jax.random.split(key)` lines took 5.7 s and 31 KB of `k_i = jax.random.normal(key, ...)` 20 s. For
each shape below this prints the `analyze` time of a function of n statements and of 4n, and their ratio: about 4
for linear work, about 16 for quadratic. The script never fails on time (these machines are shared and noisy:
each size is timed `--runs` times and the median kept).

    .venv/bin/python bench/key_flow_scaling.py [--n N] [--runs R]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from sharpbits.analysis.engine import analyze
from sharpbits.notebooks import analyze_sources


def split_chain(n: int) -> str:
    return "import jax\n\n\ndef f(key):\n" + "    key, sub = jax.random.split(key)\n" * n + "    return key\n"


def draws_from_one_key(n: int) -> str:
    body = "".join(f"    k_{i} = jax.random.normal(key, (3,))\n" for i in range(n))
    return f"import jax\n\n\ndef f(key):\n{body}    return key\n"


def draws_in_a_test(n: int) -> str:
    """The same draws in a test that compares two of them (the reuse check then follows where results go)."""
    body = "".join(f"    k_{i} = jax.random.normal(key, (3,))\n" for i in range(n))
    return f"import jax\nimport numpy as np\n\n\ndef test_f(key):\n{body}    np.testing.assert_allclose(k_0, k_1)\n"


def split_and_draw(n: int) -> str:
    step = "    key, sub = jax.random.split(key)\n    x = jax.random.normal(sub, (3,))\n"
    return f"import jax\n\n\ndef f(key):\n{step * n}    y = jax.random.normal(sub, (3,))\n    return key\n"


SHAPES: dict[str, Callable[[int], str]] = {
    "key, sub = split(key)": split_chain,
    "k_i = normal(key, ...)": draws_from_one_key,
    "the same in a test with an assertion": draws_in_a_test,
    "split, then draw from sub": split_and_draw,
}


def seconds(work: Callable[[], object], runs: int) -> float:
    """The median time of `work()` over `runs` runs."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def timed_cells(n: int) -> list[tuple[int, str]]:
    """A notebook of n `%time` cells (issue 24 item 5: 8,000 of them took 10-17 s, each region's statements found by
    scanning the whole program)."""
    return [(0, "import jax.numpy as jnp\nx = jnp.ones(3)")] + [(i, "%time y = jnp.sin(x)") for i in range(1, n + 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500, help="statements in the smaller function (default 500)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    n = args.n
    print(f"analyze() of one function of n = {n} and 4n = {4 * n} statements (median of {args.runs}); "
          "ratio ~4: linear, ~16: quadratic")
    for label, make in SHAPES.items():
        small, large = make(n), make(4 * n)
        t_small = seconds(lambda text=small: analyze(text, "bench.py"), args.runs)
        t_large = seconds(lambda text=large: analyze(text, "bench.py"), args.runs)
        print(f"  {label:38s} n: {t_small * 1000:8.1f} ms ({len(small) // 1024} KB)   4n: {t_large * 1000:8.1f} ms "
              f"({len(large) // 1024} KB)   ratio {t_large / t_small:5.1f}")
    cells = 4 * n
    t_small = seconds(lambda: analyze_sources(timed_cells(cells), "bench.ipynb"), args.runs)
    t_large = seconds(lambda: analyze_sources(timed_cells(4 * cells), "bench.ipynb"), args.runs)
    print(f"  {'a notebook of `%time` cells':38s} {cells} cells: {t_small * 1000:8.1f} ms   {4 * cells} cells: "
          f"{t_large * 1000:8.1f} ms   ratio {t_large / t_small:5.1f}")


if __name__ == "__main__":
    main()
