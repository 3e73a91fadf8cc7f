"""One warm worker for the whole trace suite (start-up and `import jax` are paid once), plus helpers."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
from sharpbits.trace import protocol, schema
from sharpbits.trace.cli import USER_PHASES
from sharpbits.trace.client import TraceClient, WorkerConfig
from sharpbits.trace.specs import parse_spec

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def jax_cache(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("jax-cache"))


@pytest.fixture(scope="session")
def client(jax_cache):
    c = TraceClient(WorkerConfig(cache_dir=jax_cache))
    c.start(background=True)
    yield c
    c.stop()


class Doc:
    """A document in its own folder; `trace` sends `text` (maybe different from what is on disk)."""

    def __init__(self, folder: Path, source: str, name: str = "doc.py"):
        self.folder = folder
        self.path = folder / name
        self.text = textwrap.dedent(source).lstrip("\n")
        self.path.write_text(self.text)

    def line_of(self, needle: str) -> int:
        for i, ln in enumerate(self.text.splitlines(), 1):
            if needle in ln:
                return i
        raise AssertionError(f"{needle!r} not in the document")

    def trace(self, client: TraceClient, function: str, spec: str = "", show=None, timeout: float = 60.0,
              text: str | None = None, **kw):
        result = client.trace(path=str(self.path), text=self.text if text is None else text, function=function,
                              spec=parse_spec(spec), show=show, timeout=timeout, time_budget_s=kw.pop("budget", 0.2),
                              **kw)
        # every result, a failure too, is the protocol's record; an error the client says has a known type
        assert schema.problems(result, protocol.TraceResult) == []
        error = result.get("error") or {}
        assert result.get("ok") or error.get("phase") in USER_PHASES or error.get("type") in protocol.CLIENT_ERRORS, error
        return result


@pytest.fixture
def make_doc(tmp_path):
    def make(source: str, name: str = "doc.py") -> Doc:
        return Doc(tmp_path, source, name)

    return make


def listing(folder: Path) -> set[str]:
    return {os.path.relpath(os.path.join(d, f), folder) for d, dirs, files in os.walk(folder) for f in files + dirs}
