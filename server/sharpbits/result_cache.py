"""The CLI's cache of per-file results, and the plain form findings take between processes.

A `.py` file's findings depend on its bytes, the path it is reported under, the rules selected for it (and their
severities), whether fixes are wanted (JSON output carries them), and the code of sharpbits itself. The cache
key hashes all of these; the code of sharpbits is hashed from the bytes of every module of the installed
package (plus its version and the Python version, whose `ast` the analysis reads), so a changed rule, a new
rule, or another release never reads an entry written by another one: it lives in another folder.

Where: `$SHARPBITS_CACHE_DIR`, else `$XDG_CACHE_HOME/sharpbits`, else `~/.cache/sharpbits` (the user's cache,
never the checked project: a folder someone else wrote cannot plant results). Entries are JSON (never pickle),
one file per result, written to a new file of its own (random name, O_EXCL | O_NOFOLLOW) and renamed, so
concurrent runs never read half an entry and nothing planted in the folder redirects a write. A cache folder
inside what `check` looks at is not used at all (the repository could ship entries that say its files are clean).
`sharpbits check --no-cache` neither reads nor writes it; deleting the folder is always safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from sharpbits import __version__
from sharpbits.analysis.engine import Selection
from sharpbits.findings import Finding, Fix, TextEdit

_fingerprint: str | None = None


def code_fingerprint() -> str:
    """A hash of sharpbits' own code (every module's bytes), its version and the Python version."""
    global _fingerprint
    if _fingerprint is None:
        # the rules' links are read from SHARPBITS_DOCS_URL as findings are made: another address, another entry
        docs = os.environ.get("SHARPBITS_DOCS_URL", "")
        digest = hashlib.sha256(f"{__version__}\0{sys.version}\0{docs}\0".encode())
        package = Path(__file__).resolve().parent
        for module in sorted(package.rglob("*.py")):
            digest.update(module.relative_to(package).as_posix().encode() + b"\0")
            digest.update(module.read_bytes() + b"\0")
        _fingerprint = digest.hexdigest()[:24]
    return _fingerprint


def default_cache_dir() -> Path:
    if os.environ.get("SHARPBITS_CACHE_DIR"):
        return Path(os.environ["SHARPBITS_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sharpbits"


def selection_key(selection: Selection) -> str:
    select = sorted(selection.select) if selection.select is not None else None
    target = [selection.target.major, selection.target.minor, selection.target.source] if selection.target else None
    return json.dumps([select, sorted(selection.ignore), sorted(selection.severities.items()), target])


def _fixable_marker() -> Fix | None:  # a finding read back knows it has a fix; the fix itself was stored
    return None


def finding_to_plain(finding: Finding, with_fix: bool) -> dict[str, Any]:
    plain = finding.to_json(with_fix=with_fix)
    plain.update(fixable=finding.fixable, fix_title=finding.fix_title, with_fix=with_fix)
    if finding.file_line is not None:  # a notebook's: where the cell's lines are in the .ipynb file
        plain.update(file_line=finding.file_line, file_end_line=finding.file_end_line)
    return plain


def finding_from_plain(plain: dict[str, Any]) -> Finding:
    finding = Finding(
        path=plain["path"], line=plain["line"], column=plain["column"], end_line=plain["end_line"],
        end_column=plain["end_column"], code=plain["code"], rule=plain["rule"], severity=plain["severity"],
        message=plain["message"], url=plain["url"], cell=plain["cell"], fix_title=plain["fix_title"],
        fix_builder=_fixable_marker if plain["fixable"] else None,
        file_line=plain.get("file_line"), file_end_line=plain.get("file_end_line"),
    )
    if plain["with_fix"]:  # the fix as built (and checked to re-parse) when the result was computed
        fix = plain["fix"]
        finding._fix = None if fix is None else Fix(fix["safe"], fix["description"],
                                                    tuple(TextEdit(**edit) for edit in fix["edits"]))
        finding._fix_built = True
    return finding


class ResultCache:
    """Per-file results under `folder/<code fingerprint>/`; every failure to read or write is a miss."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / code_fingerprint()

    @staticmethod
    def key(data: bytes, path: str, selection: Selection, with_fixes: bool) -> str:
        digest = hashlib.sha256(data)
        digest.update(f"\0{path}\0{selection_key(selection)}\0{with_fixes}".encode())
        return digest.hexdigest()

    def get(self, key: str) -> list[dict[str, Any]] | None:
        try:
            # never through a symlink someone planted in a shared cache folder
            fd = os.open(self.folder / key[:2] / key, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, encoding="utf-8") as handle:
                entry = json.load(handle)
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("findings"), list):
            return None
        return entry["findings"]

    def put(self, key: str, findings: list[dict[str, Any]]) -> None:
        """Writes the entry to a new file of its own (an unpredictable name, created with O_EXCL and O_NOFOLLOW:
        nothing planted at a name can redirect the write) and renames it into place."""
        import tempfile

        target = self.folder / key[:2] / key
        temporary = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, temporary = tempfile.mkstemp(prefix=f".{key}.", suffix=".tmp", dir=target.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({"key": key, "findings": findings}, handle, ensure_ascii=False)
            os.replace(temporary, target)
        except OSError:
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
