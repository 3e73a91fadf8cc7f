"""Elements of a key array at a variable index, each drawn from once.

`keys[i]` for each `i` of a loop, a `while` loop that advances `i`, or a `fori_loop` body is
another key every time; `keys[j]` after `j` changed, or after an element of `keys` was replaced, may be another
key too. None of these draws repeats another (run: all distinct).
"""
import jax
import jax.numpy as jnp


def per_step(key, n):
    keys = jax.random.split(key, n)
    out = []
    for i in range(n):
        out.append(jax.random.normal(keys[i], (2,)))
    return out


def advancing(key, n):
    keys = jax.random.split(key, n)
    i = 0
    outs = []
    while i < n:
        outs.append(jax.random.normal(keys[i], (2,)))
        i += 1
    return outs


def moved_index(key, n, j):
    keys = jax.random.split(key, n)
    a = jax.random.normal(keys[j], (2,))
    j = j + 1
    b = jax.random.normal(keys[j], (2,))
    return a, b


def replaced(key, n, i):
    keys = list(jax.random.split(key, n))
    a = jax.random.normal(keys[i], (2,))
    keys[i] = jax.random.split(keys[i])[0]
    b = jax.random.normal(keys[i], (2,))
    return a, b


def fori(key, n):
    keys = jax.random.split(key, n)

    def body(i, acc):
        return acc + jax.random.normal(keys[i], (2,))

    return jax.lax.fori_loop(0, n, body, jnp.zeros(2))


if __name__ == "__main__":
    ks = jax.random.split(jax.random.PRNGKey(0), 6)
    draws = [*per_step(ks[0], 3), *advancing(ks[1], 3), *moved_index(ks[2], 3, 0), *replaced(ks[3], 3, 1)]
    print(len({tuple(d.tolist()) for d in draws}), "distinct of", len(draws), fori(ks[5], 3))
