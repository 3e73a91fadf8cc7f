"""Functional neural-network building blocks: parameters are plain dicts of arrays (pytrees)."""
