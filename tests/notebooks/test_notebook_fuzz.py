"""Property: whatever the cells (Python, IPython syntax, broken code, in any order), a notebook's analysis
raises nothing, every finding lies inside its cell and covers the same text it covers in the program, and every
fix leaves each cell parsable."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sharpbits.notebooks import analyze_sources, apply_cell_edits, build_program, cell_edits
from sharpbits.source import SourceText, split_lines

LINES = [
    "import jax", "import jax.numpy as jnp", "from jax import random", "key = random.key(0)",
    "x = random.normal(key, (3,))", "y = random.uniform(key)", "a = jnp.zeros(3)", "a[0] = 1.0", "a[1] += 2",
    "%timeit random.normal(key).block_until_ready()", "%time a[2] = 3", "%timeit -n 3 -r 2 y = random.normal(key)",
    "!pip install -q jax", "files = !ls", "%matplotlib inline", "random.normal?", "??jnp", "/print a",
    "@jax.jit", "def f(x):", "    x[0] = 1", "    for i in range(100):", "        x = x + random.normal(key)",
    "    %time g(x)", "    return x", "for i in range(3):", "    z = random.normal(key)", "s = '😀é'; a[0] = 1",
    "t = (1,", "    % 2)", 'doc = """', "%timeit not code", '"""', "def broken(:", "é = 1",
]
CELL_MAGICS = ["", "", "", "%%timeit\n", "%%time\n", "%%capture\n", "%%bash\n"]

cell_text = st.builds(lambda magic, lines: magic + "\n".join(lines),
                      st.sampled_from(CELL_MAGICS), st.lists(st.sampled_from(LINES), max_size=6))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(cell_text, min_size=1, max_size=6))
def test_findings_stay_in_their_cells_and_fixes_keep_cells_parsable(texts):
    sources = [(2 * i, text) for i, text in enumerate(texts)]  # markdown cells in between
    analysis = analyze_sources(sources, "fuzz.ipynb")
    program = SourceText("fuzz.ipynb", analysis.program.text)
    for f in analysis.findings:
        assert f.cell is not None and f.cell % 2 == 1
        cell_source = dict(sources)[f.cell - 1]
        lines = split_lines(cell_source + "\n")
        assert 1 <= f.line <= f.end_line <= len(lines)
        assert f.column >= 1 and f.end_column <= len(lines[f.end_line - 1].rstrip("\r\n")) + 1
        if f.rule == "syntax-error":
            continue
        origin = analysis.origin[id(f)]
        in_cell = SourceText("cell", cell_source).segment(f.line, f.column - 1, f.end_line, f.end_column - 1)
        assert in_cell == program.segment(origin.line, origin.column - 1, origin.end_line, origin.end_column - 1)
    for finding in analysis.result.findings:
        fix = finding.fix()
        edits = cell_edits(analysis.program, fix) if fix is not None else None
        if edits is None:
            continue
        new = apply_cell_edits(dict(sources), edits)
        broken_before = {e.cell for e in analysis.program.syntax_errors}
        broken_after = {e.cell for e in build_program(list({**dict(sources), **new}.items())).syntax_errors}
        assert broken_after <= broken_before, (fix, new)
