"""The bug twin: the warm-up's interval is read (`t1 - t0` is printed as the compile time), so the clock stops
while the dispatched kernel may still be running."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def rbf(x, y):
    return jnp.exp(-jnp.sum((x[:, None] - y[None]) ** 2, axis=-1))


x = jnp.ones((256, 8))
t0 = time.perf_counter(); _ = rbf(x, x); t1 = time.perf_counter()  # expect: unblocked-timing
print(f"first call (compile + run): {t1 - t0:.4f} s")
