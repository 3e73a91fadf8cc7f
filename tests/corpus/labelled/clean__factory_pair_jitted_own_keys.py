"""The clean twin of prng-key-reuse__same_key_to_factory_pair_jitted: the caller splits `rng_key` and hands the
start (`init`) and the jitted step (`jax.jit(step)`) of the factory's pair a key each, so the first move's noise is
independent of the start.
"""
import jax
import jax.numpy as jnp


def make_sampler(scale):
    def init(rng_key, shape):
        return scale * jax.random.normal(rng_key, shape)

    def step(rng_key, position):
        return position + scale * jax.random.normal(rng_key, position.shape)

    return init, step


def start_and_move(rng_key):
    init, step = make_sampler(0.5)
    init_key, step_key = jax.random.split(rng_key)
    position = init(init_key, (3,))
    moved = jax.jit(step)(step_key, position)
    return position, moved


if __name__ == "__main__":
    p, q = start_and_move(jax.random.key(0))
    assert not bool(jnp.allclose(q, 2 * p))
    print("independent start and move:", p, q)
