"""tinydiffeq 2.6.1 tests/test_markov.py (test_invalid_initial_state_and_queries_report_not_ok): two runs, each
given `key=jax.random.key(0)` written at the call, whose results are each checked by an assertion of its own.

The two runs share their random path, but no computation sees both: each check reads one run, so nothing combines
the shared numbers (the flags checked do not even depend on the path).
"""
import jax
import jax.numpy as jnp


def simulate(x0, key, n, queries=None):
    steps = jnp.where(jax.random.bernoulli(key, 0.5, (n,)), 1, -1)
    ok = (0 <= x0 < 2) and (queries is None or all(0 <= q <= n for q in queries))
    return x0 + jnp.cumsum(steps), ok


def test_invalid_inputs_report_not_ok():
    _, state_ok = simulate(3, jax.random.key(0), 4)
    path, queries_ok = simulate(0, jax.random.key(0), 4, queries=(-1, 5))
    assert not state_ok
    assert not queries_ok
    assert path.shape == (4,)


if __name__ == "__main__":
    test_invalid_inputs_report_not_ok()
