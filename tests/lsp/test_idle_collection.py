"""`sharpbits serve` runs the cyclic garbage collector between analyses (SharpbitsServer.collect_when_idle), not
at the first allocation after one (before the diagnostics are published): it stays off, and collects once an
analysis has left enough young objects and nothing else runs or waits."""

from __future__ import annotations

import asyncio
import time

from .conftest import open_document, quiescent, replace_text, wait_for_publish

TEXT = "".join(f"import jax\n\n@jax.jit\ndef f{i}(x, key):\n    a = jax.random.normal(key, x.shape)\n"
               f"    b = jax.random.normal(key, x.shape)\n    return a + b\n\n" for i in range(150))


async def stats(client):
    return await client.protocol.send_request_async("sharpbits/serverStats", {})


async def test_the_collector_runs_between_analyses_not_during_them(client) -> None:
    before = (await stats(client)).idleCollections
    uri = "file:///idle_collection.py"
    open_document(client, uri, TEXT)
    await wait_for_publish(client, uri, 1, timeout=60)
    for version in range(2, 5):  # edits inside one function: each leaves its model's indexes for the next
        replace_text(client, uri, TEXT.replace("a + b", f"a + b + {version}", 1), version)
        await wait_for_publish(client, uri, version, timeout=60)
    await quiescent(client)
    deadline = time.monotonic() + 30
    while True:
        now = await stats(client)
        assert now.gcEnabled == 0  # never turned on: collections happen only between analyses
        if now.idleCollections > before:
            break
        assert time.monotonic() < deadline, f"no collection between analyses: {now}"
        await asyncio.sleep(0.05)
    assert now.youngObjects < 10_000  # what the analyses left was collected
