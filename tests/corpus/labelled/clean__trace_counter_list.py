"""Sharp Bits: "Pure functions": a test counts how often a jitted function is traced with a list of its inputs.

`traces.append(state)` runs once per trace and stores a tracer, but the list is only ever counted
(`len(traces)`): no stored tracer is read as a value, so none leaks, and running once per trace is the point.
"""
import jax
import jax.numpy as jnp


def test_compiles_once(state):
    traces = []

    def sample(state):
        traces.append(state)
        return jnp.mean(state ** 2)

    jitted = jax.jit(sample)
    first = float(jitted(state))
    second = float(jitted(state))
    assert len(traces) == 1, len(traces)
    assert first == second
    return first


if __name__ == "__main__":
    print(test_compiles_once(jnp.arange(4.0)))
