"""Sharp Bits: "Random numbers" inside `@jax.jit`: two dropout layers share one key.

Both layers drop exactly the same units.
"""
import jax
import jax.numpy as jnp


def dropout(key, x, rate):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


@jax.jit
def forward(params, x, key):
    w1, w2 = params
    h = dropout(key, jax.nn.relu(x @ w1), 0.5)
    out = dropout(key, h @ w2, 0.5)  # expect: prng-key-reuse
    return out


if __name__ == "__main__":
    params = (jnp.ones((4, 4)), jnp.eye(4))
    jax.config.update("jax_debug_key_reuse", True)
    print(forward(params, jnp.ones((1, 4)), jax.random.key(1)))
