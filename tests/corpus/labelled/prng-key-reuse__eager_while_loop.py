"""JAX PRNG docs: rejection sampling in an eager `while` loop that never re-derives its key.

Every proposal is the same, so the loop either accepts at once or never terminates.
"""
import jax
import jax.numpy as jnp


def sample_positive(key, max_tries=5):
    tries = 0
    proposals = []
    while tries < max_tries:
        x = jax.random.normal(key, ())  # expect: prng-key-reuse
        proposals.append(float(x))
        if x > 3.0:
            return x, proposals
        tries += 1
    return jnp.nan, proposals


if __name__ == "__main__":
    _, proposals = sample_positive(jax.random.PRNGKey(0))
    print("SHARP BIT: identical proposals:", len(set(proposals)) == 1, proposals)
