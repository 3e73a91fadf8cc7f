"""jax-galsim 2026.7.0 tests/jax/test_interpolant_jax.py `_timeit`: the timed function is chosen by a branch
(`jax.jit(fn)` in one arm, the plain function in the other) and then called in a timed loop without waiting.

Either arm returns a JAX array as soon as the work is queued, so the clock measures dispatch only. The same loop
with `f = jax.jit(layer)` alone is reported; the branch hides it (engine of `main` 063209c).
"""
import time

import jax
import jax.numpy as jnp


def layer(a):
    return jnp.tanh(jnp.tanh(a @ a) @ a)


def timeit(a, n=5, jit=True):
    if jit:
        f = jax.jit(layer)
    else:
        f = layer
    f(a).block_until_ready()  # compile outside the timing
    start = time.perf_counter()
    for _ in range(n):
        out = f(a)  # expect: unblocked-timing
    elapsed = time.perf_counter() - start
    return out, elapsed


if __name__ == "__main__":
    out, elapsed = timeit(jnp.ones((1500, 1500)) / 1500)
    if not out.is_ready():
        print(f"SHARP BIT: result not ready when the clock stopped ({elapsed * 1e3:.2f} ms for 5 calls)")
