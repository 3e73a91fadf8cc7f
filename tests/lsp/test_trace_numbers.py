"""The numbers of one trace agree everywhere in the editor, over stdio with a real worker: the lens, the hover
and the jaxpr listing state the same equation count, and the per-line inlay hints add up to it (the line that
calls a helper or value_and_grad carries that call's equations); a reused key shows as a warning at its line while
the trace's figures still show; the hover says what the module body took and printed."""

import asyncio
import os
import re
import sys
import tempfile

from lsprotocol import types

from .conftest import lenses, open_document, server_fixture, trace, wait_for_publish
from .test_tracing_in_server import plain

CACHE = os.path.join(tempfile.gettempdir(), "sharpbits-test-jax-cache")
client = server_fixture({"trace": {"enabled": True, "interpreter": sys.executable, "platform": "cpu",
                                   "cacheDir": CACHE}})

DOC = '''import jax
import jax.numpy as jnp


def mlp(params, x):
    for w in params:
        x = jnp.tanh(x @ w)
    return x


def loss(params, x, y):
    return jnp.mean((mlp(params, x) - y) ** 2)


# sharpbits: trace(params=[f32[16,16], f32[16,16]], x=f32[4,16], y=f32[4,16])
@jax.jit
def train_step(params, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    positive = jnp.where(x > 0, x, 0.0)
    new = [p - 0.01 * g for p, g in zip(params, grads)]
    return value + positive.sum(), new


# sharpbits: trace(key=key)
@jax.jit
def sample(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))
    return a + b


print("loading the module")
'''
TRAIN_DEF = DOC.splitlines().index("def train_step(params, x, y):")  # 0-based, as LSP positions
GRAD_LINE = TRAIN_DEF + 1
TRAIN_LENS = TRAIN_DEF - 1  # the lens sits above the decorators (`@jax.jit`), where VS Code draws it
REUSE_LINE = DOC.splitlines().index("    b = jax.random.normal(key, (3,))")


async def hover(client, uri, line, character):
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(line, character)))
    return result.contents.value if result else ""


async def test_lens_hints_hover_and_listing_state_one_equation_count(client, uri):
    open_document(client, uri, DOC)
    await wait_for_publish(client, uri, 1)
    reply = await trace(client, uri, "train_step")
    assert reply["ok"], reply
    # the stored result, as the listings get it (`sharpbits/trace` answers from it: no second trace)
    result = plain(await client.protocol.send_request_async(
        "sharpbits/trace", {"uri": uri, "function": "train_step", "show": ["jaxpr", "timing"]}))
    total = result["jaxpr"]["eqns"]
    assert reply["summary"] == {lens.range.start.line: lens.command.title
                                for lens in await lenses(client, uri)}[TRAIN_LENS]
    lens = {lens.range.start.line: lens.command.title for lens in await lenses(client, uri)}[TRAIN_LENS]
    assert lens.startswith(f"jaxpr {total} eqns · compile "), lens
    assert "±" not in lens and re.search(r"run [\d.]+ [µm]?s \((min|noisy)", lens), lens
    assert lens.endswith(" · cpu") and "(cpu)" not in lens

    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(40, 0))))
    per_line = {h.position.line: int(m.group(1)) for h in hints
                if (m := re.fullmatch(r"(\d+) eqns?", h.label.strip()))}
    # the hints inside train_step add up to the lens's count, and the value_and_grad line carries the
    # equations of loss and mlp (forward and backward), which are written on lines outside train_step
    assert all(TRAIN_DEF < line <= TRAIN_DEF + 4 for line in per_line)
    assert sum(per_line.values()) == total
    assert per_line[GRAD_LINE] > total // 2

    name = await hover(client, uri, TRAIN_DEF, 5)
    assert f"jaxpr {total} eqns" in name and "traced on `cpu`" in name and "(cpu)" not in name
    assert "module body " in name and "loading the module" in name
    compile_total = result["compile"]["total_s"]
    assert result["compile"]["equations"] == total
    assert f"compile {_duration(compile_total)}" in lens and f"compile {_duration(compile_total)}" in name
    line = await hover(client, uri, GRAD_LINE, 8)
    assert f"accounts for {per_line[GRAD_LINE]} jaxpr equations (of {total}" in line and "`tanh`" in line


async def test_a_reused_key_is_a_warning_at_its_line_and_the_trace_shows(client, uri):
    open_document(client, uri, DOC)
    await wait_for_publish(client, uri, 1)
    result = await trace(client, uri, "sample")
    assert result["ok"], result
    lens = {lens.range.start.line: lens.command.title for lens in await lenses(client, uri)}
    sample_lens = DOC.splitlines().index("def sample(key):") - 1  # above its `@jax.jit`
    assert lens[sample_lens].startswith("jaxpr ") and "1 finding" in lens[sample_lens]
    traced = await trace_diagnostics(client, uri)
    (warning,) = traced
    assert warning.range.start.line == REUSE_LINE and warning.code == "KeyReuseError"
    assert warning.severity == types.DiagnosticSeverity.Warning


async def trace_diagnostics(client, uri):
    for _ in range(200):
        traced = [d for d in client.diagnostics.get(uri, []) if d.source == "sharpbits (trace)"]
        if traced:
            return traced
        await asyncio.sleep(0.05)
    raise AssertionError(f"no trace diagnostic: {client.diagnostics.get(uri)}")


def _duration(s: float) -> str:
    from sharpbits.trace.render import duration

    return duration(s)


unchecked = server_fixture({"trace": {"enabled": True, "interpreter": sys.executable, "platform": "cpu",
                                      "cacheDir": CACHE, "checkKeyReuse": False}})


async def test_check_key_reuse_off_traces_without_the_check(unchecked, uri):
    open_document(unchecked, uri, DOC)
    await wait_for_publish(unchecked, uri, 1)
    reply = await trace(unchecked, uri, "sample")
    assert reply["ok"] and "finding" not in reply["summary"], reply
    result = plain(await unchecked.protocol.send_request_async(
        "sharpbits/trace", {"uri": uri, "function": "sample", "show": ["jaxpr"]}))
    assert "findings" not in result and result["jaxpr"]["eqns"] > 0


def test_the_setting_is_typed_with_a_default_on():
    from sharpbits.lsp.settings import EditorSettings, read_settings

    assert EditorSettings().trace.check_key_reuse is True
    off, messages = read_settings({"trace": {"checkKeyReuse": False}}, EditorSettings())
    assert off.trace.check_key_reuse is False and messages == []
    kept, messages = read_settings({"trace": {"checkKeyReuse": "no"}}, EditorSettings())
    assert kept.trace.check_key_reuse is True and any("checkKeyReuse" in m for m in messages)
