"""`sharpbits serve` driven over stdio by a client that breaks the rules (raw bytes, not pytest-lsp): every request
gets a result or a proper JSON-RPC error, the stream resynchronises after broken framing, the lifecycle is
enforced, and after each abuse the server still serves."""

import json

import pytest

from .raw_client import RawClient, frame

BAD = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1\n"


@pytest.fixture
def raw(tmp_path):
    client = RawClient(cwd=tmp_path)
    yield client
    client.close()


@pytest.fixture
def ready(raw):
    raw.initialize()
    return raw


def error_code(reply):
    assert "error" in reply, reply
    return reply["error"]["code"]


# ---- lifecycle ---------------------------------------------------------------------------------------------


def test_requests_before_initialize_get_server_not_initialized(raw, tmp_path):
    uri = (tmp_path / "early.py").as_uri()
    raw.open(uri, BAD)  # a notification before initialize is dropped
    reply = raw.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
    assert error_code(reply) == -32002
    assert error_code(raw.call("sharpbits/serverStats", {})) == -32002
    raw.initialize()
    raw.still_serving()
    assert error_code(raw.call("initialize", {"capabilities": {}})) == -32600  # only once


def test_after_shutdown_only_exit_does_anything(ready, tmp_path):
    uri = (tmp_path / "late.py").as_uri()
    assert ready.call("shutdown") == {"jsonrpc": "2.0", "id": ready.next_id, "result": None}
    ready.open(uri, BAD)
    reply = ready.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 0}})
    assert error_code(reply) == -32600 and "shut down" in reply["error"]["message"]
    ready.notify("exit")
    assert ready.exit_code() == 0
    ready.reader.join(10)  # the reader has seen everything the server wrote before it exited
    assert not ready.reader.is_alive()
    leftovers = ready.seen + [ready.messages.get() for _ in range(ready.messages.qsize())]
    assert not [m for m in leftovers if m.get("method") == "textDocument/publishDiagnostics"], leftovers


def test_exit_without_shutdown_exits_with_1(ready):
    ready.notify("exit")
    assert ready.exit_code() == 1


def test_shutdown_then_exit_exits_with_0(ready):
    assert "result" in ready.call("shutdown")
    ready.notify("exit")
    assert ready.exit_code() == 0


# ---- JSON and JSON-RPC shape -------------------------------------------------------------------------------


@pytest.mark.parametrize("body", [b"{not json", b'{"jsonrpc": "2.0", "id": 1, "method": ', b"\xff\xfe\x00garbage", b"",
                                  b"[" * 200_000], ids=["not json", "cut", "not utf-8", "empty", "deep"])
def test_malformed_json_gets_a_parse_error_and_the_server_goes_on(ready, body):
    ready.send_bytes(frame(body) if body else b"Content-Length: 0\r\n\r\n")
    if body:
        reply = ready.wait_for(lambda m: isinstance(m, dict) and m.get("id") is None and "error" in m)
        assert reply["error"]["code"] == -32700
    ready.still_serving()


@pytest.mark.parametrize("message", [5, "hello", None, True, []])
def test_a_message_that_is_not_an_object_gets_invalid_request(ready, message):
    ready.send(message)
    reply = ready.wait_for(lambda m: isinstance(m, dict) and m.get("id") is None and "error" in m)
    assert reply["error"]["code"] == -32600
    ready.still_serving()


@pytest.mark.parametrize("odd_id", [1.5, True, None, {"a": 1}, [1]])
def test_ids_that_are_neither_integer_nor_string_get_invalid_request(ready, odd_id):
    ready.send({"jsonrpc": "2.0", "id": odd_id, "method": "sharpbits/serverStats", "params": {}})
    reply = ready.wait_for(lambda m: isinstance(m, dict) and m.get("id") is None and "error" in m)
    assert reply["error"]["code"] == -32600 and "id" in reply["error"]["message"]
    ready.still_serving()


@pytest.mark.parametrize("good_id", ["", "a string id", 0, -7, 2**70])
def test_unusual_but_valid_ids_are_answered_with_the_same_id(ready, good_id):
    ready.request("sharpbits/serverStats", {}, msg_id=good_id)
    assert "result" in ready.response(good_id)


def test_a_batch_is_answered_request_by_request(ready):
    ready.send([
        {"jsonrpc": "2.0", "id": "b1", "method": "sharpbits/serverStats", "params": {}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": "b2", "method": "no/such/method", "params": {}},
        17,
    ])
    assert "result" in ready.response("b1")
    assert error_code(ready.response("b2")) == -32601
    assert error_code(ready.wait_for(lambda m: m.get("id") is None and "error" in m)) == -32600
    ready.send([])
    assert error_code(ready.wait_for(lambda m: m.get("id") is None and "error" in m)) == -32600
    ready.still_serving()


def test_missing_jsonrpc_version_and_missing_method(ready):
    ready.send({"id": 5, "method": "sharpbits/serverStats"})
    assert error_code(ready.response(5)) == -32600
    ready.send({"jsonrpc": "2.0", "id": 6})
    assert error_code(ready.response(6)) == -32600
    ready.still_serving()


# ---- params and positions ----------------------------------------------------------------------------------


@pytest.mark.parametrize("method, params", [
    ("textDocument/hover", {"textDocument": 5, "position": {"line": 0, "character": 0}}),
    ("textDocument/hover", {"textDocument": {"uri": "file:///x.py"}, "position": {"line": -1, "character": 0}}),
    ("textDocument/hover", ["not", "an", "object"]),
    ("textDocument/codeAction", {"textDocument": {"uri": "file:///x.py"}}),
    ("textDocument/inlayHint", None),
    ("textDocument/inlayHint", {"textDocument": {"uri": "file:///x.py"}, "range": "everything"}),
    ("codeAction/resolve", {"kind": "quickfix"}),  # no title
])
def test_malformed_params_get_invalid_params(ready, method, params):
    reply = ready.call(method, params)
    assert error_code(reply) == -32602 and method in reply["error"]["message"], reply
    ready.still_serving()


def test_out_of_range_positions_are_answered(ready, tmp_path):
    uri = (tmp_path / "short.py").as_uri()
    ready.open(uri, BAD)
    assert len(ready.published(uri, 1)) == 1
    far = {"line": 10**6, "character": 10**6}
    beyond_line = {"line": 2, "character": 10**6}
    for position in (far, beyond_line, {"line": 0, "character": 2**31 - 1}):
        reply = ready.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": position})
        assert "result" in reply, reply
    reply = ready.call("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {"start": far, "end": far},
                                                   "context": {"diagnostics": []}})
    assert "result" in reply, reply
    reply = ready.call("textDocument/codeAction", {"textDocument": {"uri": uri},
                                                   "range": {"start": {"line": 0, "character": 0}, "end": far},
                                                   "context": {"diagnostics": []}})
    assert reply.get("result"), reply  # the whole file: the fix of x[0] = 1 is offered
    reply = ready.call("textDocument/inlayHint", {"textDocument": {"uri": uri},
                                                  "range": {"start": {"line": 0, "character": 0}, "end": far}})
    assert "result" in reply, reply
    unopened = (tmp_path / "never-opened.py").as_uri()
    reply = ready.call("textDocument/hover", {"textDocument": {"uri": unopened}, "position": far})
    assert reply.get("result") is None and "error" not in reply, reply
    reply = ready.call("textDocument/hover", {"textDocument": {"uri": "not a uri"}, "position": far})
    assert "result" in reply or "error" in reply
    ready.still_serving()


def test_bad_command_and_custom_request_arguments_are_answered(ready):
    for params in ({"command": "sharpbits.trace", "arguments": [5, None]},
                   {"command": "sharpbits.trace", "arguments": "not a list"},
                   {"command": "no.such.command", "arguments": []}):
        reply = ready.call("workspace/executeCommand", params)
        assert "result" in reply or "error" in reply, reply
    for method in ("sharpbits/trace", "sharpbits/tracedFunctions"):
        for params in (None, 5, "x", {"uri": 5, "function": []}):
            reply = ready.call(method, params)
            assert "result" in reply or "error" in reply, reply
    ready.still_serving()


def test_malformed_settings_name_the_setting_and_keep_the_last_good_configuration(raw, tmp_path):
    raw.initialize({"debounceMs": 0, "select": ["SB101"]})
    uri = (tmp_path / "settings.py").as_uri()
    for settings in (5, "x", ["a"], {"sharpbits": 5},
                     {"sharpbits": {"debounceMs": "fast", "maxFileSizeKB": -3, "analysisTimeoutMs": [1]}},
                     {"sharpbits": {"select": 5, "severity": "loud"}}):
        raw.notify("workspace/didChangeConfiguration", {"settings": settings})
    messages = [raw.wait_for(lambda m: m.get("method") == "window/showMessage") for _ in range(8)]
    texts = [m["params"]["message"] for m in messages]
    assert not any("Error in server" in t or "AttributeError" in t or "TypeError" in t for t in texts), texts
    assert any("sharpbits.debounceMs" in t for t in texts), texts
    assert any("sharpbits.maxFileSizeKB" in t for t in texts), texts
    assert any("sharpbits.analysisTimeoutMs" in t for t in texts), texts
    # the last good configuration (select SB101 only, no debounce) still applies
    raw.open(uri, BAD)
    assert [d["code"] for d in raw.published(uri, 1)] == ["SB101"]


# ---- framing -----------------------------------------------------------------------------------------------


def stats_request(msg_id):
    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": "sharpbits/serverStats", "params": {}})


def test_an_absurd_content_length_is_refused_and_the_next_message_answered(ready):
    ready.send_bytes(b"Content-Length: 1000000000000\r\n\r\n" + b'{"jsonrpc": "2.0"}\r\n')
    ready.send_bytes(frame(stats_request("after-absurd")))
    assert "result" in ready.response("after-absurd")
    log = ready.wait_for(lambda m: m.get("method") == "window/logMessage" and "Content-Length" in m["params"]["message"])
    assert "1000000000000" in log["params"]["message"]


def test_a_short_content_length_resynchronises_on_the_next_header(ready):
    body = stats_request("cut-short")
    ready.send_bytes(frame(body, len(body) - 7))
    ready.send_bytes(frame(stats_request("after-short")))
    assert error_code(ready.wait_for(lambda m: m.get("id") is None and "error" in m)) == -32700
    assert "result" in ready.response("after-short")


def test_a_long_content_length_keeps_the_message_and_the_next_one(ready):
    body = stats_request("too-long")
    ready.send_bytes(frame(body, len(body) + 25))
    ready.send_bytes(frame(stats_request("after-long")))
    assert "result" in ready.response("too-long")
    assert "result" in ready.response("after-long")


def test_junk_between_messages_and_an_endless_header_line(ready):
    ready.send_bytes(b"hello\r\nX-Whatever: 1\r\n" + b"A" * 300_000 + b"\r\n")
    ready.send_bytes(frame(stats_request("after-junk")))
    assert "result" in ready.response("after-junk")


# ---- documents -----------------------------------------------------------------------------------------------


def test_a_byte_order_mark_is_not_a_syntax_error_and_shifts_line_1_by_one(ready, tmp_path):
    plain, marked = (tmp_path / "plain.py").as_uri(), (tmp_path / "marked.py").as_uri()
    text = "import jax.numpy as jnp\nx = jnp.zeros(3); x[0] = 1\n"
    first_line = "import jax.numpy as jnp; x = jnp.zeros(3); x[0] = 1\n"
    ready.open(plain, first_line)
    ready.open(marked, "\ufeff" + first_line)
    (without,) = ready.published(plain, 1)
    (with_bom,) = ready.published(marked, 1)
    assert with_bom["code"] == without["code"] == "SB101"
    assert with_bom["range"]["start"]["character"] == without["range"]["start"]["character"] + 1
    assert with_bom["range"]["start"]["line"] == 0
    second = (tmp_path / "second.py").as_uri()
    ready.open(second, "\ufeff" + text)
    (on_line_2,) = ready.published(second, 1)
    assert on_line_2["range"]["start"] == {"line": 1, "character": 18}  # lines after the first do not shift
    reply = ready.call("textDocument/hover", {"textDocument": {"uri": marked},
                                              "position": with_bom["range"]["start"]})
    assert reply["result"] is not None and "SB101" in reply["result"]["contents"]["value"]


def test_a_document_over_the_size_limit_is_skipped_with_a_message(raw, tmp_path):
    raw.initialize({"maxFileSizeKB": 8})
    big, small = (tmp_path / "big.py").as_uri(), (tmp_path / "small.py").as_uri()
    raw.open(big, BAD + "y = 1\n" * 5000)
    raw.open(small, BAD)
    (skipped,) = raw.published(big, 1)
    assert "not analysed" in skipped["message"] and "sharpbits.maxFileSizeKB" in skipped["message"]
    assert [d["code"] for d in raw.published(small, 1)] == ["SB101"]
    raw.notify("workspace/didChangeConfiguration", {"settings": {"sharpbits": {"maxFileSizeKB": 1024}}})
    assert [d["code"] for d in raw.published(big)] == ["SB101"]  # a higher limit: analysed now


def test_thousands_of_findings_on_one_non_ascii_line_have_utf16_columns(ready, tmp_path):
    uri = (tmp_path / "many.py").as_uri()
    count = 4000
    line = "s = '😀'; " + "; ".join("x[0] = 1" for _ in range(count))
    ready.open(uri, "import jax.numpy as jnp\nx = jnp.zeros(3)\n" + line + "\n")
    diagnostics = ready.findings(uri, 1, timeout=120)
    assert len(diagnostics) == count
    starts = sorted(d["range"]["start"]["character"] for d in diagnostics)
    # "s = '😀'; " is 9 characters and 10 UTF-16 units; each "x[0] = 1; " is 10 more
    assert starts[:3] == [10, 20, 30] and starts[-1] == 10 + 10 * (count - 1)


def test_notifications_leave_no_tasks_or_futures_behind(ready, tmp_path):
    uri = (tmp_path / "typed.py").as_uri()
    ready.open(uri, BAD)
    ready.published(uri, 1)
    before = ready.call("sharpbits/serverStats", {})["result"]
    for version in range(2, 502):
        ready.change(uri, BAD + "#" * version + "\n", version)
        ready.notify("$/setTrace", {"value": "off"})
    ready.published(uri, 501)
    after = ready.call("sharpbits/serverStats", {})["result"]
    assert after["handlerFutures"] <= before["handlerFutures"] + 2, (before, after)
    assert after["tasks"] <= before["tasks"] + 5, (before, after)


@pytest.mark.parametrize("tail", ["y = 1\0\0\n", "y = " + "[" * 1000 + "]" * 1000 + "\n", "s = '\ud800'\n"],
                         ids=["NUL bytes", "1,000 nested brackets", "a lone surrogate"])
def test_a_document_that_never_parsed_says_why_it_has_no_findings(ready, tmp_path, tail):
    uri = (tmp_path / "broken.py").as_uri()
    ready.open(uri, BAD + tail)
    (message,) = ready.published(uri, 1)
    assert message["code"] == "skipped" and "does not parse" in message["message"], message
    ready.change(uri, BAD, 2)  # fixed: findings replace the message
    assert [d["code"] for d in ready.published(uri, 2)] == ["SB101"]
    ready.change(uri, BAD + tail, 3)  # broken again mid-typing: nothing new is published, the server answers
    ready.still_serving()


def test_a_slow_analysis_says_so_and_its_findings_follow(raw, tmp_path):
    # 200,000 lines take seconds to analyse: far past a 100 ms limit on any machine
    # (the budget past which an analysis is stopped, test_analysis_budget.py, is set far above what it takes)
    raw.initialize({"analysisTimeoutMs": 100, "maxFileSizeKB": 100_000, "analysisBudgetMs": 3_600_000})
    slow, small = (tmp_path / "slow.py").as_uri(), (tmp_path / "small.py").as_uri()
    raw.open(slow, BAD + "".join(f"v{i} = {i}\n" for i in range(200_000)))
    (notice,) = raw.published(slow, 1)
    assert "analysis is slow" in notice["message"] and "sharpbits.analysisTimeoutMs" in notice["message"]
    raw.open(small, BAD)  # another document is not held up behind it
    # (on a loaded machine even this one can pass 100 ms and get its own notice first: wait for its findings)
    findings = raw.wait_for(
        lambda m: isinstance(m, dict) and m.get("method") == "textDocument/publishDiagnostics"
        and m["params"]["uri"] == small and any(d.get("code") == "SB101" for d in m["params"]["diagnostics"]),
        20.0, f"the findings of {small}")
    assert [d["code"] for d in findings["params"]["diagnostics"]] == ["SB101"]
    assert [d["code"] for d in raw.published(slow, 1, timeout=120)] == ["SB101"]
