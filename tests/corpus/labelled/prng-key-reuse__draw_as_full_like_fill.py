"""A second draw whose values do reach a result: `jnp.full_like(x, fill)` reads `fill`'s values (only the first
argument of a `*_like` function is read for its shape). jaxtari's Phoenix draws the attack chance and the
attack height from one key and writes the height with `full_like` (round 13, true).
"""
import jax
import jax.numpy as jnp


def attack(key, n):
    chance = jax.random.uniform(key, (n,))
    target = jax.random.uniform(key, (n,))  # expect: prng-key-reuse
    heights = jnp.full_like(jnp.zeros(n), target)
    return chance, heights


if __name__ == "__main__":
    chance, heights = attack(jax.random.PRNGKey(0), 4)
    if bool(jnp.array_equal(chance, heights)):
        print("SHARP BIT: the attack heights equal the attack chances:", heights)
