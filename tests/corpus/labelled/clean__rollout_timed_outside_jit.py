"""The rollout's duration measured outside the jitted function, after waiting for it; inside, a clock read that
only times the trace (printed once, at trace time)."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def rollout(x):
    start = time.time()
    y = jax.lax.fori_loop(0, 100, lambda i, c: jnp.tanh(c @ c), x)
    print("traced in", time.time() - start)
    return y


if __name__ == "__main__":
    x = jnp.ones((64, 64)) / 64
    t0 = time.perf_counter()
    rollout(x).block_until_ready()
    print("ok", time.perf_counter() - t0 > 0)
