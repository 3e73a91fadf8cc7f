"""A haiku network with dropout (`hk.dropout(hk.next_rng_key(), ...)`) applied with `key`, then `key` split for
the exploration noise (DDPG-style target smoothing, as in dopamax). haiku hands `apply`'s rng to a
`PRNGSequence`, whose first `next_rng_key()` is `split(key)[1]`: the noise key the caller splits off afterwards is
the dropout's key, so the noise mask is the dropout mask. Needs dm-haiku installed.
"""
import haiku as hk
import jax
import jax.numpy as jnp


def critic(x):
    h = hk.Linear(16)(x)
    return hk.dropout(hk.next_rng_key(), 0.5, h)


net = hk.transform(critic)


def noisy_target(params, key, x):
    q = net.apply(params, key, x)
    key, noise_key = jax.random.split(key)  # expect: prng-key-reuse
    explore = jax.random.bernoulli(noise_key, 0.5, q.shape)
    return q, explore, key


def main():
    x = jnp.ones((4, 3))
    params = net.init(jax.random.key(1), x)
    q, explore, _ = noisy_target(params, jax.random.key(0), x)
    if bool(jnp.all((q != 0) == explore)):
        print("SHARP BIT: the exploration mask is the critic's dropout mask (one key drew both)")


if __name__ == "__main__":
    main()
