"""A factory that returns a pair of functions, `init, step = make_sampler(scale)` (blackjax's `momentum_generator,
kinetic_energy_fn, ... = metrics.gaussian_euclidean(...)` shape): both draw from the key they are given. The caller
draws the start with `init(rng_key, ...)` and then runs `jax.jit(step)(rng_key, ...)` with the same key: the jitted
step passes its arguments on, so its noise is the start's draw again and the chain's first move is the start
itself, not an independent step.
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
    position = init(rng_key, (3,))
    moved = jax.jit(step)(rng_key, position)  # expect: prng-key-reuse
    return position, moved


if __name__ == "__main__":
    p, q = start_and_move(jax.random.key(0))
    if bool(jnp.allclose(q, 2 * p)):
        print("SHARP BIT: the jitted step's noise is the start's draw: moved == 2 * start:", p, q)
