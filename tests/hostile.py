"""A hostile folder for tests: a module for each name given, each writing a marker file when imported."""

from __future__ import annotations

import sys
from pathlib import Path

# What the server, the CLI and the worker import besides the standard library.
DEPENDENCIES = ("pygls", "lsprotocol", "cattrs", "attrs", "attr", "libcst", "typing_extensions", "tomli", "yaml",
                "jax", "jaxlib", "numpy", "ml_dtypes", "opt_einsum", "scipy", "sharpbits")


def every_module_name() -> set[str]:
    return set(sys.stdlib_module_names) | set(DEPENDENCIES)


def plant(folder: Path, markers: Path, names: set[str] | list[str]) -> None:
    """Writes NAME.py into `folder` for each name; importing it creates `markers`/NAME."""
    folder.mkdir(parents=True, exist_ok=True)
    markers.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / f"{name}.py").write_text(f"open({str(markers / name)!r}, 'w').close()\n")


def written(markers: Path) -> list[str]:
    return sorted(p.name for p in markers.iterdir())
