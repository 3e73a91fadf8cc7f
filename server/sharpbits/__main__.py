"""`python -m sharpbits`. Python put the working directory first on sys.path for `-m`: in a repository that holds
its own json.py, enum.py, typing_extensions.py ..., the imports below would run that code. So the working
directory leaves sys.path before anything else is imported (`sys` and `os` are loaded already by then).

This cannot cover what Python imports before this file runs (runpy and its importlib, sharpbits itself), so
run the `sharpbits` console script, whose sys.path starts at its own bin folder, or `python -I -m sharpbits`;
the editor extension starts the server with `-E -P` (or a neutral working directory) for the same reason.
"""

import os
import sys


def _drop_working_directory(path: list[str]) -> None:
    try:
        cwd = os.getcwd()
    except OSError:  # the working directory was deleted: only the relative spellings can name it
        cwd = None
    kept = []
    for entry in path:
        if entry in ("", ".") or (cwd is not None and os.path.abspath(entry) == cwd):
            continue
        kept.append(entry)
    path[:] = kept


_drop_working_directory(sys.path)

from sharpbits.cli import main  # noqa: E402 - only after the working directory is off sys.path

raise SystemExit(main())
