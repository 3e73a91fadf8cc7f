from pathlib import Path

from sharpbits.docs import render_pages

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


def test_committed_rule_docs_match_the_rules():
    pages = render_pages()
    stale = [name for name, text in pages.items() if not (DOCS / name).is_file() or (DOCS / name).read_text() != text]
    assert not stale, f"docs/rules is out of date for {stale}: run `.venv/bin/python -m sharpbits.docs`"
    extra = sorted(p.name for p in DOCS.glob("*.md") if p.name not in pages)
    assert not extra, f"docs/rules has pages for rules that no longer exist: {extra}"
