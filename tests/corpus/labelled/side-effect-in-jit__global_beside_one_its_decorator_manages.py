"""The bug twin of clean__global_managed_by_its_decorator.py: the decorator manages `count`, but the function
also writes the module's `total`, which nothing takes back: a tracer stays in it (UnexpectedTracerError later).
"""
import functools

import jax
import jax.numpy as jnp

total = 0.0


class Context:
    scope = None
    def __init__(self, state): self.values = dict(state or {})

    def __enter__(self):
        self.parent, Context.scope = Context.scope, self
        return self

    def __exit__(self, *exc):
        Context.scope = self.parent


def restores(**defaults):
    def deco(f):
        @functools.wraps(f)
        def wrapper(*args):
            ns = f.__globals__
            for k, v in defaults.items(): ns[k] = Context.scope.values.get(k, v)
            try:
                out = f(*args)
                for k in defaults: Context.scope.values[k] = ns[k]  # read back within the trace
                return out
            finally:
                for k in defaults: del ns[k]
        return wrapper
    return deco


@restores(count=jnp.zeros(()))
def block(x):
    global count, total
    count += x
    total = count * 2  # expect: side-effect-in-jit
    return count


@jax.jit
def step(state, x):
    with Context(state) as scope:
        out = block(x)
        return dict(scope.values), out


if __name__ == "__main__":
    step(None, 5.0)
    try:
        print(total + 1)
    except Exception as exc:
        print("SHARP BIT:", type(exc).__name__)
