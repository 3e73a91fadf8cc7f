"""Which open documents to analyse again when a module of the project changed (an edit in another open document,
a file changed on disk): those that import it, directly or through other modules of the project.

A document's findings may depend on what other modules of the project show their callers (the project index,
analysis/project_index.py: which parameters a function consumes as a PRNG key, which layers draw nothing, what
turns x64 on at import). What they show is a module's *shape* (`ModuleSummary.shape`): an edit that leaves it
alone (a comment, most of a function's body) changes nothing for the modules that import it. So when a module
changed, this asks the index (in a thread of the server's: it may summarise the module, one parse) for its shape
and compares it with the one seen last; only when it differs (or was never seen) are the open documents whose
imports reach it analysed again. A `conftest.py` can turn x64 on for the tests below it: its change re-analyses
every open document in its folder and below.

Standard library and the analysis's index only (no pygls): the server calls `dependents` off its event loop.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Set
from pathlib import Path

from sharpbits.analysis.project_index import ModuleSummary, ProjectIndex

MAX_MODULES = 500  # a document's imports are followed through at most this many project modules
_UNSEEN = "\0unseen"


class ProjectDependencies:
    """The shapes of the project's modules as last seen by the server (see the module docstring)."""

    def __init__(self) -> None:
        self._shapes: dict[str, str | None] = {}  # module name -> its shape when last looked at (None: no module)
        self._walked: set[str] = set()  # modules of documents whose imports were followed once (their baselines)
        self._lock = threading.Lock()

    def dependents(self, index: ProjectIndex, changed: set[str], documents: Mapping[str, str]) -> list[str]:
        """The documents (uri -> path) to analyse again after the files `changed` (paths) changed."""
        stale: list[str] = []
        changed_names = {index.module_name(p) for p in changed if Path(p).name != "conftest.py"}
        conftest_folders = [Path(p).absolute().parent for p in changed if Path(p).name == "conftest.py"]
        fed = {index.module_name(p) for p in documents.values()} | changed_names  # open: maybe on no disk yet

        def seen(name: str, module: ModuleSummary | None) -> None:
            if name not in changed_names:  # (a changed module's baseline is its shape before the change)
                self._seen(name, module)

        closures = {}
        for uri, path in documents.items():
            if any(_under(path, folder) for folder in conftest_folders):
                stale.append(uri)
                continue
            own = index.module_name(path)
            # A document whose own module is the only one changed reaches no change (a module is not in its own
            # closure). Its closure summarises its new text (the shape of every function: several parses of a
            # long module, in a thread beside the analysis of the next keystroke), so it is walked only the first
            # time, for the baselines of the modules it imports. A module it starts importing while being typed
            # in has none until another document's closure reaches it: its first change then re-analyses the
            # document even when its shape stayed (one analysis more, never one less).
            if changed_names - {own} or own not in self._walked:
                closures[uri] = closure(index, own, fed, seen)
                self._walked.add(own)
        reached = set().union(*closures.values()) & changed_names if closures else set()
        moved = {name for name in reached if self._shape_changed(index, name)}
        stale += [uri for uri, names in closures.items() if names & moved]
        return stale

    def _seen(self, name: str, module: ModuleSummary | None) -> None:
        """A module a document's imports reach, as the index has it now: the baseline for its next change."""
        with self._lock:
            self._shapes.setdefault(name, module.shape() if module is not None else None)

    def _shape_changed(self, index: ProjectIndex, name: str) -> bool:
        module = index.module(name)
        shape = module.shape() if module is not None else None
        with self._lock:
            old = self._shapes.get(name, _UNSEEN)
            self._shapes[name] = shape
        return old != shape


def _under(path: str, folder: Path) -> bool:
    try:
        Path(path).absolute().relative_to(folder)
    except ValueError:
        return False
    return True


def closure(index: ProjectIndex, name: str, fed: Set[str] = frozenset(),
            seen: Callable[[str, ModuleSummary | None], None] | None = None) -> set[str]:
    """The modules of the project (never an installed package) that the module `name` imports, directly or
    through other modules of the project, itself excluded. `fed`: module names fed to the index (open documents,
    whose file may not be on disk yet). `seen(name, summary)` is told each one's summary."""
    found: set[str] = set()
    work = [name]
    visited = {name}
    while work and len(found) < MAX_MODULES:
        module = index.module(work.pop())
        if module is None or module.installed:
            continue
        for qualified in module.imports.values():
            parts = qualified.split(".")
            for end in range(1, len(parts) + 1):  # `pkg.sub.f`: pkg (its __init__ runs), pkg.sub, ...
                candidate = ".".join(parts[:end])
                if candidate in visited:
                    continue
                visited.add(candidate)
                if candidate not in fed and not _on_roots(index, candidate):
                    break  # not a module of the project (an installed package, a name inside a module)
                summary = index.module(candidate)
                if summary is None or summary.installed:
                    if candidate in fed:
                        found.add(candidate)  # (a changed module that is gone: what it showed is gone too)
                    break
                if seen is not None:
                    seen(candidate, summary)
                found.add(candidate)
                work.append(candidate)
    found.discard(name)
    return found


def _on_roots(index: ProjectIndex, name: str) -> bool:
    """Whether `name` is a module file (or package) on the project's roots: asked before the index is, so that
    a document's imports of installed packages never make the index read them."""
    if not name or not all(part.isidentifier() for part in name.split(".")):
        return False
    relative = Path(*name.split("."))
    return any((root / relative).with_suffix(".py").is_file() or (root / relative / "__init__.py").is_file()
               for root in list(index.roots))
