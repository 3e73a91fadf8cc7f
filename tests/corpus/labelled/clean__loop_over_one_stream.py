"""A loop over a constant number of streams that is 1 (maxtext's decode demo: `_NUM_STREAMS = 1`): the body
runs once, so the key handed to the sampler in it is used once.
"""
import jax
import jax.numpy as jnp

_NUM_STREAMS = 1


def prefill(logits, rng):
    return jax.random.categorical(rng, logits)


def main():
    rng = jax.random.PRNGKey(1234)
    rng, rng_prefill = jax.random.split(rng)
    first = []
    for _ in range(_NUM_STREAMS):
        first.append(prefill(jnp.zeros(8), rng_prefill))
    return first


if __name__ == "__main__":
    print(main())
