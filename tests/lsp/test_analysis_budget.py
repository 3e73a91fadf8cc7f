"""The analysis budget (issue 24, item 5): an analysis that overruns it is stopped for real, in a real server over
stdio. A rule made to spin forever (engine.STALL_RULE, fault injection for these tests) stands for a pathological
file: the analysis leaves its thread, runs in a child process that is killed at `analysisBudgetMs`, and the
document shows the other rules' findings with a line-1 notice naming the stopped rule; other documents are served
meanwhile; the child runs nothing of the workspace."""

import asyncio
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from sharpbits.analysis.engine import STALL_MARK, Selection, analyze
from sharpbits.lsp.analysis_process import IsolatedRun, Stopped, ThreadStop

from .raw_client import RawClient

HOSTILE = '''import jax
import jax.numpy as jnp
x = jnp.zeros(3)
x[0] = 1


@jax.jit
def f(y):
    print(y)
    return y


def g(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))
    return a + b
'''
SMALL = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1\n"
# a module of the workspace that any Python started there with its working directory on sys.path would import
WORKSPACE_TRAP = "import pathlib\npathlib.Path(__file__).with_name('RAN').write_text('workspace code ran')\n"


def codes(diagnostics):
    return sorted(d["code"] for d in diagnostics)


@pytest.fixture
def stalled(tmp_path, monkeypatch):
    for name in ("json.py", "ast.py", "sharpbits.py", "sitecustomize.py"):
        (tmp_path / name).write_text(WORKSPACE_TRAP)
    monkeypatch.setenv("SHARPBITS_DEBUG_STALL_RULE", "prng-key-reuse")
    client = RawClient(cwd=tmp_path)
    yield client
    client.close()


def test_a_stuck_rule_is_stopped_at_the_budget_and_the_rest_is_shown(stalled, tmp_path):
    stalled.initialize({"analysisBudgetMs": 1500})
    hostile, small = (tmp_path / "hostile.py").as_uri(), (tmp_path / "small.py").as_uri()
    stalled.open(hostile, HOSTILE + STALL_MARK + "\n")
    stalled.open(small, SMALL)  # another document is served while the hostile one spins
    assert codes(stalled.published(small, 1, timeout=60)) == ["SB101"]

    shown = stalled.published(hostile, 1, timeout=120)
    assert codes(shown) == ["SB101", "SB402", "stopped"], shown  # prng-key-reuse's SB201 is what was stopped
    (notice,) = [d for d in shown if d["code"] == "stopped"]
    assert "rule prng-key-reuse did not finish" in notice["message"] and "analysisBudgetMs" in notice["message"]
    log = stalled.wait_for(lambda m: isinstance(m, dict) and m.get("method") == "window/logMessage"
                           and "stopped at its budget" in m["params"]["message"], 10, "the log line")
    assert hostile in log["params"]["message"] and "prng-key-reuse" in log["params"]["message"]

    stalled.change(hostile, HOSTILE + "y = 2\n" + STALL_MARK + "\n", 2)  # still stuck: straight to a child
    assert codes(stalled.published(hostile, 2, timeout=120)) == ["SB101", "SB402", "stopped"]
    stalled.change(hostile, HOSTILE, 3)  # the stuck part gone: every rule finishes, nothing is stopped
    assert codes(stalled.published(hostile, 3, timeout=120)) == ["SB101", "SB201", "SB402"]
    stalled.change(small, SMALL + "x[1] = 2\n", 2)
    assert codes(stalled.published(small, 2, timeout=60)) == ["SB101", "SB101"]
    stalled.still_serving()
    assert not (tmp_path / "RAN").exists()  # neither the server nor its children ran the workspace's modules


def code_actions(client, uri, line, only=None):
    context = {"diagnostics": [], **({"only": only} if only else {})}
    reply = client.call("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "context": context,
        "range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}}, timeout=120)
    return {a["title"]: a for a in reply["result"] or []}


def edits_of(action):
    (change,) = action["edit"]["documentChanges"]
    return [(e["range"]["start"]["line"], e["range"]["start"]["character"], e["newText"]) for e in change["edits"]]


def test_findings_from_a_child_process_have_their_quick_fixes(stalled, tmp_path):
    """A document analysed in child processes (a rule stopped at the budget) offers every quick fix a document
    analysed in-thread offers: the finding's fix, "Disable for this line", fix-all (the client does not resolve:
    edits come with the actions)."""
    stalled.initialize({"analysisBudgetMs": 1500})
    hostile = (tmp_path / "hostile.py").as_uri()
    stalled.open(hostile, HOSTILE + STALL_MARK + "\n")
    assert codes(stalled.published(hostile, 1, timeout=120)) == ["SB101", "SB402", "stopped"]

    actions = code_actions(stalled, hostile, 3)  # x[0] = 1
    assert sorted(actions) == ["Fix all safe sharpbits problems", "sharpbits (SB101): Disable for this line",
                               "sharpbits (SB101): Use `x = x.at[0].set(...)`"], actions
    fix = actions["sharpbits (SB101): Use `x = x.at[0].set(...)`"]
    assert fix["isPreferred"] and edits_of(fix) == [(3, 0, "x = x.at[0].set(1)")]
    assert edits_of(actions["sharpbits (SB101): Disable for this line"]) == [(3, 8, "  # noqa: SB101")]
    assert edits_of(actions["Fix all safe sharpbits problems"]) == [
        (3, 0, "x = x.at[0].set(1)"), (8, 4, "jax.debug.print('{}', y)")]
    (fix_all,) = code_actions(stalled, hostile, 0, only=["source.fixAll.sharpbits"]).values()
    assert edits_of(fix_all) == edits_of(actions["Fix all safe sharpbits problems"])
    stalled.still_serving()


def test_a_quick_fix_waiting_for_its_child_holds_no_analysis_thread(tmp_path, monkeypatch):
    """Two code actions wait for a fix child that spins until the budget kills it (SHARPBITS_DEBUG_STALL_FIXES);
    a document opened meanwhile is published before they are answered: they wait in the fix pool, not in the two
    analysis threads (there they held both, and the document waited for the budget)."""
    monkeypatch.setenv("SHARPBITS_DEBUG_STALL_RULE", "prng-key-reuse")
    monkeypatch.setenv("SHARPBITS_DEBUG_STALL_FIXES", "1")
    client = RawClient(cwd=tmp_path)
    try:
        client.initialize({"analysisBudgetMs": 10_000, "analysisTimeoutMs": 600_000})
        hostile, small = (tmp_path / "hostile.py").as_uri(), (tmp_path / "small.py").as_uri()
        client.open(hostile, HOSTILE + STALL_MARK + "\n")
        assert codes(client.published(hostile, 1, timeout=120)) == ["SB101", "SB402", "stopped"]
        asked = [client.request("textDocument/codeAction", {
            "textDocument": {"uri": hostile}, "context": {"diagnostics": []},
            "range": {"start": {"line": line, "character": at}, "end": {"line": line, "character": at}}})
            for line, at in ((3, 0), (8, 6))]  # x[0] = 1; print(y)
        client.open(small, SMALL)
        assert codes(client.published(small, 1, timeout=60)) == ["SB101"]
        assert not [m for m in client.seen if isinstance(m, dict) and m.get("id") in asked]  # still waiting
        for msg_id in asked:  # the fix child is killed at the budget: no fix, the other actions as usual
            titles = sorted(a["title"] for a in client.response(msg_id, timeout=120)["result"])
            assert titles and all("Disable for this line" in t or "Fix all" in t for t in titles), titles
        client.still_serving()
    finally:
        client.close()


def children_of(pid):
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(p) for p in (task / "children").read_text().split()]
    return out


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def running(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def wait_until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not {what} within {timeout} s"
        time.sleep(0.05)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_a_child_ends_when_the_server_that_started_it_is_killed(stalled, tmp_path):
    stalled.initialize({"analysisBudgetMs": 3_600_000, "analysisTimeoutMs": 600_000})
    stalled.open((tmp_path / "hostile.py").as_uri(), HOSTILE + STALL_MARK + "\n")
    wait_until(lambda: children_of(stalled.proc.pid), 120, "moved to a child process")  # after the in-thread limit
    (child,) = children_of(stalled.proc.pid)
    # spinning on the rule: its import costs well under a second of CPU, and a child killed before it read its
    # request would end by itself
    wait_until(lambda: cpu_seconds(child) > 3, 180, "spinning")
    stalled.proc.kill()  # as a crash or `kill -9` would: nothing of the server kills the child now
    stalled.proc.wait()
    try:
        wait_until(lambda: not running(child), 60, "ended")
    finally:
        if running(child):
            os.kill(child, signal.SIGKILL)  # (without the fix it spins for ever)


def summary(result):
    """Everything a result shows, fixes included (a child's are built in another child, on demand)."""
    return ([(f.to_json(), f.fix_title, f.fixable) for f in result.findings],
            result.syntax_error.to_json(with_fix=False) if result.syntax_error else None, result.functions)


@pytest.mark.parametrize("text", [HOSTILE, SMALL, "x = (\n", HOSTILE + "# noqa: SB999\nz = x  # noqa: SB201\n"],
                         ids=["findings", "small", "syntax error", "noqa"])
def test_a_child_that_finishes_gives_what_analyze_gives(text):
    outcome = asyncio.run(IsolatedRun().analyse(text, "m.py", Selection(), 60.0))
    assert not outcome.stopped
    assert summary(outcome.result) == summary(analyze(text, "m.py"))


def test_a_childs_fixes_are_built_in_one_child_for_the_whole_text():
    outcome = asyncio.run(IsolatedRun().analyse(HOSTILE, "m.py", Selection(), 60.0))
    expected = [f.fix() for f in analyze(HOSTILE, "m.py").findings]
    assert sum(fix is not None for fix in expected) >= 2
    assert outcome.fixes is not None and outcome.fixes.children == 0  # nothing built before it is asked for
    assert [f.fix() for f in outcome.result.findings[::-1]][::-1] == expected  # the last one asked for first
    assert outcome.fixes.children == 1  # ... and the others came with it


def test_a_notebook_programs_timed_regions_reach_the_child():
    from sharpbits.notebooks import build_program

    program = build_program([(0, "import jax\nkey = jax.random.key(0)"),
                             (1, "%timeit jax.random.normal(key, (3,))\ny = jax.random.uniform(key)")])
    assert program.timed_regions
    outcome = asyncio.run(IsolatedRun().analyse(program.text, "n.ipynb", Selection(), 60.0,
                                                program.timed_regions))
    expected = analyze(program.text, "n.ipynb", timed_regions=program.timed_regions)
    assert summary(outcome.result) == summary(expected)
    assert summary(expected) != summary(analyze(program.text, "n.ipynb"))  # the regions change the findings


def test_a_thread_stop_stops_a_spinning_analysis_and_nothing_after_it():
    stop, entered, outcome = ThreadStop(), threading.Event(), []

    def spin():
        stop.enter()
        try:
            entered.set()
            while True:
                pass
        except Stopped:
            outcome.append("stopped")
        finally:
            stop.leave()
        outcome.append("went on")

    thread = threading.Thread(target=spin)
    thread.start()
    entered.wait(30)
    assert stop.stop()
    thread.join(30)
    assert outcome == ["stopped", "went on"]
    assert not stop.stop()  # left: nothing to stop


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the swallowed stop, as expected
def test_a_stop_swallowed_by_a_finalizer_is_sent_again():
    stop, entered, outcome = ThreadStop(), threading.Event(), []

    class Swallows:
        def __del__(self):
            entered.wait(30)
            while not stop_sent.is_set():
                pass
            for _ in range(1000):  # the stop lands here and is swallowed ("Exception ignored in ...")
                pass

    stop_sent = threading.Event()

    def spin():
        stop.enter()
        try:
            Swallows()  # its finalizer runs at once, in this thread
            while True:
                pass
        except Stopped:
            outcome.append("stopped")
        finally:
            stop.leave()

    thread = threading.Thread(target=spin)
    thread.start()
    entered.set()
    assert stop.stop()
    stop_sent.set()
    thread.join(2)
    while thread.is_alive():  # what the server does every 0.5 s (language_server._keep_stopping)
        assert stop.stop()
        thread.join(0.5)
    assert outcome == ["stopped"]


def test_a_stop_after_the_analysis_left_is_not_delivered():
    stop, later = ThreadStop(), []

    def work():
        stop.enter()
        stop.leave()
        later.extend(range(100_000))  # would be interrupted if a stop were pending

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(30)
    assert not stop.stop() and len(later) == 100_000
