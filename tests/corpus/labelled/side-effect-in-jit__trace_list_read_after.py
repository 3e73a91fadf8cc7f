"""Sharp Bits: "Pure functions": a jitted function's inputs kept in an outer list and read after the call.

`seen.append(state)` runs once, at trace time, and stores a tracer: the list is not only counted, its last item is
used as a value after the trace has ended, which raises UnexpectedTracerError.
"""
import jax
import jax.numpy as jnp


def run(state):
    seen = []

    def sample(state):
        seen.append(state)  # expect: side-effect-in-jit
        return jnp.mean(state ** 2)

    jitted = jax.jit(sample)
    value = jitted(state)
    assert len(seen) == 1
    return value + jnp.sum(seen[-1])


if __name__ == "__main__":
    print(run(jnp.arange(4.0)))
