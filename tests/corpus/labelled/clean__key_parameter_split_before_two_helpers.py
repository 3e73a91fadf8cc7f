"""The clean twin of `prng-key-reuse__key_parameter_through_two_helpers`: the key parameter is split before the
two calls of the sampling helper, so positions and velocities come from independent keys.
"""
import jax


def _draw(key, n):
    return jax.random.normal(key, (n, 3))


def sample(key, n, scale=1.0):
    return _draw(key, n) * scale


def initial_state(key, n):
    k_pos, k_vel = jax.random.split(key)
    positions = sample(k_pos, n)
    velocities = sample(k_vel, n, scale=0.1)
    return positions, velocities


if __name__ == "__main__":
    pos, vel = initial_state(jax.random.key(0), 4)
    print("independent:", not bool((abs(vel - 0.1 * pos) < 1e-6).all()))
