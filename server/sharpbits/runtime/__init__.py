"""`sharpbits run` and the pytest plugin: the sharp bits that only running shows (recompiles and what changed,
PRNG key reuse, NaN origins, tracer leaks, implicit transfers), reported as findings like `check`'s.

- agent.py runs inside the user's process (standard library, NumPy and JAX only) and records what it sees;
- boot/sitecustomize.py starts the agent in a program `sharpbits run` launches;
- report.py turns records into findings (and says whether static analysis flagged the same line);
- command.py is the `sharpbits run` command; pytest_plugin.py the `--sharpbits` pytest plugin.
"""
