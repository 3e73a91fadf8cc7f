"""`sharpbits check` on many files: several processes report exactly what one does, in the same order and with
the same exit code; a second run reads unchanged files' results from the cache, and never a result computed
under other rules, another configuration, or for other bytes."""

import json
import os
import shutil

from tests.conftest import ROOT

FILES = sorted((ROOT / "tests" / "corpus" / "labelled").glob("*.py"))[:40]  # findings and clean files


def folder_of_examples(tmp_path):
    folder = tmp_path / "project"
    folder.mkdir()
    for index, path in enumerate(FILES):
        shutil.copy(path, folder / f"{index:03d}_{path.name}")
    (folder / "broken.py").write_text("def f(:\n")  # a syntax error is a result too
    return folder


def check(run_cli, folder, *args, cache=None):
    cache_args = ["--cache-dir", str(cache)] if cache else ["--no-cache"]
    return run_cli("check", "--format", "json", *cache_args, *args, str(folder))


def test_there_are_enough_files_to_run_in_processes():
    assert len(FILES) == 40


def test_processes_report_what_one_process_reports(run_cli, tmp_path):
    folder = folder_of_examples(tmp_path)
    one = check(run_cli, folder, "--jobs", "1")
    two = check(run_cli, folder, "--jobs", "2")
    four = run_cli("check", "--no-cache", "--jobs", "4", str(folder))
    assert one.returncode == two.returncode == four.returncode == 1
    assert one.stdout == two.stdout
    assert len(json.loads(one.stdout)) >= 10
    assert four.stdout == run_cli("check", "--no-cache", "--jobs", "1", str(folder)).stdout


def result_entries(cache):
    """The cache's per-file result entries (beside them: each module's summary shape, keyed by its text, which
    check's project index keys the results by)."""
    return [p for p in cache.rglob("*") if p.is_file() and '"shape"' not in p.read_text()]


def test_second_run_reads_the_cache_and_says_the_same(run_cli, tmp_path):
    folder, cache = folder_of_examples(tmp_path), tmp_path / "cache"
    fresh = check(run_cli, folder, cache=cache)
    entries = [p for p in cache.rglob("*") if p.is_file()]
    assert len(result_entries(cache)) == len(FILES) + 1
    cached = check(run_cli, folder, cache=cache)
    assert (cached.returncode, cached.stdout) == (fresh.returncode, fresh.stdout)
    assert sorted(p for p in cache.rglob("*") if p.is_file()) == sorted(entries)  # nothing new was written


def test_a_cached_result_is_what_is_reported(run_cli, tmp_path):
    """Proves the second run reads entries (an entry changed behind its back is what comes out)."""
    folder, cache = tmp_path / "p", tmp_path / "cache"
    folder.mkdir()
    (folder / "m.py").write_text("import jax\nkey = jax.random.PRNGKey(0)\na = jax.random.normal(key)\n"
                                 "b = jax.random.normal(key)\n")
    first = check(run_cli, folder, cache=cache)
    (entry,) = result_entries(cache)
    data = json.loads(entry.read_text())
    data["findings"][0]["message"] = "read from the cache"
    entry.write_text(json.dumps(data))
    second = check(run_cli, folder, cache=cache)
    assert "read from the cache" in second.stdout and "read from the cache" not in first.stdout


def test_the_cache_never_answers_for_other_bytes_rules_or_settings(run_cli, tmp_path):
    folder, cache = tmp_path / "p", tmp_path / "cache"
    folder.mkdir()
    module = folder / "m.py"
    module.write_text("import jax\nkey = jax.random.PRNGKey(0)\na = jax.random.normal(key)\n"
                      "b = jax.random.normal(key)\n")
    reused = json.loads(check(run_cli, folder, cache=cache).stdout)
    assert [f["rule"] for f in reused] == ["prng-key-reuse"]
    assert json.loads(check(run_cli, folder, "--ignore", "prng-key-reuse", cache=cache).stdout) == []
    (folder / "pyproject.toml").write_text('[tool.sharpbits.severity]\nprng-key-reuse = "info"\n')
    assert [f["severity"] for f in json.loads(check(run_cli, folder, cache=cache).stdout)] == ["info"]
    (folder / "pyproject.toml").unlink()
    module.write_text(module.read_text().replace("b = jax.random.normal(key)\n", ""))
    assert json.loads(check(run_cli, folder, cache=cache).stdout) == []


def test_the_cache_folder_is_named_by_sharpbits_own_code(tmp_path, monkeypatch):
    """Another version or another rule set writes and reads another folder."""
    from sharpbits import result_cache

    first = result_cache.code_fingerprint()
    monkeypatch.setattr(result_cache, "_fingerprint", None)
    monkeypatch.setattr(result_cache, "__version__", "999.0")
    assert result_cache.code_fingerprint() != first
    assert result_cache.ResultCache(tmp_path).folder.name == result_cache.code_fingerprint()


def test_no_cache_writes_nothing(run_cli, tmp_path):
    folder, cache = folder_of_examples(tmp_path), tmp_path / "cache"
    env_cache = os.environ.get("SHARPBITS_CACHE_DIR")
    result = run_cli("check", "--no-cache", "--cache-dir", str(cache), str(folder))
    assert result.returncode == 1 and not cache.exists() and env_cache


def test_a_number_of_processes_below_one_is_a_usage_error(run_cli, tmp_path):
    result = run_cli("check", "--jobs", "0", str(tmp_path))
    assert result.returncode == 2 and "1 or more" in result.stderr


def test_notebooks_in_processes_and_from_the_cache_say_what_one_process_says(run_cli, tmp_path):
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": ["import jax.numpy as jnp\n", "x = jnp.zeros(3)\n", "x[0] = 1.0\n"]}
    folder = tmp_path / "notebooks"
    folder.mkdir()
    for index in range(5):
        cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# notes\n"] * (index + 1)}, cell]
        (folder / f"n{index}.ipynb").write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                                            "nbformat_minor": 5}, indent=1))
    cache = tmp_path / "cache"
    for fmt in ("github", "sarif", "json"):
        one = run_cli("check", "--format", fmt, "--no-cache", "--timeout", "0", "--jobs", "1", str(folder))
        assert one.returncode == 1 and "SB101" in one.stdout, one.stderr
        if fmt == "github":  # annotations point at the line of the .ipynb file that holds the cell's line
            for index in range(5):
                text = (folder / f"n{index}.ipynb").read_text().splitlines()
                line = next(n for n, t in enumerate(text, 1) if '"x[0] = 1.0\\n"' in t)
                assert f"n{index}.ipynb,line={line},endLine={line}," in one.stdout, (line, one.stdout)
        for args in (["--no-cache", "--jobs", "2"], ["--cache-dir", str(cache)], ["--cache-dir", str(cache)]):
            out = run_cli("check", "--format", fmt, *args, str(folder))
            assert (out.stdout, out.returncode) == (one.stdout, one.returncode), args


def test_the_cache_notices_x64_turned_on_or_off_in_another_module_or_a_conftest(run_cli, tmp_path):
    """The float64 rule of a module reads whether a module it imports (or, for a test, a conftest above it) turns
    x64 on at import: that is part of those modules' shape, which check's result cache is keyed by, so a cached
    result never outlives the line that turned x64 on or off."""
    folder, cache = tmp_path / "p", tmp_path / "cache"
    folder.mkdir()
    (folder / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (folder / "setup_x64.py").write_text("import jax\n")
    (folder / "model.py").write_text("import jax.numpy as jnp\nimport setup_x64\n\n"
                                     "def f(x):\n    return jnp.asarray(x, dtype=jnp.float64)\n")
    (folder / "test_model.py").write_text("import jax.numpy as jnp\n\n"
                                          "def test_f():\n    assert jnp.zeros(3, dtype=jnp.float64).shape == (3,)\n")
    (folder / "conftest.py").write_text("import jax\n")

    def flagged():
        out = check(run_cli, folder, "--select", "float64-without-x64", cache=cache)
        return sorted(f["path"].rsplit("/", 1)[-1] for f in json.loads(out.stdout))  # (info in a library)

    assert flagged() == ["model.py", "test_model.py"]
    (folder / "setup_x64.py").write_text('import jax\njax.config.update("jax_enable_x64", True)\n')
    assert flagged() == ["test_model.py"]
    (folder / "conftest.py").write_text(
        'import jax\n\ndef pytest_configure(config):\n    jax.config.update("jax_enable_x64", True)\n')
    assert flagged() == []
    (folder / "conftest.py").write_text("import jax\n")
    (folder / "setup_x64.py").write_text("import jax\n")
    assert flagged() == ["model.py", "test_model.py"]
