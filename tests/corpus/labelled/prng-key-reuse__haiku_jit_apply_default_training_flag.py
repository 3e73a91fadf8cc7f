"""A Haiku network whose dropout runs under `if is_training:` with `is_training=True` as the default; the jitted
`apply` is called in a loop with one rng and no flag, so every step uses the same dropout mask.

`apply = jax.jit(net.apply)` passes its arguments on unchanged: haiku derives every `hk.next_rng_key()` of a run
from the rng alone.
"""
import haiku as hk
import jax
import jax.numpy as jnp


def forward(x, is_training=True):
    h = jax.nn.relu(hk.Linear(16)(x))
    if is_training:
        h = hk.dropout(hk.next_rng_key(), 0.5, h)
    return hk.Linear(1)(h)


net = hk.transform(forward)


def train(params, x, steps=3):
    apply = jax.jit(net.apply)
    rng = jax.random.PRNGKey(1)
    outs = []
    for _ in range(steps):
        outs.append(apply(params, rng, x))  # expect: prng-key-reuse
    return outs


if __name__ == "__main__":
    x = jnp.ones((2, 4))
    params = net.init(jax.random.PRNGKey(0), x)
    outs = train(params, x)
    if all(bool(jnp.array_equal(outs[0], o)) for o in outs):
        print("SHARP BIT: every step drops the same units")
