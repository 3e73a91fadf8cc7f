"""The bug twin of clean__loop_over_one_stream.py: with two streams the same key samples each stream's first
token, so every stream starts with the same token.
"""
import jax
import jax.numpy as jnp

_NUM_STREAMS = 2


def prefill(logits, rng):
    return jax.random.categorical(rng, logits)


def main():
    rng = jax.random.PRNGKey(1234)
    rng, rng_prefill = jax.random.split(rng)
    first = []
    for _ in range(_NUM_STREAMS):
        first.append(prefill(jnp.zeros(8), rng_prefill))  # expect: prng-key-reuse
    return first


if __name__ == "__main__":
    print(main(), "(the same token for every stream)")
