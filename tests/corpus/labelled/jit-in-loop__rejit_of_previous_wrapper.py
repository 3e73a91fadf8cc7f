"""`step = jax.jit(step)` inside the loop: each iteration wraps the wrapper the previous one made, a new object,
so every iteration traces and compiles again.
"""
import jax
import jax.numpy as jnp

compiles = []
jax.monitoring.register_event_duration_secs_listener(
    lambda event, seconds, **kwargs: compiles.append(event) if event.endswith("backend_compile_duration") else None)


def halve(x):
    return x * 0.5


def run(x, step):
    for _ in range(3):
        step = jax.jit(step)  # expect: jit-in-loop
        x = step(x)
    return x


if __name__ == "__main__":
    run(jnp.ones(3), halve)
    if len(compiles) > 1:
        print("SHARP BIT: one step function, compiled", len(compiles), "times in 3 iterations")
