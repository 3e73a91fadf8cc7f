"""A key drawn from once, then a loop of a fixed number of steps (a module constant) that binds `key` to a fresh
half of each step's key, folded from the base: the loop always runs, so the key read after it is the last step's
unused half, never drawn from (round 37: warm-up loops of fixed length in cogrid's benchmarks, margarine's tests).
"""
import jax
import jax.numpy as jnp

N_STEPS = 4


def run(base):
    key = base
    first = jax.random.normal(key, (3,))
    total = jnp.zeros(3)
    for step in range(N_STEPS):
        key, sub = jax.random.split(jax.random.fold_in(base, step + 1))
        total = total + jax.random.uniform(sub, (3,))
    last = jax.random.normal(key, (3,))
    return first, total, last


if __name__ == "__main__":
    first, total, last = run(jax.random.PRNGKey(0))
    assert not bool(jnp.array_equal(first, last))
    print("ok:", last)
