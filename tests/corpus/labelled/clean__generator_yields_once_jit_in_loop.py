"""A test walks the inputs a generator of the module yields, and the generator yields exactly once on every path:
the loop body, with its `jax.jit(lambda ...)`, runs one time, so nothing is compiled twice.
"""
import jax
import jax.numpy as jnp

traces = []


def _inputs(n, batched=False):
    if batched:
        yield jnp.ones((2, n))
    else:
        yield jnp.ones(n)


def test_double():
    for x in _inputs(3):
        y = jax.jit(lambda v: traces.append(1) or v * 2)(x)
        assert float(y.sum()) == 6.0


if __name__ == "__main__":
    test_double()
    print("traces:", len(traces))
