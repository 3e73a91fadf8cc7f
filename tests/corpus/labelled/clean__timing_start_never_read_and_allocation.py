"""Two clock reads that time nothing on the device (jax-sklearn's benchmark, diffusionjax's trainer): a warm-up
bracketed by `t0`/`t1` whose `t1 - t0` nobody computes (`t0` is set again for the next measure), and an epoch timer
whose first interval holds only the allocation of a zero buffer. The measure that is read waits for its result."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def rbf(x, y):
    return jnp.exp(-jnp.sum((x[:, None] - y[None]) ** 2, axis=-1))


x = jnp.ones((256, 8))
t0 = time.perf_counter(); _ = rbf(x, x); t1 = time.perf_counter()
t0 = time.perf_counter(); rbf(x, x).block_until_ready(); t_jax = time.perf_counter() - t0
print(f"rbf: {t_jax:.4f} s")

prev_time = time.time()
mean_losses = jnp.zeros((3, 1))
for epoch in range(3):
    current_time = time.time()
    print(f"epoch {epoch} started {current_time - prev_time:.3f} s after the last")
    mean_losses = mean_losses.at[epoch].set(jnp.mean(rbf(x, x)).block_until_ready())
    prev_time = time.time()
