"""JAX's own sharp-bits example: the same key drawn from twice, each result only printed. The two outputs never
meet in a computation, yet they are the bug the reader is shown: the "second" random number equals the first.
This pins why draws whose results reach only outputs (print, plots) are not modelled as "results never meet"
(round25a-star's jsmfsb demos print a step and then a series from one key, judged false there; no reading of the
code tells that demo from this one).
"""
import jax

key = jax.random.PRNGKey(0)
print(jax.random.normal(key, (1,)))
print(jax.random.normal(key, (1,)))  # expect: prng-key-reuse


def show_two_samples(key):
    x = jax.random.uniform(key, (3,))
    print("first sample:", x)
    y = jax.random.uniform(key, (3,))  # expect: prng-key-reuse
    print("second sample:", y)


if __name__ == "__main__":
    show_two_samples(jax.random.PRNGKey(1))
