"""A Haiku RNN's outputs cut to the longest sequence in the batch, read with `int(jnp.max(lengths))` (recall23).

Under `jax.jit(model.apply)` the transformed function runs with traced inputs: `int()` raises
ConcretizationTypeError.
"""
import haiku as hk
import jax
import jax.numpy as jnp


def forward(x, lengths):
    core = hk.VanillaRNN(8)
    state = core.initial_state(x.shape[0])
    outs, _ = hk.dynamic_unroll(core, jnp.swapaxes(x, 0, 1), state)
    t_max = int(jnp.max(lengths))  # expect: host-conversion-in-jit
    return jnp.swapaxes(outs, 0, 1)[:, :t_max]


model = hk.without_apply_rng(hk.transform(forward))


if __name__ == "__main__":
    x, lengths = jnp.ones((2, 5, 3)), jnp.array([3, 5])
    params = model.init(jax.random.PRNGKey(0), x, lengths)
    print(jax.jit(model.apply)(params, x, lengths).shape)
