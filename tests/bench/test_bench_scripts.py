"""The bench scripts keep running (quick mode), and the labelled corpus stays well-formed."""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import tokenize
from collections import Counter
from pathlib import Path

import pytest
from sharpbits.analysis.rules import ALL_RULES

ROOT = Path(__file__).resolve().parent.parent.parent
BENCH = ROOT / "bench"
LABELLED = ROOT / "tests" / "corpus" / "labelled"
HELDOUT = ROOT / "tests" / "corpus" / "heldout"  # labelled the same way; bugs the rules still miss
REALISTIC = ROOT / "tests" / "corpus" / "realistic"
# every registered rule may label corpus lines, except SB0xx (unused-noqa), which judges the noqa comments a
# corpus file may not hold
RULES = {rule.name for rule in ALL_RULES if not rule.code.startswith("SB0")}
MARK = "# expect:"


def run_bench(name: str, *args: str) -> str:
    proc = subprocess.run([sys.executable, str(BENCH / name), "--quick", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert proc.returncode == 0, f"{name} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def test_precision_recall_prints_table():
    out = run_bench("precision_recall.py")
    for rule in RULES:
        assert re.search(rf"^{re.escape(rule)}\s+(yes|no)\s+\d+\s+\d+\s+\d+\s+(\d\.\d+|n/a)\s+(\d\.\d+|n/a)$", out,
                         re.MULTILINE), out
    assert re.search(r"^overall\s+\d+\s+\d+\s+\d+", out, re.MULTILINE), out
    assert re.search(r"^clean files with any finding: \d+ of \d+$", out, re.MULTILINE), out
    assert "false positives (" in out and "false negatives (" in out


def test_labelled_corpus_is_found_whole():
    """Every label of the labelled corpus is found (recall 1.00), and no finding of warning severity or above lands on
    an unlabelled line: a change that loses a labelled bug, or warns on a clean twin, fails here, not only in the
    bench's printout."""
    out = run_bench("precision_recall.py")
    overall = re.search(r"^overall \(implemented rules only\): TP=(\d+) FP=(\d+) FN=(\d+)", out, re.MULTILINE)
    assert overall, out
    assert int(overall.group(3)) == 0, out[out.find("false negatives"):]
    false_alarms = re.findall(r"^  FP (\S+) (\S+) \[(\w+)\]$", out, re.MULTILINE)
    assert len(false_alarms) == int(overall.group(2)), out
    assert all(severity in ("hint", "info") for _, _, severity in false_alarms), false_alarms


def test_realistic_findings_prints_count():
    out = run_bench("realistic_findings.py")
    assert re.search(r"^realistic code base: \d+ files, \d+ lines", out, re.MULTILINE), out
    assert re.search(r"^findings: \d+ ", out, re.MULTILINE), out


def test_fuzz_runs_every_property():
    out = run_bench("fuzz.py", "--seed", "20261124")  # a fixed seed: the quick run is the same every time
    assert out.startswith("fuzz run: seed 20261124, 200 examples"), out
    for name in ("mutated documents", "arbitrary text", "statement soup", "fix check vs full parse"):
        assert re.search(rf"^{name}\s+\d+ examples\s+\d+\.\d s  held$", out, re.MULTILINE), out
    assert re.search(r"^0 of 4 properties failed", out, re.MULTILINE), out


def test_speed_prints_ratios():
    out = run_bench("speed.py")
    assert len(re.findall(r"\(a\) in-process: .* ratio \d+\.\d+x", out)) == 2, out
    assert len(re.findall(r"\(b\) whole process: .* ratio \d+\.\d+x", out)) == 2, out
    assert re.search(r"\(c\) start-up imports of `sharpbits check`: jax=(yes|no)", out), out


def test_notebook_speed_prints_ratios():
    out = run_bench("notebook_speed.py")
    findings = re.search(r"^notebook: \d+ cells \(\d+ code\), \d+ code lines, (\d+) findings \(as \.py: (\d+)\)$", out,
                         re.MULTILINE)
    assert findings and findings.group(1) == findings.group(2), out  # the same findings either way
    assert re.search(r"^\(a\) in-process: .* ratio \d+\.\d+x$", out, re.MULTILINE), out
    assert re.search(r"^\(b\) whole process: .* ratio \d+\.\d+x$", out, re.MULTILINE), out


def test_speed_generator_is_deterministic_and_parses():
    sys.path.insert(0, str(BENCH))
    try:
        import speed
    finally:
        sys.path.remove(str(BENCH))
    text = speed.generate(1_000)
    assert text == speed.generate(1_000)
    ast.parse(text)
    assert 1_000 <= text.count("\n") < 1_100


# --- the labelled corpus --------------------------------------------------------------------------------

def _labels(path: Path) -> list[tuple[int, str]]:
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if tok.type == tokenize.COMMENT and MARK in tok.string:
            assert tok.string.startswith(MARK), f"{path.name}:{tok.start[0]}: put `{MARK}` at the start of the comment"
            found += [(tok.start[0], r.strip()) for r in tok.string[len(MARK):].split(",")]
    return found


CORPUS_FILES = sorted(LABELLED.glob("*.py"))
# held-out sets may sit in their own folders (`heldout/recall28/`) and hold project folders (`proj_*/`: scripts beside
# a package whose modules are helpers, named as modules are, and may carry labels too)
HELDOUT_FILES = sorted(HELDOUT.rglob("*.py"))


def _is_package_module(path: Path) -> bool:
    return (path.parent / "__init__.py").exists()


@pytest.mark.parametrize("path", CORPUS_FILES + HELDOUT_FILES,
                         ids=lambda p: p.relative_to(p.parent.parent.parent if _is_package_module(p) else p.parent.parent)
                         .as_posix())
def test_corpus_file_is_well_formed(path: Path):
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text, filename=str(path))
    assert ast.get_docstring(tree), f"{path.name}: needs a docstring naming the JAX doc section / situation"
    assert 10 <= len(text.splitlines()) <= 60, f"{path.name}: {len(text.splitlines())} lines (want 10-60)"
    assert "noqa" not in text.lower(), f"{path.name}: a noqa comment would hide findings from the benchmark"
    labels = _labels(path)
    for line, rule in labels:
        assert rule in RULES, f"{path.name}:{line}: unknown rule {rule!r}"
    if _is_package_module(path):
        return
    prefix = path.name.split("__", 1)[0]
    assert "__" in path.name and (prefix == "clean" or prefix in RULES), f"bad name {path.name}"
    if prefix == "clean":
        assert not labels, f"{path.name}: a clean file carries labels"
    elif any(_is_package_module(p) for p in path.parent.glob("*/*.py")):
        # a project script: its label may sit in the helper module it calls
        project = {rule for p in path.parent.rglob("*.py") for _, rule in _labels(p)}
        assert prefix in project, f"{path.name}: no `{MARK} {prefix}` label in its project"
    else:
        assert prefix in {rule for _, rule in labels}, f"{path.name}: no `{MARK} {prefix}` label"


def test_corpus_counts_meet_the_minimums():
    clean = [p for p in CORPUS_FILES if not _labels(p)]
    per_rule = Counter(rule for p in CORPUS_FILES for rule in {r for _, r in _labels(p)})
    assert len(CORPUS_FILES) >= 66
    assert len(clean) * 3 >= len(CORPUS_FILES), f"{len(clean)} clean of {len(CORPUS_FILES)}"
    assert len(CORPUS_FILES) - len(clean) >= 40
    for rule in RULES:
        assert per_rule[rule] >= 8, f"{rule}: only {per_rule[rule]} bug files"


def test_realistic_code_base_compiles():
    files = sorted(REALISTIC.rglob("*.py"))
    assert files, "tests/corpus/realistic/ is empty"
    total = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        compile(text, str(path), "exec")
        total += len(text.splitlines())
    assert total >= 3_000, f"realistic code base has {total} lines"
    assert (REALISTIC / "README.md").is_file()


# --- real code (bench/realcode.py): run on a tiny fake package, never downloading -------------------------

REALCODE_VERDICTS = ROOT / "tests" / "corpus" / "realcode" / "verdicts.tsv"
KEY_REUSE_MODULE = '''import jax


def draw(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.uniform(key, (3,))
    return a + b
'''


def _run_realcode(source_dir: Path, verdicts: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH / "realcode.py"), "--source-dir", str(source_dir),
                           "--verdicts", str(verdicts), *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)


@pytest.fixture
def fake_package(tmp_path: Path) -> Path:
    package = tmp_path / "src" / "fakepkg" / "fakepkg"
    package.mkdir(parents=True)
    (package / "sampling.py").write_text(KEY_REUSE_MODULE, encoding="utf-8")
    (package / "broken.py").write_text("def f(:\n", encoding="utf-8")
    return tmp_path / "src"


def test_realcode_fails_and_lists_an_unjudged_finding(fake_package: Path, tmp_path: Path):
    proc = _run_realcode(fake_package, tmp_path / "none.tsv", "--unjudged")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"^UNJUDGED: 1 finding", proc.stdout, re.MULTILINE), proc.stdout
    assert "fakepkg/fakepkg/sampling.py:6\tprng-key-reuse\t[warning]" in proc.stdout
    assert ">    6      b = jax.random.uniform(key, (3,))" in proc.stdout  # the line, with context
    assert "unreadable: fakepkg/fakepkg/broken.py" in proc.stdout


def test_realcode_table_counts_verdicts_and_gone_ones(fake_package: Path, tmp_path: Path):
    verdicts = tmp_path / "verdicts.tsv"
    verdicts.write_text("# location\trule\tverdict\treason\n"
                        "fakepkg/fakepkg/sampling.py:6\tprng-key-reuse\ttrue\tsame key to two samplers\n"
                        "fakepkg/fakepkg/sampling.py:2\tprng-key-reuse\ttrue\tan old finding, now missed\n"
                        "fakepkg/fakepkg/sampling.py:3\tpython-loop-in-jit\tfalse\tan old false alarm\n"
                        "otherpkg/x.py:1\tprng-key-reuse\ttrue\tanother package: not counted as gone\n",
                        encoding="utf-8")
    proc = _run_realcode(fake_package, verdicts)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"^prng-key-reuse\s+1\s+1\s+0\s+0\s+1\.000$", proc.stdout, re.MULTILINE), proc.stdout
    assert re.search(r"^overall \(warning\+\)\s+1\s+1\s+0\s+0\s+1\.000$", proc.stdout, re.MULTILINE), proc.stdout
    assert re.search(r"^fakepkg\s+2\s+\d+\s+\d+\.\d+\s+1\s+1$", proc.stdout, re.MULTILINE), proc.stdout
    assert "verdicts with no finding now: 2 (1 true = real bugs no longer found, 1 false" in proc.stdout
    assert "LOST fakepkg/fakepkg/sampling.py:2 prng-key-reuse: an old finding, now missed" in proc.stdout
    as_json = _run_realcode(fake_package, verdicts, "--json")
    data = json.loads(as_json.stdout)
    assert [f["verdict"] for f in data["findings"]] == ["true"]


def test_realcode_rejects_a_malformed_verdict(fake_package: Path, tmp_path: Path):
    verdicts = tmp_path / "verdicts.tsv"
    verdicts.write_text("fakepkg/fakepkg/sampling.py:6\tprng-key-reuse\tmaybe\twho knows\n", encoding="utf-8")
    proc = _run_realcode(fake_package, verdicts)
    assert proc.returncode == 2
    assert "verdict must be `true` or `false`" in proc.stderr


def test_realcode_unpacks_a_cached_archive_whole_even_over_a_half_finished_folder(tmp_path: Path):
    """`fetch` of an archive already in the cache: the source folder comes out whole and marked complete, also
    where an earlier unpacking stopped half-way (a folder with a stray file and no `.complete`), and no temporary
    folder is left beside it."""
    import tarfile

    sys.path.insert(0, str(BENCH))
    try:
        import realcode
    finally:
        sys.path.remove(str(BENCH))
    made = tmp_path / "made" / "fakepkg-1.0"
    (made / "fakepkg").mkdir(parents=True)
    (made / "fakepkg" / "sampling.py").write_text(KEY_REUSE_MODULE, encoding="utf-8")
    cache = tmp_path / "cache"
    (cache / "archives").mkdir(parents=True)
    with tarfile.open(cache / "archives" / "fakepkg-1.0.tar.gz", "w:gz") as tar:
        tar.add(made, arcname="fakepkg-1.0")
    stale = cache / "src" / "fakepkg-1.0"
    stale.mkdir(parents=True)
    (stale / "half.py").write_text("x = 1\n", encoding="utf-8")
    folder = realcode.fetch("fakepkg", "1.0", True, cache)
    assert folder == stale and (folder / ".complete").is_file()
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.py")) == ["fakepkg/sampling.py"]
    assert realcode.fetch("fakepkg", "1.0", True, cache) == folder  # the second time: as it is
    assert [p.name for p in (cache / "src").iterdir()] == ["fakepkg-1.0"]


def test_realcode_verdicts_file_is_well_formed():
    sys.path.insert(0, str(BENCH))
    try:
        import realcode
    finally:
        sys.path.remove(str(BENCH))
    verdicts = realcode.read_verdicts(REALCODE_VERDICTS)
    assert verdicts, "tests/corpus/realcode/verdicts.tsv is empty"
    for (location, rule), v in verdicts.items():
        assert rule in RULES, f"{location}: unknown rule {rule!r}"
        assert location.split("/", 1)[0] in realcode.PACKAGES, f"{location}: not a pinned package"
        assert "\t" not in v.reason and len(v.reason) <= 240, f"{location}: reason too long or has a tab"
