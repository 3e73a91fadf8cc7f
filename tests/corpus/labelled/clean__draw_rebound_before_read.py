"""JAX PRNG docs, in a test's data set-up (jaxsnn's external-events test): spike times are drawn from `data_rng`
and sorted, then `data_rng` is split and the times are drawn again from a piece, replacing the first draw before
anybody reads it. The first numbers are dead, so the split is the key's first real use: nothing correlated is used.
"""
import jax
import jax.numpy as jnp
from jax import random


def spike_input(seed, n, t_max):
    param_rng, data_rng = random.split(random.PRNGKey(seed))
    spike_times = jnp.sort(random.uniform(data_rng, (1, n), maxval=t_max))
    spike_rng, idx_rng = random.split(data_rng)
    spike_times = jnp.sort(random.uniform(spike_rng, (1, n), maxval=t_max))
    spike_idx = random.randint(idx_rng, (1, n), 0, n)
    weights = random.normal(param_rng, (n, 4))
    return spike_times, spike_idx, weights


if __name__ == "__main__":
    times, idx, w = spike_input(0, 5, 2.0)
    print(times, idx, w.shape)
