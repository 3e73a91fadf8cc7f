"""The sharpbits pytest plugin (registered as the `pytest11` entry point `sharpbits`): `pytest --sharpbits` (or
`pytest -p sharpbits --sharpbits` where plugin autoloading is off) runs the tests with the runtime agent and
reports its findings in a "sharpbits" section after the tests, with `check`'s codes and formats.

Inert without `--sharpbits`: nothing is imported or patched. Everything is counted within each test: a test starts
with no key consumed, and a function's compiles and a line's implicit transfers are counted per test, so that the
parameterized cases of a test, each compiling a function once for its own shapes or asserting once, do not add up
to a finding. A finding names the tests it was seen in (a recompile also its count in each).
"""

from __future__ import annotations

import sys
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sharpbits", "sharpbits runtime checks")
    group.addoption("--sharpbits", action="store_true", default=False,
                    help="run the tests with sharpbits' runtime checks (recompiles, key reuse, NaN origin, "
                         "tracer leaks, implicit transfers) and report them after the tests")
    group.addoption("--sharpbits-format", choices=["text", "json", "sarif", "github"], default="text",
                    help="sharpbits report format (default: text)")
    group.addoption("--sharpbits-output", default=None, metavar="FILE",
                    help="write the sharpbits report to FILE instead of the terminal")
    group.addoption("--sharpbits-threshold", type=int, default=3, metavar="N",
                    help="report a jitted function compiled more than N times (default: 3)")
    group.addoption("--sharpbits-transfer-threshold", type=int, default=10, metavar="N",
                    help="report an implicit transfer seen N times or more at one line (default: 10)")
    group.addoption("--sharpbits-nans", action="store_true", default=False,
                    help="find where the first NaN/Inf is produced (jax_debug_nans, recording only); slower")
    group.addoption("--sharpbits-leaks", choices=["on", "strict", "off"], default="on",
                    help="tracer leak checks (default: on)")
    group.addoption("--sharpbits-no-static", action="store_true", default=False,
                    help="do not run static analysis on the reported lines")


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("sharpbits"):
        return
    from sharpbits.runtime import agent

    recorder = agent.install(agent.Options({
        "out_dir": None,
        "threshold": max(config.getoption("sharpbits_threshold"), 1),
        "nans": config.getoption("sharpbits_nans"),
        "leaks": config.getoption("sharpbits_leaks"),
        "transfer_threshold": max(config.getoption("sharpbits_transfer_threshold"), 1),
    }))
    config.pluginmanager.register(_SharpbitsSession(config, recorder, agent), "sharpbits-session")


class _SharpbitsSession:
    def __init__(self, config: pytest.Config, recorder: Any, agent: Any) -> None:
        self.config = config
        self.recorder = recorder
        self.agent = agent

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> Any:
        self.agent.begin_test(item.nodeid)
        try:
            return (yield)
        finally:
            self.agent.end_test()

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        from sharpbits.runtime.report import findings_from_records, write_report

        findings, notes = findings_from_records(self.recorder.reported(),
                                                static=not self.config.getoption("sharpbits_no_static"))
        fmt = self.config.getoption("sharpbits_format")
        output = self.config.getoption("sharpbits_output")
        if output:
            with open(output, "w", encoding="utf-8") as out:
                write_report(out, findings, fmt, notes, programs="tests")
            terminalreporter.write_sep("-", f"sharpbits: {len(findings)} runtime findings written to {output}")
            return
        terminalreporter.write_sep("-", "sharpbits runtime findings")
        terminalreporter.flush() if hasattr(terminalreporter, "flush") else None
        write_report(_Writer(terminalreporter), findings, fmt, notes, programs="tests")


class _Writer:
    """A text stream over pytest's terminal writer (so -q, colours and capture behave as pytest's own output)."""

    def __init__(self, terminalreporter: Any) -> None:
        self._tr = terminalreporter

    def write(self, text: str) -> int:
        self._tr.write(text)
        return len(text)

    def flush(self) -> None:
        sys.stdout.flush()
