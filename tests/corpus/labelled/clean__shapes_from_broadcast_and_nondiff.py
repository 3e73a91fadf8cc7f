"""Shapes that look computed but are Python values: `lax.broadcast_shapes` (numpyro's `_multinomial`) and a
`shape` passed in a `custom_jvp` `nondiff_argnums` position and closed over by a `while_loop` body (distrax's
von Mises sampler). Both are tuples of ints at trace time; the code runs under jit.
"""
import functools

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def broadcast_counts(n, p):
    shape = lax.broadcast_shapes(jnp.shape(n), jnp.shape(p)[:-1])
    return jnp.broadcast_to(n, shape), jnp.broadcast_to(p, shape + jnp.shape(p)[-1:])


@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
def sample(shape, key):
    def body(state):
        i, k, _ = state
        k, sub = jax.random.split(k)
        return i + 1, k, jax.random.uniform(sub, shape=shape)
    return lax.while_loop(lambda s: s[0] < 3, body, (0, key, jnp.zeros(shape)))[2]


@sample.defjvp
def sample_jvp(shape, primals, tangents):
    return sample(shape, *primals), jnp.zeros(shape)


if __name__ == "__main__":
    print(broadcast_counts(jnp.array([2, 3]), jnp.ones(4) / 4)[1].shape)
    print(jax.jit(sample, static_argnums=0)((2,), jax.random.key(0)))
