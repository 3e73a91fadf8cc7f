"""A finding as an LSP diagnostic: the one conversion, used where diagnostics are published and where code
actions name the diagnostic they fix; and where a rule's documentation is linked from (`docs_link`).

The message is the finding's alone: the editor shows the source and code beside it (`sharpbits(SB201)`), so no
`[rule]` suffix. The code's link goes to `sharpbits.docsUrl` when it is set, else to the rule page of the
installed version (the one shipped with the extension), written once into the user's cache folder from the rule
itself (`Rule.documentation`, the text `python -m sharpbits.docs` publishes).
"""

from __future__ import annotations

from lsprotocol import types

from sharpbits.findings import Finding
from sharpbits.lsp.positions import ClientColumns
from sharpbits.lsp.rule_pages import docs_link as docs_link
from sharpbits.lsp.rule_pages import rule_page_uri as rule_page_uri
from sharpbits.lsp.settings import EditorSettings

SOURCE = "sharpbits"
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


def to_diagnostic(f: Finding, columns: ClientColumns, settings: EditorSettings | None = None) -> types.Diagnostic:
    href = docs_link(f, settings)
    return types.Diagnostic(
        range=columns.range(f),
        severity=SEVERITY[f.severity],
        code=f.code,
        code_description=types.CodeDescription(href=href) if href else None,
        source=SOURCE,
        message=f.message,
        data={"rule": f.rule, "fixable": f.fixable},
    )
