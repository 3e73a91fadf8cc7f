"""A second draw from a key whose values nobody reads: only its shape and dtype are asked for.

`dummy` repeats the numbers of `w` (same key, same sampler, same shape), but it only gives a buffer its shape
(`jnp.zeros_like`), an abstract evaluation its input (`jax.eval_shape`) and a check its `.shape`: no number
drawn for it reaches a result, so the repetition is harmless (evorl's dummy observations, round 12).
"""
import jax
import jax.numpy as jnp


def make(key, n):
    w = jax.random.normal(key, (n,))
    dummy = jax.tree_util.tree_map(lambda x: x[None, ...], jax.random.normal(key, (n,)))
    buffer = jnp.zeros_like(dummy)
    spec = jax.eval_shape(lambda x: x * w, dummy)
    assert dummy.shape == (1, n)
    return w, buffer, spec


if __name__ == "__main__":
    w, buffer, spec = make(jax.random.PRNGKey(0), 4)
    assert float(jnp.abs(buffer).sum()) == 0.0 and spec.shape == (1, 4)
    print("ok:", w)
