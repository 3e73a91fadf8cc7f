"""Code rewrites behind the quick fixes. They use libcst, which keeps comments and formatting, and are imported
only when a fix is actually computed (never on the per-keystroke path)."""
