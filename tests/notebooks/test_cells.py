"""Notebooks as one program: IPython syntax masked in place, findings mapped back to (cell, line, column)."""

import json

import pytest
from sharpbits.notebooks import (
    RUN_MAGICS,
    CellEdit,
    NotebookError,
    analyze_sources,
    apply_cell_edits,
    build_program,
    mask_ipython,
    parse_notebook,
    write_sources,
)
from sharpbits.trace.notebook import cell_trace_source, in_cell

KEY_CELLS = [
    (0, "import jax\nfrom jax import random\nkey = random.key(0)"),
    (2, "a = random.normal(key, (3,))"),
    (3, "b = random.uniform(key)"),
]


def findings(cells):
    return [(f.cell, f.line, f.column, f.end_column, f.rule) for f in analyze_sources(cells, "nb.ipynb").findings]


def test_a_key_from_one_cell_reused_two_cells_later_is_found_in_its_own_cell():
    # cell indices count markdown cells too: index 3 is the 4th cell the editor shows
    assert findings(KEY_CELLS) == [(4, 1, 20, 23, "prng-key-reuse")]


def test_messages_name_the_cell_of_the_other_line():
    (finding,) = analyze_sources(KEY_CELLS, "nb.ipynb").findings
    assert "already consumed at cell 3, line 1 " in finding.message


@pytest.mark.parametrize("line", [
    "!pip install -q jax", "!!ls", "%matplotlib inline", "%load_ext autoreload", "random.normal?", "??random",
    "files = !ls *.npy", "names = %who_ls", "/print key", ",print a b", "%pinfo key", "%env XLA_FLAGS=--x",
])
def test_ipython_lines_are_masked_and_the_rest_of_the_cell_is_analysed(line):
    cells = [(0, "import jax\nfrom jax import random\nkey = random.key(0)"),
             (1, f"a = random.normal(key, (3,))\n{line}\nb = random.uniform(key)")]
    assert findings(cells) == [(2, 3, 20, 23, "prng-key-reuse")]


def test_masking_keeps_lines_and_columns_of_everything_else():
    cell = "%matplotlib inline\nx = 1  # ?\n!echo (\ny = (1,\n% 2)\n"
    masked = mask_ipython(cell)
    assert masked.text.splitlines() == ["pass", "x = 1  # ?", "pass", "y = (1,", "% 2)"]  # `% 2)` is modulo
    assert [(s.line, s.start, s.end) for s in masked.spans] == [(0, 0, 18), (2, 0, 7)]


def test_line_magics_inside_strings_are_text():
    cell = 'doc = """\n%timeit f(x)\n!rm -rf /\n"""\n'
    assert mask_ipython(cell).text == cell


@pytest.mark.parametrize("magic", ["%timeit", "%time", "%timeit -n 10 -r 3", "%timeit -n10 -q"])
def test_timed_statements_stay_code_at_their_columns(magic):
    cells = [(0, "import jax\nfrom jax import random\nkey = random.key(0)\na = random.normal(key)"),
             (1, f"{magic} b = random.normal(key, (1000,)).block_until_ready()")]
    column = len(magic) + 1 + len("b = random.normal(") + 1
    assert findings(cells) == [(2, 1, column, column + 3, "prng-key-reuse")]


def test_a_timed_line_in_a_loop_keeps_the_loop_valid():
    masked = mask_ipython("for i in range(3):\n    %time f(i)\n    !echo hi\n")
    assert masked.text == "for i in range(3):\n    pass; f(i)\n    pass\n"


def test_timeit_cell_bodies_are_code_and_other_cell_magics_are_skipped():
    setup = (0, "import jax\nfrom jax import random\nkey = random.key(0)\na = random.normal(key)")
    assert findings([setup, (1, "%%timeit\nrandom.normal(key).block_until_ready()")]) == [
        (2, 2, 15, 18, "prng-key-reuse")]
    for magic in ("%%capture out", "%%bash", "%%writefile helper.py", "%%html"):
        program = build_program([setup, (1, f"{magic}\nrandom.normal(key)\nnot python at all {{")])
        assert not program.syntax_errors
        assert findings([setup, (1, f"{magic}\nrandom.normal(key)")]) == []


def test_a_cell_that_does_not_parse_is_reported_and_the_others_still_analysed():
    cells = [*KEY_CELLS[:2], (4, "def broken(:\n    pass"), KEY_CELLS[2]]
    result = findings(cells)
    assert (5, 1, 12, 13, "syntax-error") in result
    assert (4, 1, 20, 23, "prng-key-reuse") in result


def test_findings_in_cells_after_an_unclosed_bracket_are_not_swallowed():
    cells = [*KEY_CELLS[:2], (4, "x = (1,"), KEY_CELLS[2]]
    assert [(f[0], f[4]) for f in findings(cells)] == [(4, "prng-key-reuse"), (5, "syntax-error")]


def test_cell_edits_keep_a_cell_without_trailing_newline_without_one():
    from sharpbits.findings import TextEdit
    from sharpbits.notebooks import CellEdit

    sources = {2: "x = 1\ny = 2"}
    edits = [CellEdit(2, TextEdit(2, 1, 2, 6, "y = 3"))]
    assert apply_cell_edits(sources, edits) == {2: "x = 1\ny = 3"}


def notebook_text(indent=1, source_as_list=True, ensure_ascii=False):
    cell_source = ["import jax.numpy as jnp\n", "x = jnp.zeros(3)\n", "x[0] = 1  # é"]
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# Title"]},
                    {"cell_type": "code", "execution_count": 7, "metadata": {"tags": ["keep"]},
                     "outputs": [{"output_type": "stream", "name": "stdout", "text": ["é\n"]}],
                     "source": cell_source if source_as_list else "".join(cell_source)}],
          "metadata": {"kernelspec": {"language": "python", "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=indent, ensure_ascii=ensure_ascii) + "\n"


@pytest.mark.parametrize("indent", [1, 2, 4])
@pytest.mark.parametrize("source_as_list", [True, False])
@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_writing_a_cell_back_changes_only_that_source_in_the_files_own_style(indent, source_as_list, ensure_ascii):
    text = notebook_text(indent, source_as_list, ensure_ascii)
    notebook = parse_notebook(text)
    new_source = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx = x.at[0].set(1)  # é"
    written = write_sources(notebook, {1: new_source})
    expected = json.loads(text)
    expected["cells"][1]["source"] = new_source.splitlines(keepends=True) if source_as_list else new_source
    # exactly what json.dumps with the file's settings would have written: indentation, escapes, newline
    assert written == json.dumps(expected, indent=indent, ensure_ascii=ensure_ascii) + "\n"


def test_file_lines_of_cell_source_lines():
    notebook = parse_notebook(notebook_text())
    lines = notebook_text().splitlines()
    assert lines[notebook.file_line(1, 3) - 1].strip() == '"x[0] = 1  # é"'


@pytest.mark.parametrize(("text", "message"), [
    ("", "not valid JSON: the file is empty"),
    ('{"cells": [1,]}', "not valid JSON: expected a value (line 1, column 14)"),
    ("[]", "not a notebook"),
    ('{"nbformat": 3, "worksheets": []}', "not an nbformat 4 notebook (nbformat 3)"),
    ('{"nbformat": 4}', "no `cells` list"),
    ('{"nbformat": 4, "cells": [{"source": "x"}]}', "cell 1 has no `cell_type`"),
    ('{"nbformat": 4, "cells": [{"cell_type": "code", "source": 3}]}', "the `source` of cell 1 is not text"),
])
def test_what_is_not_an_nbformat_4_notebook_is_said_clearly(text, message):
    with pytest.raises(NotebookError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_notebook(text)


def test_the_parser_agrees_with_json_loads():
    text = notebook_text(2)
    notebook = parse_notebook(text)
    loaded = json.loads(text)
    assert [c.source for c in notebook.cells] == ["".join(c["source"]) for c in loaded["cells"]]
    assert notebook.language == "python"


# ---- timing magics: SB501 sees them; a trace does not run them ----------------------------------------------


def test_timing_magics_mark_the_lines_they_time():
    assert [(t.first, t.last, t.magic) for t in mask_ipython("x = 1\n%timeit -n 3 f(x)\n%time y = f(x)").timed] == [
        (1, 1, "%timeit"), (2, 2, "%time")]
    # a %%timeit cell times its body, not the setup code on its first line
    assert [(t.first, t.last, t.magic) for t in mask_ipython("%%timeit x = setup()\nf(x)\ng(x)\n").timed] == [
        (1, 2, "%%timeit")]
    assert mask_ipython("%%bash\nls\n").timed == []


@pytest.mark.parametrize(("cell", "position"), [
    ("%timeit f(x)", (1, 9)),
    ("%timeit -n 10 -r 3 y = f(x)", (1, 24)),
    ("%%timeit\nz = f(x)", (2, 5)),
    ("%%time\ny = f(x)\nz = f(y)", (3, 5)),
])
def test_an_unwaited_timing_magic_of_a_jax_call_is_sb501_at_the_call(cell, position):
    cells = [(0, "import jax\n@jax.jit\ndef f(x):\n    return x * 2\nx = jax.numpy.ones(3)"), (1, cell)]
    (finding,) = analyze_sources(cells, "nb.ipynb").findings
    assert (finding.cell, finding.line, finding.column, finding.rule) == (2, *position, "unblocked-timing")
    (edit,) = finding.fix().edits
    assert edit.cell == 2 and edit.new_text == ".block_until_ready()"
    fixed = apply_cell_edits({1: cell}, [CellEdit(1, edit)])[1]
    assert analyze_sources([cells[0], (1, fixed)], "nb.ipynb").findings == []


@pytest.mark.parametrize("cell", [
    "%timeit f(x).block_until_ready()",
    "%timeit float(f(x).sum())",
    "%%timeit\ny = f(x)\ny.block_until_ready()",
    "%timeit np.ones(3) * 2",
    "%timeit -n 1 pass",
    "%%timeit y = f(x)\nprint(1)",  # the setup line is not timed
])
def test_waited_for_or_not_jax_timings_are_not_flagged(cell):
    cells = [(0, "import jax\nimport numpy as np\n@jax.jit\ndef f(x):\n    return x * 2\nx = jax.numpy.ones(3)"),
             (1, cell)]
    assert analyze_sources(cells, "nb.ipynb").findings == []


def test_what_a_trace_runs_leaves_timeit_out_and_runs_time():
    run = build_program([(0, "%timeit f(x)\n%time y = f(x)\n!ls"), (1, "%%timeit\nslow()"), (2, "%%time\nz = 1")],
                        code_magics=RUN_MAGICS)
    assert run.text == "pass\npass; y = f(x)\npass\n\n\npass\nz = 1\n"
    assert [c.masked.skipped for c in run.cells] == [None, "%%timeit cell", None]


def test_a_cell_trace_source_maps_program_lines_to_the_function_cell():
    sources = [(1, "import jax\n!pip install x"), (2, "%%bash\nls"), (4, "def helper(x):\n    return x"),
               (5, "@jax.jit\ndef f(x):\n    return helper(x)"), (6, "after = 1")]
    source = cell_trace_source(sources, 5, "/nb/n.ipynb")
    assert "after" not in source.text  # cells below the function's do not run
    assert source.ran() == [1, 4, 5] and source.skipped == [(2, "%%bash cell")]
    assert source.cell_ranges() == [{"cell": 2, "first_line": 1, "line_count": 2},
                                    {"cell": 5, "first_line": 5, "line_count": 2},
                                    {"cell": 6, "first_line": 7, "line_count": 3}]
    assert [source.to_cell_line(line) for line in range(1, 11)] == [None] * 6 + [1, 2, 3, None]
    result = in_cell({"ok": True, "target": {"function": "f", "line": 8},
                      "jaxpr": {"text": "", "equations": [{"primitive": "sin", "line": 9, "depth": 0, "parent": None},
                                                          {"primitive": "cos", "line": 6, "depth": 0, "parent": None}],
                                "text_lines": [[1, 9], [2, 6]]},
                      "compile": {"trace_s": 0.1, "top_lines": [{"line": 6, "equations": 1, "primitives": {}},
                                                                {"line": 9, "equations": 1, "primitives": {}}]},
                      "hlo": {"ops": [{"text_line": 1, "op": "cos", "line": 6}], "lines": {"6": {"cos": 1}, "9": {}}},
                      "error": {"type": "E", "message": "boom", "line": 6, "frames": [{"line": 6, "function": "helper",
                                                                                      "col": 0}]}}, source)
    assert result["target"]["line"] == 2
    assert [e["line"] for e in result["jaxpr"]["equations"]] == [3, None]
    assert result["jaxpr"]["text_lines"] == [[1, 3]]
    assert result["compile"]["top_lines"] == [{"line": 3, "equations": 1, "primitives": {}}]
    assert result["hlo"] == {"ops": [{"text_line": 1, "op": "cos", "line": None}], "lines": {"3": {}}}
    error = result["error"]
    assert (error["line"], error["cell"], error["cell_line"], error["frames"]) == (None, 5, 2, [])
    assert error["message"] == "boom (cell 5, line 2)"
    assert result["notebook"] == {"cell": 6, "ran": [2, 5, 6], "skipped": [{"cell": 3, "reason": "%%bash cell"}],
                                  "note": "ran cells 2, 5, 6 of the notebook in order before tracing (magics and "
                                          "shell escapes left out); not run: cell 3 (%%bash cell)"}
    assert result["notes"] == [result["notebook"]["note"]]


def test_thousands_of_timed_cells_each_keep_their_own_region():
    """Issue 24 item 5: each `%time` region's statements were found by scanning the whole program (8,000 cells:
    17 s); they are found by bisection now (bench/key_flow_scaling.py prints the n vs 4n ratio). Every region
    still gets its own finding, at its own cell."""
    cells = [(0, "import jax.numpy as jnp\nx = jnp.ones(3)")]
    cells += [(i, "%time y = jnp.sin(x)" if i % 2 else "%time z = 1") for i in range(1, 2001)]
    found = [(cell, rule) for cell, _, _, _, rule in findings(cells)]
    assert found == [(i + 1, "unblocked-timing") for i in range(1, 2001, 2)]  # cells as the editor counts them
