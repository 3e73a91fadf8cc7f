"""A benchmark with `timeit.timeit(lambda: gram(x), number=5)`: the lambda returns as soon as each call is
dispatched, so the measured time is the dispatch, not the matrix products.
"""
import timeit

import jax
import jax.numpy as jnp


@jax.jit
def gram(x):
    return jnp.tanh(x @ x.T) @ x


if __name__ == "__main__":
    x = jnp.ones((1500, 1500)) / 1500
    gram(x).block_until_ready()
    unwaited = timeit.timeit(lambda: gram(x), number=5)  # expect: unblocked-timing
    waited = timeit.timeit(lambda: gram(x).block_until_ready(), number=5)
    if unwaited < waited / 3:
        print(f"SHARP BIT: {unwaited * 1e3:.2f} ms unwaited vs {waited * 1e3:.2f} ms waited")
