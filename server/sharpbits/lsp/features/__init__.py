"""One module per LSP feature. Each has `register(server)`, which adds its handlers (and listeners) to the one
`SharpbitsServer`; a feature depends on the server object and the layers below it, never on another feature.
lsp/server.py composes them."""
