"""`check --fix / --unsafe-fixes / --diff`, configuration from pyproject.toml, and the sarif/github formats."""

import ast
import json
import os
import subprocess

from tests.conftest import SHARPBITS

BUGGY = (
    "import jax\nimport jax.numpy as jnp\n\n"
    "key = jax.random.PRNGKey(0)\n"
    "w = jax.random.normal(key, (3,))\n"
    "b = jax.random.normal(key, (3,))  # reused\n"
    "x = jnp.zeros(3)\n"
    "x[0] = 1.0  # first element\n"
)


def test_fix_applies_safe_fixes_only(tmp_path, run_cli):
    path = tmp_path / "m.py"
    path.write_text(BUGGY)
    out = run_cli("check", "--fix", str(path))
    text = path.read_text()
    assert "x = x.at[0].set(1.0)  # first element\n" in text
    assert "subkey" not in text  # the key fix is unsafe: not applied without --unsafe-fixes
    assert "Fixed 1 finding." in out.stdout
    assert out.returncode == 1  # the key reuse remains
    out = run_cli("check", "--fix", "--unsafe-fixes", str(path))
    text = path.read_text()
    ast.parse(text)
    assert "key, subkey = jax.random.split(key)\nw = jax.random.normal(subkey, (3,))\n" in text
    assert out.returncode == 0, out.stdout


def test_text_marks_only_fixes_that_fix_applies(tmp_path, run_cli):
    path = tmp_path / "m.py"
    path.write_text(BUGGY)
    for cached in ("--no-cache", "--cache-dir=" + str(tmp_path.parent / "cache"), "--cache-dir=" + str(tmp_path.parent / "cache")):
        lines = run_cli("check", cached, str(path)).stdout.splitlines()
        key_line = next(line for line in lines if "SB201" in line)
        write_line = next(line for line in lines if "SB101" in line)
        assert not key_line.endswith("[*]") and write_line.endswith("[*]"), lines  # the key fix is unsafe
        assert lines[-1] == ("Found 2 findings in 1 file checked (1 fixable with --fix, marked [*]; "
                             "1 unsafe fix with --fix --unsafe-fixes)."), lines
    lines = run_cli("check", "--unsafe-fixes", str(path), "--no-cache").stdout.splitlines()
    assert all(line.endswith("[*]") for line in lines[:-1]), lines
    assert lines[-1] == "Found 2 findings in 1 file checked (2 fixable with --fix, marked [*]).", lines
    run_cli("check", "--fix", str(path))
    lines = run_cli("check", str(path), "--no-cache").stdout.splitlines()
    assert lines[-1] == "Found 1 finding in 1 file checked (1 unsafe fix with --fix --unsafe-fixes).", lines


def test_fix_keeps_crlf_and_encoding(tmp_path, run_cli):
    path = tmp_path / "m.py"
    source = "# -*- coding: latin-1 -*-\r\nimport jax.numpy as jnp\r\nx = jnp.zeros(3)\r\nx[0] = 1  # caf\xe9\r\n"
    path.write_bytes(source.encode("latin-1"))
    run_cli("check", "--fix", str(path))
    assert path.read_bytes() == source.replace("x[0] = 1", "x = x.at[0].set(1)").encode("latin-1")


def test_diff_changes_nothing(tmp_path, run_cli):
    path = tmp_path / "m.py"
    path.write_text(BUGGY)
    out = run_cli("check", "--diff", "--unsafe-fixes", str(path))
    assert path.read_text() == BUGGY
    assert out.returncode == 1
    assert "-x[0] = 1.0  # first element\n+x = x.at[0].set(1.0)  # first element\n" in out.stdout
    assert "+key, subkey = jax.random.split(key)" in out.stdout
    assert "1 file would be changed." in out.stderr


# a loop body indented tab + 4 spaces under a loop indented 4 spaces (the fuzz finding of issue 10)
MIXED_TABS_LOOP = (
    "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef total(x):\n    acc = jnp.zeros(())\n"
    "    for i in range(x.shape[0]):\n\t    acc = acc + x[i]\n    return acc\n"
)


def test_every_fix_path_gives_code_that_parses(tmp_path, run_cli):
    """JSON's `fix`, --diff and --fix go through the same check (Finding.fix): what they give parses."""
    from sharpbits.findings import TextEdit, apply_edits

    path = tmp_path / "loop.py"
    path.write_text(MIXED_TABS_LOOP)
    (finding,) = json.loads(run_cli("check", "--format", "json", "loop.py", cwd=tmp_path).stdout)
    assert finding["fix"] is not None
    edits = [TextEdit(**e) for e in finding["fix"]["edits"]]
    ast.parse(apply_edits(MIXED_TABS_LOOP, edits))
    diff = run_cli("check", "--diff", "--unsafe-fixes", "loop.py", cwd=tmp_path)
    assert "+\t    return acc\n" in diff.stdout and path.read_text() == MIXED_TABS_LOOP
    run_cli("check", "--fix", "--unsafe-fixes", "loop.py", cwd=tmp_path)
    fixed = path.read_text()
    ast.parse(fixed)
    assert "fori_loop(0, x.shape[0], loop_body, acc)" in fixed


def test_pyproject_configuration(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.sharpbits]\nignore = ["SB101"]\nexclude = ["generated/"]\n'
        '[tool.sharpbits.severity]\nprng-key-reuse = "info"\n'
        '[tool.sharpbits.per-file-ignores]\n"tests/*" = ["prng-key-reuse"]\n'
    )
    (tmp_path / "m.py").write_text(BUGGY)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text(BUGGY)
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "g.py").write_text(BUGGY)
    out = run_cli("check", "--format", "json", ".", cwd=tmp_path)
    findings = json.loads(out.stdout)
    assert [(f["path"], f["rule"], f["severity"]) for f in findings] == [("m.py", "prng-key-reuse", "info")]
    assert out.returncode == 0  # info does not fail the run
    # the command line's --select wins over the file
    out = run_cli("check", "--format", "json", "--select", "SB101", "m.py", cwd=tmp_path)
    assert [f["rule"] for f in json.loads(out.stdout)] == []  # still ignored by the file's ignore


def test_bad_configuration_is_a_clear_error(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text('[tool.sharpbits]\nselect = ["SB999"]\n')
    (tmp_path / "m.py").write_text("x = 1\n")
    out = run_cli("check", ".", cwd=tmp_path)
    assert out.returncode == 2 and "unknown rule 'SB999'" in out.stderr and "Traceback" not in out.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.sharpbits]\nselects = ["SB101"]\n')
    out = run_cli("check", ".", cwd=tmp_path)
    assert out.returncode == 2 and "unknown setting(s) selects" in out.stderr


def test_noqa_suppressions(tmp_path, run_cli):
    path = tmp_path / "m.py"
    path.write_text(BUGGY.replace("# reused", "# noqa: SB201").replace("# first element", "# noqa: in-place-update"))
    assert run_cli("check", str(path)).returncode == 0
    path.write_text("# sharpbits: noqa: prng-key-reuse, SB101\n" + BUGGY)
    assert run_cli("check", str(path)).returncode == 0
    path.write_text(BUGGY.replace("# reused", "# noqa: SB101"))  # the wrong code suppresses nothing
    assert "SB201" in run_cli("check", str(path)).stdout


def test_sarif_output(tmp_path, run_cli):
    (tmp_path / "m.py").write_text(BUGGY)
    out = run_cli("check", "--format", "sarif", "m.py", cwd=tmp_path)
    log = json.loads(out.stdout)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} >= {"SB101", "SB201"}
    results = {(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in run["results"]}
    assert results == {("SB201", 6), ("SB101", 8)}


def test_github_annotations(tmp_path, run_cli):
    (tmp_path / "m.py").write_text(BUGGY)
    out = run_cli("check", "--format", "github", "m.py", cwd=tmp_path)
    lines = out.stdout.splitlines()
    assert lines[0].startswith("::warning file=m.py,line=6,col=23,endLine=6,endColumn=26,title=SB201 prng-key-reuse::")
    assert lines[1].startswith("::error file=m.py,line=8,col=1,")


def test_rule_links_are_the_pages_shipped_or_a_configured_address(tmp_path, run_cli):
    """No made-up address: without SHARPBITS_DOCS_URL the SARIF rules carry their whole page (`help.markdown`) and
    no helpUri, and JSON's `url` is empty; with it, every link is filled in from it."""
    (tmp_path / "m.py").write_text(BUGGY)
    rules = json.loads(run_cli("check", "--format", "sarif", "m.py", cwd=tmp_path).stdout)["runs"][0]["tool"]["driver"]
    assert "informationUri" not in rules
    sb201 = next(r for r in rules["rules"] if r["id"] == "SB201")
    assert "helpUri" not in sb201 and sb201["help"]["markdown"].startswith("# prng-key-reuse (SB201)")
    env = {**os.environ, "SHARPBITS_DOCS_URL": "https://docs.example.org/rules/{code}"}
    sarif = subprocess.run([SHARPBITS, "check", "--format", "sarif", "m.py"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=120)
    sb201 = next(r for r in json.loads(sarif.stdout)["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "SB201")
    assert sb201["helpUri"] == "https://docs.example.org/rules/SB201"
    env["SHARPBITS_DOCS_URL"] = "https://docs.example.org/rules/"
    found = subprocess.run([SHARPBITS, "check", "--format", "json", "m.py"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=120)
    assert {f["url"] for f in json.loads(found.stdout)} == {"https://docs.example.org/rules/prng-key-reuse.md",
                                                            "https://docs.example.org/rules/in-place-update.md"}
