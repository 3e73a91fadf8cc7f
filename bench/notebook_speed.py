"""What analysing a notebook costs over analysing the same code as a .py file, measured in the same run.

Takes speed.py's generated ~1,000-line JAX module, cuts it into one code cell per top-level block (with a
markdown cell before each, and IPython lines as notebooks have them: `!pip install`, `%matplotlib inline`,
`%timeit ...`), and prints

(a) `analyze_notebook` (masking IPython syntax, one parse per cell, the analysis, mapping findings back to cells)
    vs `analyze()` of the concatenated code cells as one .py text: median of per-repetition ratios;
(b) whole process: `sharpbits check NB.ipynb` vs `sharpbits check NB.py` (the same code) - what a user waits for.

Never fails on time (these machines are noisy); prints ratios next to the medians.

    .venv/bin/python bench/notebook_speed.py [--quick] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import generate, paired, sharpbits_command  # a sibling script, not a package


def cells_of(text: str) -> list[str]:
    """One cell per top-level block: a block starts at a line with no indentation after a blank line."""
    cells: list[list[str]] = [[]]
    lines = text.split("\n")
    for previous, line in zip(["", *lines], lines, strict=False):
        starts_block = line and not line[0].isspace() and not previous.strip() and not line.startswith(")")
        if starts_block and cells[-1] and not cells[-1][-1].startswith("@"):
            cells.append([])
        cells[-1].append(line)
    return ["\n".join(c).strip("\n") for c in cells if "".join(c).strip()]


def notebook_json(code_cells: list[str]) -> str:
    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
              "source": "!pip install -q jax\n%matplotlib inline".splitlines(keepends=True)}]
    for n, code in enumerate(code_cells):
        cells.append({"cell_type": "markdown", "metadata": {}, "source": [f"## Step {n}"]})
        if n % 10 == 5:
            code += "\n%timeit jnp.zeros(3).block_until_ready()"
        cells.append({"cell_type": "code", "execution_count": n + 1, "metadata": {}, "outputs": [],
                      "source": code.splitlines(keepends=True)})
    nb = {"cells": cells, "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few repetitions (for the test suite)")
    parser.add_argument("--runs", type=int, default=None, help="repetitions per measurement (default 9, quick 3)")
    args = parser.parse_args(argv)
    runs = args.runs or (3 if args.quick else 9)

    from sharpbits.analysis.engine import Selection, analyze
    from sharpbits.notebooks import analyze_notebook, build_program, parse_notebook

    text = notebook_json(cells_of(generate(1000)))
    notebook = parse_notebook(text)
    code = [(c.index, c.source) for c in notebook.cells if c.kind == "code"]
    program = build_program(code).text  # the same code as one .py text (IPython lines masked, as a user would)
    nb_findings = len(analyze_notebook(notebook, "bench.ipynb").findings)
    py_findings = len(analyze(program, "bench.py").findings)
    t_nb, t_py, ratio = paired(lambda: analyze_notebook(parse_notebook(text), "bench.ipynb", Selection()),
                               lambda: analyze(program, "bench.py", Selection()), runs)
    print(f"notebook: {len(notebook.cells)} cells ({len(code)} code), {program.count(chr(10))} code lines, "
          f"{nb_findings} findings (as .py: {py_findings})")
    print(f"(a) in-process: analyze_notebook {t_nb * 1000:.1f} ms vs analyze of the same code {t_py * 1000:.1f} ms: "
          f"ratio {ratio:.2f}x")
    with tempfile.TemporaryDirectory() as folder:
        nb_path, py_path = Path(folder) / "bench.ipynb", Path(folder) / "bench.py"
        nb_path.write_text(text)
        py_path.write_text(program)
        check_nb, check_py = [*sharpbits_command(), "check", str(nb_path)], [*sharpbits_command(), "check", str(py_path)]
        for cmd in (check_nb, check_py):
            subprocess.run(cmd, capture_output=True, timeout=300)
        w_nb, w_py, w_ratio = paired(lambda: subprocess.run(check_nb, capture_output=True, timeout=300),
                                     lambda: subprocess.run(check_py, capture_output=True, timeout=300), runs)
    print(f"(b) whole process: sharpbits check .ipynb {w_nb * 1000:.0f} ms vs .py {w_py * 1000:.0f} ms: "
          f"ratio {w_ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
