"""Settings: initializationOptions on initialize, and workspace/didChangeConfiguration (push model)."""

from __future__ import annotations

from lsprotocol import types
from pygls.uris import to_fs_path

from sharpbits.lsp.language_server import SharpbitsServer
from sharpbits.lsp.settings import settings_of_push


def register(server: SharpbitsServer) -> None:
    @server.feature(types.INITIALIZE)
    def on_initialize(ls: SharpbitsServer, params: types.InitializeParams) -> None:
        options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
        root = params.root_uri or (params.workspace_folders[0].uri if params.workspace_folders else None)
        ls.apply_settings(options, to_fs_path(root) if root else None)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def on_configuration(ls: SharpbitsServer, params: types.DidChangeConfigurationParams) -> None:
        settings, problem = settings_of_push(params.settings)
        if problem is not None:
            ls.warn(problem)
        if settings is None:
            return  # a client that only signals "something changed" (pull model), or settings of the wrong shape
        ls.apply_settings(settings, str(ls.config.root) if ls.config.root else None)
        ls.reanalyse_all()
        ls.refresh_lenses()  # Trace lenses come or go with trust and trace.enabled

    @server.feature(types.SHUTDOWN)
    def on_shutdown(ls: SharpbitsServer, params: None) -> None:
        ls.traces.shutdown()  # the trace workers exit with us
