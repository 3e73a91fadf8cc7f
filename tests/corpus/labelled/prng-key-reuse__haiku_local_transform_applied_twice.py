"""Haiku: two forward passes meant to be two dropout samples (MC dropout) use one `rng`: the same sample twice.
Needs dm-haiku."""
import haiku as hk
import jax
import jax.numpy as jnp


def net_fn(x):
    h = hk.Linear(16)(x)
    h = hk.dropout(hk.next_rng_key(), 0.5, h)
    return hk.Linear(1)(h)


def mc_samples(params, rng, x):
    net = hk.transform(net_fn)
    a = net.apply(params, rng, x)
    b = net.apply(params, rng, x)  # expect: prng-key-reuse
    return a, b


if __name__ == "__main__":
    params = hk.transform(net_fn).init(jax.random.PRNGKey(0), jnp.ones((1, 4)))
    a, b = mc_samples(params, jax.random.PRNGKey(1), jnp.ones((1, 4)))
    if jnp.array_equal(a, b):
        print("SHARP BIT: two MC dropout samples are equal")
