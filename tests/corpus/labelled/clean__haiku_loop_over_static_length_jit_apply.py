"""Clean twin of host-conversion-in-jit__haiku_int_under_jit_apply: under `jax.jit(model.apply)` the transformed
function runs with traced inputs, so the longest length stays an array (a mask over the time axis), and what it
branches on is static (`x.ndim`, a shape); `hk.dynamic_unroll` runs the RNN as one scan.
"""
import haiku as hk
import jax
import jax.numpy as jnp


def forward(x, lengths):
    if x.ndim != 3:
        raise ValueError("expected (batch, time, features)")
    core = hk.VanillaRNN(8)
    state = core.initial_state(x.shape[0])
    outs, _ = hk.dynamic_unroll(core, jnp.swapaxes(x, 0, 1), state)
    valid = jnp.arange(x.shape[1])[None, :] < jnp.max(lengths)
    return jnp.swapaxes(outs, 0, 1) * valid[..., None]


model = hk.without_apply_rng(hk.transform(forward))


if __name__ == "__main__":
    x, lengths = jnp.ones((2, 5, 3)), jnp.array([3, 5])
    params = model.init(jax.random.PRNGKey(0), x, lengths)
    print(jax.jit(model.apply)(params, x, lengths).shape)
