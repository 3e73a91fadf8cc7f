"""A finding as an LSP diagnostic: the one conversion, used where diagnostics are published and where code
actions name the diagnostic they fix."""

from __future__ import annotations

from lsprotocol import types

from sharpbits.findings import Finding
from sharpbits.lsp.positions import ClientColumns

SOURCE = "sharpbits"
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


def to_diagnostic(f: Finding, columns: ClientColumns) -> types.Diagnostic:
    return types.Diagnostic(
        range=columns.range(f),
        severity=SEVERITY[f.severity],
        code=f.code,
        code_description=types.CodeDescription(href=f.url) if f.url else None,
        source=SOURCE,
        message=f"{f.message} [{f.rule}]",
        data={"rule": f.rule, "fixable": f.fixable},
    )
