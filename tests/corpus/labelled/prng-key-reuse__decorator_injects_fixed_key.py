"""A decorator that supplies a PRNG key to stochastic functions: it makes the key once, when the function is
decorated, and passes that same key on every call, so the "random" policy picks the same actions every episode.
"""
import functools

import jax
import jax.numpy as jnp


def stochastic(seed):
    def decorate(fn):
        key = jax.random.key(seed)

        @functools.wraps(fn)
        def wrapper(*args):
            return fn(key, *args)  # expect: prng-key-reuse
        return wrapper
    return decorate


@stochastic(seed=0)
def epsilon_greedy(key, q_values, eps=0.5):
    k_explore, k_action = jax.random.split(key)
    explore = jax.random.uniform(k_explore) < eps
    return jnp.where(explore, jax.random.randint(k_action, (), 0, q_values.shape[0]), jnp.argmax(q_values))


if __name__ == "__main__":
    q = jnp.array([0.1, 0.5, 0.2, 0.9, 0.3, 0.0, 0.4, 0.8])
    actions = [int(epsilon_greedy(q * (1 + 0.01 * i))) for i in range(6)]
    if len(set(actions)) == 1:
        print("SHARP BIT: six episodes, one action:", actions)
