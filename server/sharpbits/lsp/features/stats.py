"""`sharpbits/serverStats`: what the server holds right now (for the long-editing bench and the leak test)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from sharpbits.lsp.language_server import SharpbitsServer


def register(server: SharpbitsServer) -> None:
    @server.feature("sharpbits/serverStats")
    def server_stats(ls: SharpbitsServer, params: Any) -> dict[str, int]:
        """Live asyncio tasks, futures kept for in-flight handlers, open documents, cached analyses, analyses
        scheduled and running."""
        return {
            "tasks": len(asyncio.all_tasks()),
            "handlerFutures": len(ls.protocol._request_futures),
            "documents": len(ls.workspace.text_documents),
            "analysed": len(ls.analysed) + ls.notebooks.view_count(),
            # (a check of which documents import a changed module may schedule more: it counts as one)
            "pending": len(ls.pending) + (ls._project_check is not None and not ls._project_check.done()),
            "running": len(ls.running),  # with pending 0: nothing left that would publish (tests wait for it)
            # the cyclic collector: off in `sharpbits serve`, run between analyses (collect_when_idle)
            "gcEnabled": int(gc.isenabled()),
            "idleCollections": ls.collections,
            "youngObjects": gc.get_count()[0],
        }
