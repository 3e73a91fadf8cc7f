"""Twin: the haiku loop splits a fresh key per step; evaluation (`is_training=False`) never asks for a key, so
handing it one key on every call draws nothing. Needs dm-haiku installed."""
import haiku as hk
import jax
import jax.numpy as jnp


def forward(x, is_training: bool):
    h = jax.nn.relu(hk.Linear(32)(x))
    if is_training:
        h = hk.dropout(hk.next_rng_key(), 0.5, h)
    return hk.Linear(1)(h)


def train(steps: int):
    net = hk.transform(forward)
    init_rng, rng = jax.random.split(jax.random.PRNGKey(0))
    x = jnp.ones((2, 4))
    params = net.init(init_rng, x, is_training=True)
    for _ in range(steps):
        rng, step_rng = jax.random.split(rng)
        net.apply(params, step_rng, x, is_training=True)
    return [net.apply(params, init_rng, x, is_training=False) for _ in range(2)]


if __name__ == "__main__":
    print(train(3)[0].shape)
