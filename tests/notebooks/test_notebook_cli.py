"""`sharpbits check` on notebooks, through the installed console script: cells named in every format, folders
include .ipynb, --fix edits cells and keeps everything else byte-for-byte, broken files are errors."""

import json
import shutil
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def notebooks(tmp_path):
    for name in ("pseudorandom_numbers.ipynb", "jit_and_updates.ipynb"):
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


def test_text_output_names_the_cell_of_a_cross_cell_key_reuse(notebooks, run_cli):
    out = run_cli("check", "pseudorandom_numbers.ipynb", cwd=notebooks)
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    # cell 8 (markdown cells count) is `random.normal?` then the reuse of the key made in cell 3, used in cell 5
    assert lines[0].startswith("pseudorandom_numbers.ipynb:cell 8:2:19: SB201 [prng-key-reuse] PRNG key `key` was "
                               "already consumed at cell 5, line 1 by `random.normal(...)`")
    # every later use of the key is a finding at its own line (issue 22), naming the same first use
    assert lines[1].startswith("pseudorandom_numbers.ipynb:cell 10:1:28: SB201 [prng-key-reuse] PRNG key `key` was "
                               "already consumed at cell 5, line 1 by `random.normal(...)`")
    # the `%timeit` line keeps its code: the reuse of `subkey` is found at its own column
    assert lines[2].startswith("pseudorandom_numbers.ipynb:cell 10:3:23: SB201 ")
    assert lines[-1].startswith("Found 3 findings in 1 file checked")


def test_a_helper_in_one_cell_is_traced_through_a_jitted_function_in_another(notebooks, run_cli):
    out = run_cli("check", "jit_and_updates.ipynb", cwd=notebooks)
    # %%timeit, %%capture (not Python inside), %%bash, %time lines and `% 2` inside brackets all in the file
    assert out.stdout.splitlines()[0].startswith("jit_and_updates.ipynb:cell 3:3:5: SB101 [in-place-update]")
    assert out.stdout.splitlines()[-1].startswith("Found 1 finding in 1 file checked")


def test_json_has_the_cell_and_cell_relative_positions(notebooks, run_cli):
    out = run_cli("check", "--format", "json", "pseudorandom_numbers.ipynb", cwd=notebooks)
    first = json.loads(out.stdout)[0]
    assert (first["cell"], first["line"], first["column"], first["end_line"], first["end_column"]) == (8, 2, 19, 2, 22)
    assert first["path"] == "pseudorandom_numbers.ipynb" and first["rule"] == "prng-key-reuse"
    # its fix edits another cell (the key is split where it was first used, in cell 5): every edit names its cell
    assert first["fix"]["description"] == "Split `key` before its first use (cell 5, line 1)"
    assert [(e["cell"], e["line"], e["column"], e["end_line"], e["end_column"], e["new_text"])
            for e in first["fix"]["edits"]] == [(5, 1, 1, 1, 1, "key, subkey1 = random.split(key)\n"),
                                                (5, 1, 19, 1, 22, "subkey1")]
    # applying the JSON's edits to the cells they name gives what --fix writes for that finding
    sources = {i + 1: "".join(c["source"]) for i, c in enumerate(json.loads(
        (notebooks / "pseudorandom_numbers.ipynb").read_text())["cells"])}
    for edit in sorted(first["fix"]["edits"], key=lambda e: (e["line"], e["column"]), reverse=True):
        lines = sources[edit["cell"]].splitlines(keepends=True)
        start = sum(map(len, lines[: edit["line"] - 1])) + edit["column"] - 1
        end = sum(map(len, lines[: edit["end_line"] - 1])) + edit["end_column"] - 1
        sources[edit["cell"]] = sources[edit["cell"]][:start] + edit["new_text"] + sources[edit["cell"]][end:]
    assert sources[5] == "key, subkey1 = random.split(key)\nx = random.normal(subkey1, (3,))\nprint(x)"
    out = run_cli("check", "--format", "json", "jit_and_updates.ipynb", cwd=notebooks)
    (finding,) = json.loads(out.stdout)
    assert finding["cell"] == 3
    (edit,) = finding["fix"]["edits"]
    assert (edit["cell"], edit["line"], edit["column"], edit["new_text"]) == (3, 3, 5, "x = x.at[0].set(0.0)")


def test_timeit_of_a_jax_call_that_is_not_waited_for_is_found_and_fixed(notebooks, run_cli):
    shutil.copy(DATA / "benchmarking.ipynb", notebooks / "benchmarking.ipynb")
    out = run_cli("check", "benchmarking.ipynb", cwd=notebooks)
    # `%timeit selu(x)` and a `%%timeit` body; not the waited-for `%timeit -n 10 -r 3 ...`, a `%%timeit` setup line,
    # a host conversion or `%time ... .block_until_ready()`
    assert out.stdout.splitlines() == [
        "benchmarking.ipynb:cell 5:1:9: SB501 [unblocked-timing] `selu(...)` returns before the device finishes "
        "and `%timeit` stops its clock without waiting for it; use `selu(...).block_until_ready()` [*]",
        "benchmarking.ipynb:cell 7:3:5: SB501 [unblocked-timing] `selu(...)` returns before the device finishes "
        "and `%%timeit` stops its clock without waiting for it; use `selu(...).block_until_ready()` [*]",
        "Found 2 findings in 1 file checked (2 fixable with --fix, marked [*]).",
    ]
    before = json.loads((notebooks / "benchmarking.ipynb").read_text())
    fixed = run_cli("check", "--fix", "benchmarking.ipynb", cwd=notebooks)
    assert fixed.returncode == 0 and "Fixed 2 findings." in fixed.stdout, fixed.stdout + fixed.stderr
    after = json.loads((notebooks / "benchmarking.ipynb").read_text())
    assert after["cells"][4]["source"] == ["%timeit selu(x).block_until_ready()"]
    assert after["cells"][6]["source"] == ["%%timeit\n", "y = selu(x)\n", "z = selu(y).block_until_ready()"]
    assert after["cells"][4]["outputs"] == before["cells"][4]["outputs"]


def test_sarif_and_github_point_at_the_lines_of_the_ipynb_file(notebooks, run_cli):
    text_lines = (notebooks / "jit_and_updates.ipynb").read_text().splitlines()
    sarif = json.loads(run_cli("check", "--format", "sarif", "jit_and_updates.ipynb", cwd=notebooks).stdout)
    (result,) = sarif["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert "x[0] = 0.0" in text_lines[region["startLine"] - 1]  # the cell's source is one JSON string there
    assert result["properties"] == {"cell": 3, "cellRegion": {"startLine": 3, "startColumn": 5, "endLine": 3,
                                                               "endColumn": 9}}
    github = run_cli("check", "--format", "github", "jit_and_updates.ipynb", cwd=notebooks).stdout
    assert github.startswith(f"::error file=jit_and_updates.ipynb,line={region['startLine']},")
    assert "title=SB101 in-place-update (cell 3%2C line 3%2C column 5)::" in github


def test_folders_include_notebooks_unless_configured_off(notebooks, run_cli):
    (notebooks / "clean.py").write_text("import numpy as np\n")
    out = run_cli("check", ".", cwd=notebooks)
    assert "Found 4 findings in 3 files checked" in out.stdout
    (notebooks / "pyproject.toml").write_text("[tool.sharpbits]\ninclude-notebooks = false\n")
    assert "All checks passed (1 file checked)" in run_cli("check", ".", cwd=notebooks).stdout
    # a notebook named on the command line is always checked
    assert run_cli("check", "jit_and_updates.ipynb", cwd=notebooks).returncode == 1
    (notebooks / "pyproject.toml").write_text("[tool.sharpbits]\ninclude-notebooks = 'yes'\n")
    bad = run_cli("check", ".", cwd=notebooks)
    assert bad.returncode == 2 and "`include-notebooks` must be true or false" in bad.stderr


def test_fix_edits_cells_and_keeps_the_rest_of_the_file_byte_for_byte(notebooks, run_cli):
    path = notebooks / "pseudorandom_numbers.ipynb"
    before = path.read_text(encoding="utf-8")
    out = run_cli("check", "--fix", "--unsafe-fixes", "pseudorandom_numbers.ipynb", cwd=notebooks)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Fixed 3 findings." in out.stdout and "All checks passed" in out.stdout
    after = path.read_text(encoding="utf-8")
    old, new = json.loads(before), json.loads(after)
    changed = [i for i, (a, b) in enumerate(zip(old["cells"], new["cells"], strict=True)) if a != b]
    assert changed == [4, 7, 9]  # cells 5, 8 and 10
    assert new["cells"][4]["source"] == ["key, subkey1 = random.split(key)\n", "x = random.normal(subkey1, (3,))\n",
                                         "print(x)"]
    for i in changed:
        old["cells"][i]["source"] = new["cells"][i]["source"]
    # the file is what Jupyter itself would write for the new sources: indent 1, key order, outputs, "µ" unescaped,
    # the trailing newline
    assert after == json.dumps(old, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    assert run_cli("check", "pseudorandom_numbers.ipynb", cwd=notebooks).returncode == 0


def test_safe_fixes_in_a_notebook_indented_by_two_spaces(notebooks, run_cli):
    path = notebooks / "jit_and_updates.ipynb"
    before = json.loads(path.read_text())
    out = run_cli("check", "--fix", "--unsafe-fixes", "jit_and_updates.ipynb", cwd=notebooks)
    assert out.returncode == 0, out.stdout
    before["cells"][2]["source"] = before["cells"][2]["source"].replace("x[0] = 0.0", "x = x.at[0].set(0.0)")
    assert path.read_text() == json.dumps(before, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_diff_shows_cell_diffs_and_changes_nothing(notebooks, run_cli):
    before = (notebooks / "jit_and_updates.ipynb").read_bytes()
    out = run_cli("check", "--diff", "--unsafe-fixes", "jit_and_updates.ipynb", cwd=notebooks)
    assert out.returncode == 1
    assert out.stdout.startswith("--- a/jit_and_updates.ipynb:cell 3\n+++ b/jit_and_updates.ipynb:cell 3\n")
    assert "+    x = x.at[0].set(0.0)  # the first row is the reference\n" in out.stdout
    assert (notebooks / "jit_and_updates.ipynb").read_bytes() == before


@pytest.mark.parametrize(("name", "message"), [
    ("not_json.ipynb", "not_json.ipynb:3:48: SB000 [syntax-error] not valid JSON: expected a key in double quotes"),
    ("nbformat3.ipynb", "nbformat3.ipynb:1:1: SB000 [syntax-error] not an nbformat 4 notebook (nbformat 3)"),
])
def test_a_file_that_is_not_an_nbformat_4_notebook_is_an_error_never_a_pass(tmp_path, run_cli, name, message):
    shutil.copy(DATA / name, tmp_path / name)
    out = run_cli("check", ".", cwd=tmp_path)
    assert out.returncode == 1
    assert out.stdout.startswith(message)
    assert "All checks passed" not in out.stdout
    before = (tmp_path / name).read_bytes()
    run_cli("check", "--fix", name, cwd=tmp_path)
    assert (tmp_path / name).read_bytes() == before


def test_a_notebook_in_another_language_is_skipped_and_said_so(tmp_path, run_cli):
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": "x[0] = 1"}], "nbformat": 4,
          "nbformat_minor": 5, "metadata": {"kernelspec": {"language": "julia", "name": "julia-1.10"}}}
    (tmp_path / "julia.ipynb").write_text(json.dumps(nb))
    out = run_cli("check", "julia.ipynb", cwd=tmp_path)
    assert "julia.ipynb: skipped: a julia notebook, not Python" in out.stderr
