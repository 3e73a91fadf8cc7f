"""A literal seed written again for the next check, where the first draw only ever reaches assertions.

haliax's op tests draw `uniform(PRNGKey(0), ...)` for one op's check and draw it again, under another name, for
the next op's check: the first array (and what is computed from it) is read only by `assert`s and is dead before
the second draw, so no computation ever sees both; the numbers repeat, but nothing combines them. (One key
variable drawn from again under a new name is still reported: prng-key-reuse__redraw_under_new_name.py.)
"""
import jax
import jax.numpy as jnp
from jax.random import PRNGKey


def test_abs_then_sqrt():
    named1 = jax.random.uniform(PRNGKey(0), (3, 4))
    assert jnp.all(jnp.abs(named1) >= 0)
    named7 = jax.random.uniform(PRNGKey(0), (3, 4))
    assert jnp.all(jnp.sqrt(named7) >= 0)


def test_sin_then_cos():
    a = jax.random.normal(PRNGKey(1), (3,))
    b = jnp.sin(a)
    assert (b <= 1).all()
    c = jax.random.normal(PRNGKey(1), (3,))
    assert (jnp.cos(c) <= 1).all()


if __name__ == "__main__":
    test_abs_then_sqrt()
    test_sin_then_cos()
