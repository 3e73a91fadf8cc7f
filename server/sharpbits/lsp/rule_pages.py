"""Where a rule's documentation is linked from a diagnostic (`docs_link`): `sharpbits.docsUrl` when it is set, else
the rule page of the installed version, written once into the user's cache folder from the rule itself
(`Rule.documentation`). Standard library only (lsp/early.py links the first document's diagnostics before
lsprotocol is imported); lsp/finding_diagnostic.py is the conversion that uses it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from sharpbits import __version__
from sharpbits.analysis.rules import lookup
from sharpbits.findings import Finding
from sharpbits.result_cache import default_cache_dir

if TYPE_CHECKING:
    from sharpbits.lsp.settings import EditorSettings

_written: dict[str, str | None] = {}  # rule name -> the file URI of its page (None: it could not be written)


def rule_page_uri(name: str) -> str | None:
    """The file URI of the rule's page for the installed version, written (atomically) the first time it is asked
    for in this process; None for no such rule or a cache folder that cannot be written."""
    if name in _written:
        return _written[name]
    rule = lookup(name)
    uri: str | None = None
    if rule is not None and rule.name == name:
        folder = default_cache_dir() / "rule-docs" / __version__
        page = folder / f"{name}.md"
        text = rule.documentation()
        with contextlib.suppress(OSError):
            if not page.is_file() or page.is_symlink() or page.read_text(encoding="utf-8") != text:
                folder.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".md")
                try:
                    with os.fdopen(fd, "w", encoding="utf-8") as fh:
                        fh.write(text)
                    os.replace(tmp, page)  # replaces a planted symlink itself, never writes through it
                finally:
                    with contextlib.suppress(OSError):
                        Path(tmp).unlink()
            uri = page.resolve().as_uri()
    _written[name] = uri
    return uri


def docs_link(f: Finding, settings: EditorSettings | None) -> str | None:
    """Where the finding's rule is documented: `sharpbits.docsUrl` (`{name}`, `{code}` filled in, or the page name
    added), else the installed version's page. None for a finding of no rule (a syntax error)."""
    rule = lookup(f.rule)
    if rule is None or rule.name != f.rule:
        return None
    base = settings.docs_url if settings is not None else None
    if base:
        if "{name}" in base or "{code}" in base:
            return base.replace("{name}", rule.name).replace("{code}", rule.code)
        return f"{base.rstrip('/')}/{rule.name}.md"
    return rule_page_uri(rule.name)
