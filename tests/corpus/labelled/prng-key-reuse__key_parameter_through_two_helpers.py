"""A simulation draws its initial positions and velocities through a small sampling helper that hands the key to a
private drawing function.

`sample(key, n)` draws nothing itself: it passes `key` to `_draw`, which calls `jax.random.normal`. Called twice
with the same key parameter, the velocities are the positions scaled: the twin
`clean__key_parameter_split_before_two_helpers` splits it first.
"""
import jax


def _draw(key, n):
    return jax.random.normal(key, (n, 3))


def sample(key, n, scale=1.0):
    return _draw(key, n) * scale


def initial_state(key, n):
    positions = sample(key, n)
    velocities = sample(key, n, scale=0.1)  # expect: prng-key-reuse
    return positions, velocities


if __name__ == "__main__":
    pos, vel = initial_state(jax.random.key(0), 4)
    print("SHARP BIT: velocities are the positions scaled:", bool((abs(vel - 0.1 * pos) < 1e-6).all()))
