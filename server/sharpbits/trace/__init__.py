"""Live tracing: run a function through JAX in a worker process and show what JAX builds from it.

Server side (no jax here): specs.py (the argument-spec language), client.py (the worker's lifecycle),
sourcemap.py (HLO back to lines), render.py (terminal text), cli.py (`sharpbits trace`). worker.py runs in the
user's interpreter and imports only the standard library, NumPy and JAX. See docs/tracing.md.
"""
