"""The server under a stream of damaged documents: every request answered, no crash, memory flat."""

import random

import psutil
from lsprotocol import types

from ..lsp.conftest import open_document, replace_text, server_fixture, wait_for_publish
from .mutations import SEEDS, mutate

# no debounce: the newest version is analysed as soon as the previous analysis of the document finishes
client = server_fixture({"debounceMs": 0})


def server_process(client) -> psutil.Process:
    return psutil.Process(client._server.pid)


async def test_thousands_of_mutated_documents(client, tmp_path):
    uri = (tmp_path / "fuzzed.py").as_uri()
    rng = random.Random(20261121)
    open_document(client, uri, SEEDS[0])
    await wait_for_publish(client, uri, 1)
    proc = server_process(client)
    version = 1
    rss_after_warmup = None
    for round_ in range(12):
        for _ in range(250):
            version += 1
            replace_text(client, uri, mutate(rng.choice(SEEDS), rng), version)
        # requests mid-stream are answered (a code action and a hover on the latest text)
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(uri),
                types.Range(types.Position(0, 0), types.Position(50, 0)),
                types.CodeActionContext(diagnostics=[]),
            )
        )
        assert actions is None or isinstance(actions, list | tuple)
        await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(3, 4)))
        if round_ == 1:
            rss_after_warmup = proc.memory_info().rss
    # the server settles on the last version: a valid document gets its diagnostics
    version += 1
    replace_text(client, uri, SEEDS[0], version)
    diagnostics = await wait_for_publish(client, uri, version)
    assert sorted(d.code for d in diagnostics) == ["SB101", "SB301"]
    assert client.error is None
    analysed = [v for u, v, _ in client.published if u == uri]
    # The server analyses one version of a document at a time and then the newest one (it does not queue every
    # version of a burst): how many versions in between get published depends on the machine's speed, so what is
    # checked is that publications never go back to an older version and that the first and last are there.
    assert analysed == sorted(analysed), "a publication for an older version came after a newer one"
    assert {1, version} <= set(analysed)
    growth = proc.memory_info().rss - rss_after_warmup
    assert growth < 30 * 1024 * 1024, f"server memory grew by {growth / 1e6:.1f} MB over 2500 documents"
