"""A benchmark times an `eqx.filter_jit` call without `block_until_ready()`: no bug. Equinox's filter_jit blocks on a
marker output of the compiled call before it returns (equinox/_jit.py, `marker.block_until_ready()`, so that its
runtime errors raise at the call), so the clock stops after the device finished (held-out set recall24; bug twin:
unblocked-timing__jax_jit_same_benchmark_unwaited, the same benchmark under `jax.jit`).
"""
import time

import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def gram(a):
    return (a @ a.T) @ a


def bench(a):
    gram(a).block_until_ready()
    t0 = time.perf_counter()
    out = gram(a)
    return out, time.perf_counter() - t0


if __name__ == "__main__":
    out, dt = bench(jnp.ones((1500, 1500)))
    print(out.is_ready(), f"{dt * 1e3:.1f} ms")
