"""The fix of `unblocked-timing__timed_function_chosen_by_branch`: the function is still chosen by a branch
(`jax.jit(fn)` or the plain function), but the timed loop waits for each result before the clock stops.
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
        out = f(a).block_until_ready()
    elapsed = time.perf_counter() - start
    return out, elapsed


if __name__ == "__main__":
    out, elapsed = timeit(jnp.ones((1500, 1500)) / 1500)
    assert out.is_ready()
    print(f"{elapsed * 1e3:.2f} ms for 5 calls")
