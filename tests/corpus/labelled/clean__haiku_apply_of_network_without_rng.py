"""A haiku network without dropout (a linear layer and a head class of this module, no `hk.next_rng_key()`)
applied with `key`, then `key` split for the exploration noise (DDPG-style target smoothing, as in dopamax).
haiku hands `apply`'s rng only to `hk.next_rng_key()` and its kin, which this network never calls: `apply`
draws nothing from `key`, and the noise is the only draw. Needs dm-haiku installed.
"""
import haiku as hk
import jax
import jax.numpy as jnp


class Head(hk.Module):
    def __init__(self, size):
        super().__init__()
        self.size = size

    def __call__(self, h):
        return hk.Linear(self.size)(jax.nn.tanh(h))


def critic(x):
    h = hk.Linear(16)(x)
    return Head(16)(h)


net = hk.transform(critic)


def noisy_target(params, key, x):
    q = net.apply(params, key, x)
    key, noise_key = jax.random.split(key)
    explore = jax.random.bernoulli(noise_key, 0.5, q.shape)
    return q, explore, key


def main():
    x = jnp.ones((4, 3))
    params = net.init(jax.random.key(1), x)
    q, explore, _ = noisy_target(params, jax.random.key(0), x)
    again = net.apply(params, jax.random.key(7), x)
    assert bool(jnp.all(q == again)), "apply does not depend on its rng: nothing is drawn from it"
    print("clean: target", q.shape, "explored", int(explore.sum()))


if __name__ == "__main__":
    main()
