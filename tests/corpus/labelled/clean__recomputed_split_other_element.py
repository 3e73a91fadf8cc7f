"""JAX PRNG docs: `split` is a pure function of its key; computing `split(rng)` again and taking another element
gives the other key of the same split, as `k0, k1 = split(rng)` would.

A test rebuilds the noise a trainer draws (the trainer splits its key, draws with the second half and carries
the first half to the next step) to compute the expected result.
"""
import jax
import jax.numpy as jnp


def trainer_noise(rng, steps):
    draws = []
    for _ in range(steps):
        rng, use = jax.random.split(rng)
        draws.append(jax.random.uniform(use, ()))
    return draws


def expected_noise(rng_0):
    step_0 = jax.random.uniform(jax.random.split(rng_0)[1], [])
    step_1 = jax.random.uniform(jax.random.split(jax.random.split(rng_0)[0])[1], [])
    return step_0, step_1


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    got = trainer_noise(key, 2)
    want = expected_noise(key)
    assert bool(jnp.allclose(jnp.stack(got), jnp.stack(want)))
    assert float(want[0]) != float(want[1])
    print("expected noise reproduced:", [float(w) for w in want])
