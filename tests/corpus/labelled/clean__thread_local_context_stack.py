"""Sharp Bits: "Pure functions": a `threading.local` context stack that the trace pushes and pops itself.

Layers add summaries to the innermost context, the way module libraries keep a dynamic scope. Each thread
installs its own stack; the jitted step pushes its context, reads it back, and pops it, so every trace reads
what it pushed, in whichever thread it runs.
"""
import contextlib
import threading

import jax
import jax.numpy as jnp


class ContextStack(threading.local):
    def __init__(self):
        self.stack = []


_contexts = ContextStack()


def install_context_stack(stack):
    _contexts.stack = stack


@contextlib.contextmanager
def context(outputs):
    _contexts.stack.append(outputs)
    try:
        yield outputs
    finally:
        _contexts.stack.pop()


def add_summary(name, value):
    _contexts.stack[-1][name] = value


@jax.jit
def step(x):
    with context({}) as outputs:
        y = jnp.tanh(x)
        add_summary("mean", jnp.mean(x))
    return y, outputs


def worker(results):
    install_context_stack([{"parent": True}])
    results.append(float(step(jnp.arange(3.0) + 1.0)[1]["mean"]))


if __name__ == "__main__":
    results = [float(step(jnp.arange(3.0))[1]["mean"])]
    thread = threading.Thread(target=worker, args=(results,))
    thread.start()
    thread.join()
    print("summaries per call:", results, "stack after:", _contexts.stack)
    assert results == [1.0, 2.0] and _contexts.stack == []
