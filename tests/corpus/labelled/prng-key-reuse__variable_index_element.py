"""One element of a key array, at a variable index, drawn from twice (audax's SpecAugment).

`keys[key_index]` names the same key both times while neither `keys` nor `key_index` changes: the mask's start is
its width's uniform numbers again (run: `width == start`). In the loop, `keys[i]` feeds a normal and a uniform
in the same iteration: correlated numbers.
"""
import jax


def spec_augment(key, key_index):
    keys = jax.random.split(key, 4)
    width = jax.random.uniform(keys[key_index], (3,))
    start = jax.random.uniform(keys[key_index], (3,))  # expect: prng-key-reuse
    return width, start


def noisy_steps(key, n):
    keys = jax.random.split(key, n)
    out = []
    for i in range(n):
        a = jax.random.normal(keys[i], (2,))
        b = jax.random.uniform(keys[i], (2,))  # expect: prng-key-reuse
        out.append(a + b)
    return out


if __name__ == "__main__":
    width, start = spec_augment(jax.random.PRNGKey(0), 2)
    print(bool((width == start).all()), len(noisy_steps(jax.random.PRNGKey(1), 3)))
