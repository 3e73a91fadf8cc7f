"""The bug twin of clean__eqx_filter_jit_of_filter_vmap_per_chunk.py: the vmapped function is a lambda written in
the loop, a new function object on every iteration, so equinox's cache misses and each chunk traces and compiles
again (5 chunks, 5 traces).
"""
import equinox as eqx
import jax.numpy as jnp

TRACES = []


def stat(w, X, G, y):
    TRACES.append(1)
    return (X @ w).sum() + G.sum() + y.sum()


def scan(w, X, chunks, pheno):
    out = []
    for G in chunks:
        f = eqx.filter_jit(eqx.filter_vmap(lambda X, G, y: stat(w, X, G, y), in_axes=(None, None, 1)))  # expect: jit-in-loop
        out.append(f(X, G, pheno))
    return out


if __name__ == "__main__":
    scan(jnp.ones(3), jnp.ones((4, 3)), [jnp.ones((4, 2)) * i for i in range(5)], jnp.ones((4, 6)))
    if len(TRACES) > 1:
        print(f"SHARP BIT: {len(TRACES)} traces for 5 chunks of one shape")
