"""A jitted rollout that reports its own duration: the clock is read while JAX traces it, so every call returns
the first trace's figure (checked on jax 0.10.2: three calls return the same 0.0071 s)."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def rollout(x):
    start = time.time()  # expect: side-effect-in-jit
    y = jax.lax.fori_loop(0, 100, lambda i, c: jnp.tanh(c @ c), x)
    end = time.time()
    return y, {"rollout_time": end - start}


if __name__ == "__main__":
    x = jnp.ones((64, 64)) / 64
    times = {float(rollout(x)[1]["rollout_time"]) for _ in range(3)}
    print("SHARP BIT: every call reports the same time" if len(times) == 1 else "ok")
