"""The twin of clean__fixed_step_loop_rebinds_key: the number of steps is the caller's, and with none the loop
never runs, so the last draw reads the base key the first one drew from: the same numbers.
"""
import jax
import jax.numpy as jnp


def run(base, n_steps):
    key = base
    first = jax.random.normal(key, (3,))
    total = jnp.zeros(3)
    for step in range(n_steps):
        key, sub = jax.random.split(jax.random.fold_in(base, step + 1))
        total = total + jax.random.uniform(sub, (3,))
    last = jax.random.normal(key, (3,))  # expect: prng-key-reuse
    return first, total, last


if __name__ == "__main__":
    first, total, last = run(jax.random.PRNGKey(0), 0)
    if bool(jnp.array_equal(first, last)):
        print("SHARP BIT: the last draw repeats the first:", last)
