"""The bug twin of clean__functional_update_method_in_scan.py: the scan body records its last statistic with
`stats.update(last=...)` on a dict of the enclosing function. `dict.update` stores the tracer in the dict, which
outlives the trace: reading it afterwards raises UnexpectedTracerError.
"""
import jax
import jax.numpy as jnp
from jax import lax


def permutation_maxima(y, key):
    stats = {}

    def permute_one(key, _):
        key, p_key = jax.random.split(key)
        values = jax.random.permutation(p_key, y)
        stats.update(last=jnp.max(jnp.abs(values)))  # expect: side-effect-in-jit
        return key, jnp.max(jnp.abs(values))

    out = lax.scan(permute_one, key, xs=None, length=8)[1]
    return out, stats


if __name__ == "__main__":
    out, stats = permutation_maxima(jnp.arange(5.0) - 2.0, jax.random.key(0))
    print(stats["last"] + 1.0)
