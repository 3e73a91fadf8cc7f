"""The clean twin of prng-key-reuse__same_key_to_two_factory_kernels: the caller splits `rng_key` and hands each
kernel built by the factory its own key, so the two chains make independent moves.
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
    fine_key, coarse_key = jax.random.split(rng_key)
    fine_position = fine(fine_key, position)
    coarse_position = coarse(coarse_key, position)
    return fine_position, coarse_position


if __name__ == "__main__":
    a, b = two_chains(jax.random.key(0), jnp.zeros(3))
    assert not bool(jnp.allclose(b, 10 * a))
    print("independent moves:", a, b)
