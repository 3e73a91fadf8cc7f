"""JAX PRNG docs: rejection sampling done right: the key is re-derived at the top of every iteration.
"""
import jax
import jax.random as jr


def sample_positive(rng, max_tries=100):
    tries = 0
    while tries < max_tries:
        rng, sub = jr.split(rng)
        x = jr.normal(sub, ())
        if x > 1.0:
            return x, tries
        tries += 1
    return None, tries


if __name__ == "__main__":
    print(sample_positive(jax.random.PRNGKey(0)))
