"""When a newer version abandons the running analysis of a document (SharpbitsServer.may_abandon), decided on the
server object with the clock read as the server reads it. The stdio tests (test_diagnostics.py) type into a real
server; these pin the policy where timing cannot reach it deterministically: an analysis still building its model
when the changes not shown have already waited STARVED_WAIT_FACTOR analysis times. Before, such an analysis was
always abandoned, so where one model took longer than the time between two keys (a loaded machine, a long file) no
analysis ever finished while the user typed."""

import asyncio
import threading
import time

from sharpbits.analysis.engine import AnalysisResult
from sharpbits.lsp.language_server import (
    ABANDON_BEFORE,
    MAX_WAIT_FACTOR,
    STARVED_WAIT_FACTOR,
    IsolatedRun,
    Running,
)
from sharpbits.lsp.server import create_server

URI = "file:///typed.py"


def running(started: float, in_rules: bool, isolated: bool = False) -> Running:
    future: asyncio.Future[AnalysisResult] = asyncio.Future(loop=asyncio.new_event_loop())
    run = Running(version=5, future=future, abandon=threading.Event(), started=started)
    if in_rules:
        run.rules.set()
    if isolated:
        run.isolated = IsolatedRun()
    return run


def server_waiting(waited_s: float, took_s: float = 1.0):
    server = create_server()
    server.analysis_seconds[URI] = took_s
    server.unshown[URI] = {4: time.monotonic() - waited_s, 6: time.monotonic()}
    return server


def test_a_model_being_built_is_abandoned_while_the_changes_have_not_waited_long():
    server = server_waiting(waited_s=0.5 * STARVED_WAIT_FACTOR)
    assert server.may_abandon(URI, running(time.monotonic(), in_rules=False))
    # (past the wait that lets running rules finish: a model is abandoned longer, it keeps the next keys waiting)
    assert server_waiting(waited_s=MAX_WAIT_FACTOR + 0.5).may_abandon(URI, running(time.monotonic(), in_rules=False))


def test_a_model_being_built_is_let_finish_once_the_changes_waited_long():
    server = server_waiting(waited_s=STARVED_WAIT_FACTOR + 1.0)
    assert not server.may_abandon(URI, running(time.monotonic(), in_rules=False))


def test_a_run_in_a_child_process_is_let_finish_once_the_changes_waited_long():
    assert not server_waiting(waited_s=STARVED_WAIT_FACTOR + 1.0).may_abandon(
        URI, running(time.monotonic(), in_rules=True, isolated=True))
    assert server_waiting(waited_s=0.1).may_abandon(URI, running(time.monotonic(), in_rules=True, isolated=True))


def test_rules_past_half_their_time_are_let_finish_and_early_ones_abandoned():
    server = server_waiting(waited_s=0.1)
    assert not server.may_abandon(URI, running(time.monotonic() - ABANDON_BEFORE - 0.3, in_rules=True))
    assert server.may_abandon(URI, running(time.monotonic(), in_rules=True))
    assert not server_waiting(waited_s=MAX_WAIT_FACTOR + 0.5).may_abandon(URI, running(time.monotonic(), in_rules=True))


def test_the_first_analysis_of_a_document_is_always_abandoned():
    server = create_server()
    server.unshown[URI] = {4: time.monotonic() - 100.0}
    assert server.may_abandon(URI, running(time.monotonic(), in_rules=False))
