"""The header of an LSP message (`Content-Length: N\r\n`, other fields, a blank line), read by the two places that
frame messages before pygls is imported: lsp/start.py (the first message) and lsp/early.py (up to the first opened
document). Standard library only: both run before the server's imports."""

from __future__ import annotations

MAX_HEADER = 64 * 1024  # one header line longer than this is no LSP header
MAX_BODY = 64 * 1024 * 1024


def body_length(lines: list[bytes]) -> int | None:
    """The `Content-Length` of a message from its header lines (the blank line not among them); None when it is
    missing, malformed or out of bounds (the message is then left to the server's own framing)."""
    length = None
    for line in lines:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                return None
    return length if length is not None and 0 < length <= MAX_BODY else None
