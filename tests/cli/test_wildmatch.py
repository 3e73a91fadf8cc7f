"""The .gitignore matcher (sharpbits.wildmatch) says what git says, on every pattern shape git documents and on
the ones a hostile repository writes, and answers at once where a backtracking matcher needs hours."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest
from sharpbits.wildmatch import IgnoreSpec

PATTERNS = [
    "*.py", "a.py", "/a.py", "sub/", "sub", "/sub/", "sub/*.py", "**/deep.py", "sub/**", "sub/**/x.py", "**/sub",
    "a?.py", "[ab].py", "[!a]*.py", "[^a]*.py", "[a-c]*.py", "[z-a].py", "[[:digit:]]*.py", "[]x].py", "x[!]].py",
    "*", "**", "**/", "sub/**/", "d*/", "*.py\n!keep.py", "sub/\n!sub/keep.py", "\\#hash.py", "\\!bang.py",
    "trailing.py   ", "escaped\\ .py", "a/**/b/**/c.py", "**/**/deep.py", "a**b.py", "s*/*/x.py", "sub//x.py",
    "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", "nested/sub/", "/nested/*", "?", "*/", "#comment", "",
]

PATHS = [
    "a.py", "ab.py", "b.py", "c.py", "1x.py", "x.py", "]x.py", "x].py", "xa.py", "keep.py", "#hash.py", "!bang.py",
    "trailing.py", "escaped .py", "aXYb.py", "ab", "d1/", "d1/x.py", "sub/", "sub/x.py", "sub/keep.py", "sub/y/x.py",
    "sub/y/", "sub/y/z/deep.py", "deep.py", "nested/", "nested/sub/", "nested/sub/x.py", "nested/a.py",
    "nested/deep.py", "a/", "a/b/", "a/b/c.py", "a/x/b/y/c.py", "a/b/c/", "a" * 40, "a" * 14 + "b",
]


def git_ignored(tmp_path, pattern: str) -> set[str]:
    repo = tmp_path / "repo"
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".gitignore").write_text(pattern + "\n")
    for path in PATHS:
        target = repo / path
        if path.endswith("/"):
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("")
    paths = [p.rstrip("/") for p in PATHS]
    out = subprocess.run(["git", "-c", "core.ignorecase=false", "check-ignore", "--stdin", "-z"], cwd=repo,
                         input="\0".join(paths) + "\0", capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stderr
    return {p for p in out.stdout.split("\0") if p}


def ours_ignored(pattern: str) -> set[str]:
    """What a walk that stops at ignored folders never reaches, or reaches and skips."""
    spec = IgnoreSpec(pattern.split("\n"))
    ignored = set()
    for path in PATHS:
        names = path.rstrip("/").split("/")
        for depth in range(1, len(names) + 1):
            is_dir = depth < len(names) or path.endswith("/")
            if spec.verdict("/".join(names[:depth]), is_dir):
                ignored.add(path.rstrip("/"))
                break
    return ignored


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git to compare with")
@pytest.mark.parametrize("pattern", PATTERNS, ids=[repr(p) for p in PATTERNS])
def test_the_matcher_agrees_with_git(tmp_path, pattern):
    assert ours_ignored(pattern) == git_ignored(tmp_path, pattern)


def test_patterns_git_never_matches_are_problems_not_errors():
    spec = IgnoreSpec(["ok.py", "[", "bad\\", "[[:nope:]]", "[z-a]", "x"])
    assert [number for number, _ in spec.problems] == [2, 3, 4]
    assert "can never match" in spec.problems[0][1]
    assert spec.verdict("ok.py", False) and spec.verdict("x", False) and spec.verdict("[", False) is None


def test_a_backtracking_pattern_is_matched_at_once():
    """20 stars against 60 `a`s: a regular-expression backtracker would take longer than the universe; the
    whole loop here takes milliseconds (measured in one run; no time is asserted beyond "finished")."""
    spec = IgnoreSpec(["*a" * 20 + "*b", "**/" + "*a" * 20 + "*b/**/c"])
    start = time.perf_counter()
    for length in range(1, 61):
        assert spec.verdict("a" * length, False) is None
        assert spec.verdict("/".join(["a" * length] * 8) + "/c", False) is None
    assert spec.verdict("a" * 20 + "b", False) is True
    print(f"120 matches in {time.perf_counter() - start:.3f} s")
