"""The bug twin of clean__draws_kept_under_exclusive_masks.py: the lower-bounded mask is `below` alone, so it
overlaps `below & above`, and where both sides are bounded the element adds the exponential and the uniform
draw of the same bits: the two kept values are monotone in each other (correlation near 1). The upper-bounded
draw's mask still contradicts every other, so it shares no bits with a kept value.
"""
import jax
import jax.numpy as jnp


def sample_box(key, low, high):
    below, above = jnp.isfinite(low), jnp.isfinite(high)
    unbounded = ~below & ~above
    lower = below
    upper = ~below & above
    bounded = below & above
    free = jax.random.normal(key, shape=low.shape)
    from_low = jax.random.exponential(key, shape=low.shape) + jnp.where(below, low, 0.0)  # expect: prng-key-reuse
    from_high = -jax.random.exponential(key, shape=low.shape) + jnp.where(above, high, 0.0)
    inside = jax.random.uniform(key, shape=low.shape, minval=jnp.where(bounded, low, 0.0),  # expect: prng-key-reuse
                                maxval=jnp.where(bounded, high, 1.0))
    return free * unbounded + from_low * lower + from_high * upper + inside * bounded


if __name__ == "__main__":
    low, high = jnp.array([0.0]), jnp.array([1.0])
    keys = jax.random.split(jax.random.PRNGKey(0), 20000)
    s = jax.vmap(lambda k: sample_box(k, low, high))(keys)[:, 0]
    u = jax.vmap(lambda k: jax.random.uniform(k, (1,)))(keys)[:, 0]  # the bits the uniform draw used
    r = float(jnp.corrcoef(s, u)[0, 1])  # independent draws: about 0.28 (var 1/12 against 1/12 + 1)
    print("SHARP BIT: the element keeps two draws of one key: correlation with its bits", round(r, 3))
