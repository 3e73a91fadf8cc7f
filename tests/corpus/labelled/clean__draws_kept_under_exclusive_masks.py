"""Sampling a box whose sides may be unbounded (dopamax's `Box.sample`): one key draws a normal, two
exponential and a uniform sample of one shape, and each is kept only under its mask; the four masks are
exclusive (`~below & ~above`, `below & ~above`, ...), so every element keeps exactly one draw and no two kept
values come from the same bits: one key is enough here.
"""
import jax
import jax.numpy as jnp


def sample_box(key, low, high):
    below, above = jnp.isfinite(low), jnp.isfinite(high)
    unbounded = ~below & ~above
    lower = below & ~above
    upper = ~below & above
    bounded = below & above
    free = jax.random.normal(key, shape=low.shape)
    from_low = jax.random.exponential(key, shape=low.shape) + jnp.where(below, low, 0.0)
    from_high = -jax.random.exponential(key, shape=low.shape) + jnp.where(above, high, 0.0)
    inside = jax.random.uniform(key, shape=low.shape, minval=jnp.where(bounded, low, 0.0),
                                maxval=jnp.where(bounded, high, 1.0))
    return free * unbounded + from_low * lower + from_high * upper + inside * bounded


if __name__ == "__main__":
    low = jnp.array([-jnp.inf, 0.0, -jnp.inf, 0.0])
    high = jnp.array([jnp.inf, jnp.inf, 1.0, 1.0])
    keys = jax.random.split(jax.random.PRNGKey(0), 20000)
    s = jax.vmap(lambda k: sample_box(k, low, high))(keys)
    assert bool(jnp.all(jnp.isfinite(s)))
    worst = max(abs(float(jnp.corrcoef(s[:, i], s[:, j])[0, 1])) for i in range(4) for j in range(i + 1, 4))
    print("largest correlation between two elements:", round(worst, 3))
