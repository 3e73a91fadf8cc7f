"""Haiku: a network with dropout under `if is_training:` applied with the same `rng` on every step of a loop
(`is_training=True`). Haiku derives each `hk.next_rng_key()` of the run from `rng` alone: one mask for all steps.
Needs dm-haiku installed.
"""
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
    outs = []
    for _ in range(steps):
        outs.append(net.apply(params, rng, x, is_training=True))  # expect: prng-key-reuse
    return outs


if __name__ == "__main__":
    outs = train(3)
    if all(bool(jnp.array_equal(o, outs[0])) for o in outs):
        print("SHARP BIT: 3 steps, one dropout mask")
