"""The benchmark of clean__eqx_filter_jit_timed_waits_for_outputs under `jax.jit`: jit dispatches asynchronously,
so the clock stops before the device finishes the product.
"""
import time

import jax
import jax.numpy as jnp


@jax.jit
def gram(a):
    return (a @ a.T) @ a


def bench(a):
    gram(a).block_until_ready()
    t0 = time.perf_counter()
    out = gram(a)  # expect: unblocked-timing
    return out, time.perf_counter() - t0


if __name__ == "__main__":
    out, dt = bench(jnp.ones((1500, 1500)))
    if not out.is_ready():
        print(f"SHARP BIT: 'took' {dt * 1e3:.2f} ms but the result is not ready")
