"""Live tracing: run a function through JAX in a worker process and show what JAX builds from it.

Server side (no jax here): protocol.py (every record that crosses a boundary, and the framing), specs.py (the
argument-spec language), client.py (the worker's lifecycle; WorkerResult -> TraceResult), sourcemap.py (HLO back
to lines), render.py (terminal text), cli.py (`sharpbits trace`), schema.py (the TypeScript mirror). worker.py
runs in the user's interpreter and imports only the standard library, NumPy, JAX and protocol.py (which the
client ships with it). See docs/tracing.md.
"""
