"""A blackjax-style kernel factory: `build_kernel(step_size)` returns `kernel(rng_key, state)`, which draws its
proposal from `rng_key`. The caller builds a fine and a coarse kernel and hands both the same `rng_key`, so the
two proposals are the same normal draw, only scaled: the "independent" chains move in lockstep.
"""
import jax
import jax.numpy as jnp


def build_kernel(step_size):
    def kernel(rng_key, position):
        return position + step_size * jax.random.normal(rng_key, position.shape)

    return kernel


def two_chains(rng_key, position):
    fine = build_kernel(0.1)
    coarse = build_kernel(1.0)
    fine_position = fine(rng_key, position)
    coarse_position = coarse(rng_key, position)  # expect: prng-key-reuse
    return fine_position, coarse_position


if __name__ == "__main__":
    a, b = two_chains(jax.random.key(0), jnp.zeros(3))
    if bool(jnp.allclose(b, 10 * a)):
        print("SHARP BIT: the coarse chain's move is the fine chain's move times 10:", a, b)
