"""The same numbers drawn twice where both reach state or a result: they meet.

`collect` hands its first observation to a buffer before drawing the second from the same key: the buffer holds
two equal observations (run: equal). `pair` returns both draws of one seed: the caller gets `a == b`.
"""
import jax
from jax.random import PRNGKey


def collect(buffer, key):
    obs = jax.random.normal(key, (3,))
    buffer.append(obs)
    obs2 = jax.random.normal(key, (3,))  # expect: prng-key-reuse
    buffer.append(obs2)


def pair():
    a = jax.random.normal(PRNGKey(2), (3,))
    b = jax.random.normal(PRNGKey(2), (3,))  # expect: prng-key-reuse
    return a, b


if __name__ == "__main__":
    buffer = []
    collect(buffer, PRNGKey(0))
    a, b = pair()
    print(bool((buffer[0] == buffer[1]).all()), bool((a == b).all()))
