"""A test checks two settings one after the other, each on inputs drawn from the same literal seed (jaxctx's
truncated priors): every value of the first block is dead before the second draws again, and `lambda u: ...` reads
its own parameter, not the first block's `u`, so no computation sees both draws."""
import jax
import jax.numpy as jnp
from jax import vmap


def forward(u, low):
    return low + 2.0 * u


def inverse(x, low):
    return (x - low) / 2.0


def test_round_trip():
    low = 0.0
    u_input = vmap(lambda key: jax.random.uniform(key))(jax.random.split(jax.random.PRNGKey(42), 8))
    x = vmap(lambda u: forward(u, low))(u_input)
    u = vmap(lambda x: inverse(x, low))(x)
    assert jnp.allclose(u, u_input)

    low = 1.0
    u_input = vmap(lambda key: jax.random.uniform(key))(jax.random.split(jax.random.PRNGKey(42), 8))
    x = vmap(lambda u: forward(u, low))(u_input)
    u = vmap(lambda x: inverse(x, low))(x)
    assert jnp.allclose(u, u_input)


test_round_trip()
print("ok")
