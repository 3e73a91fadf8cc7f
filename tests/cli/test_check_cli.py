"""`sharpbits check` through the installed console script: formats, exit codes, excludes, bad input."""

import json

import pytest

BAD = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1\n"
GOOD = "import numpy as np\nx = np.zeros(3)\nx[0] = 1\n"
SCHEMA_KEYS = {"path", "line", "column", "end_line", "end_column", "code", "rule", "severity", "message", "url", "fix",
               "cell"}


def test_version(run_cli):
    out = run_cli("--version")
    assert out.returncode == 0 and out.stdout.startswith("sharpbits ")


def test_text_format_is_ruff_like_and_exit_code_1(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    out = run_cli("check", "bad.py", cwd=tmp_path)
    assert out.returncode == 1
    first, summary = out.stdout.strip().splitlines()
    assert first.startswith("bad.py:3:1: SB101 [in-place-update] ")
    assert first.endswith("[*]")
    assert summary.startswith("Found 1 finding in 1 file checked")


def test_clean_code_exits_0(tmp_path, run_cli):
    (tmp_path / "good.py").write_text(GOOD)
    out = run_cli("check", str(tmp_path))
    assert out.returncode == 0, out.stdout
    assert "All checks passed (1 file checked)" in out.stdout


def test_json_follows_the_schema(tmp_path, run_cli):
    path = tmp_path / "bad.py"
    path.write_text("import jax.numpy as jnp\nx = jnp.zeros(3)\ny = 'é'; x[0] += 2  # é\n", encoding="utf-8")
    out = run_cli("check", "--format", "json", str(path))
    assert out.returncode == 1
    (finding,) = json.loads(out.stdout)
    assert set(finding) == SCHEMA_KEYS
    # columns count characters, 1-based: `x[0]` starts after "y = 'é'; "
    assert (finding["line"], finding["column"], finding["end_line"], finding["end_column"]) == (3, 10, 3, 14)
    assert finding["code"] == "SB101" and finding["rule"] == "in-place-update" and finding["severity"] == "error"
    assert finding["url"] == ""  # no made-up address: the page ships with the package (`sharpbits rule SB101`)
    fix = finding["fix"]
    assert fix["safe"] is True and fix["description"]
    (edit,) = fix["edits"]
    assert edit == {"line": 3, "column": 10, "end_line": 3, "end_column": 19, "new_text": "x = x.at[0].add(2)"}


def test_folders_skip_venvs_build_dirs_and_gitignored_files(tmp_path, run_cli):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "bad.py").write_text(BAD)
    for skipped in (".venv/lib", "build", "node_modules/x", "generated", "env2"):
        (tmp_path / skipped).mkdir(parents=True)
        (tmp_path / skipped / "bad.py").write_text(BAD)
    (tmp_path / "env2" / "pyvenv.cfg").write_text("home = /usr\n")
    (tmp_path / ".gitignore").write_text("generated/\n*.gen.py\n")
    (tmp_path / "pkg" / "x.gen.py").write_text(BAD)
    out = run_cli("check", "--format", "json", ".", cwd=tmp_path)
    assert [f["path"] for f in json.loads(out.stdout)] == ["pkg/bad.py"]
    # a file named explicitly is always checked
    out = run_cli("check", "--format", "json", "generated/bad.py", cwd=tmp_path)
    assert len(json.loads(out.stdout)) == 1


def test_usage_errors_exit_2_with_a_clear_message(tmp_path, run_cli):
    out = run_cli("check", str(tmp_path / "missing.py"))
    assert out.returncode == 2 and "no such file" in out.stderr and "Traceback" not in out.stderr
    out = run_cli("check", "--select", "no-such-rule", str(tmp_path))
    assert out.returncode == 2 and "unknown rule 'no-such-rule'" in out.stderr
    out = run_cli("check", "--format", "xml")
    assert out.returncode == 2 and "invalid choice" in out.stderr


def test_select_and_ignore(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text(BAD)
    assert run_cli("check", "--select", "SB101", str(tmp_path)).returncode == 1
    assert run_cli("check", "--ignore", "in-place-update", str(tmp_path)).returncode == 0


@pytest.mark.parametrize(
    ("content", "stdout_part", "stderr_part", "code"),
    [
        (b"def f(:\n    pass\n", "SB000 [syntax-error] syntax error", "", 1),
        (b"", "All checks passed", "", 0),
        (b"\x7fELF\x02\x01\x01\x00\x00\x00binary", "All checks passed (0 files", "binary file", 0),
        (b"# -*- coding: latin-1 -*-\nname = '\xe9'\n", "All checks passed", "", 0),
        (b"\xff\xfe\xfa not utf8\n", "All checks passed (0 files", "not valid utf-8", 0),
        (b"x = (" * 300 + b"1" + b")" * 300 + b"\n", "SB000", "", 1),
    ],
    ids=["syntax-error", "empty", "binary", "latin-1", "bad-utf8", "deep-nesting"],
)
def test_bad_input_gives_a_clear_result(tmp_path, run_cli, content, stdout_part, stderr_part, code):
    (tmp_path / "input.py").write_bytes(content)
    out = run_cli("check", str(tmp_path / "input.py"))
    assert "Traceback" not in out.stderr and "Traceback" not in out.stdout
    assert stdout_part in out.stdout
    assert stderr_part in out.stderr
    assert out.returncode == code


def test_fifty_thousand_lines(tmp_path, run_cli):
    block = (
        "@jax.jit\ndef f{i}(x, y):\n    z = jnp.sin(x) * y\n    z[0] = 1.0\n    for k in range(3):\n"
        "        z = z + k\n    return z\n\n"
    )
    body = "import jax\nimport jax.numpy as jnp\n" + "".join(block.format(i=i) for i in range(6250))
    path = tmp_path / "huge.py"
    path.write_text(body)
    assert len(body.splitlines()) >= 50_000
    out = run_cli("check", "--format", "json", str(path))
    assert out.returncode == 1
    rules = [f["rule"] for f in json.loads(out.stdout)]
    assert rules.count("in-place-update") == 6250 and rules.count("python-loop-in-jit") == 6250


def test_rule_docs_from_the_cli(run_cli):
    listing = run_cli("rule")
    assert "SB101  in-place-update" in listing.stdout
    doc = run_cli("rule", "SB101")
    assert doc.returncode == 0 and "## Why is this bad?" in doc.stdout
    assert run_cli("rule", "nope").returncode == 2
