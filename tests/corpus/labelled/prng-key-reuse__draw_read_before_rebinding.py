"""The bug twin of clean__draw_rebound_before_read.py: the first spike times are kept (`first_half`) before the
name is bound again, so the numbers drawn from `data_rng` are used beside those drawn from its pieces: the parent
key is used after `split`. Typed keys make `jax_debug_key_reuse` raise KeyReuseError.
"""
import jax
import jax.numpy as jnp
from jax import random


def spike_input(key, n, t_max):
    param_rng, data_rng = random.split(key)
    spike_times = jnp.sort(random.uniform(data_rng, (1, n), maxval=t_max))
    first_half = spike_times[:, : n // 2]
    spike_rng, idx_rng = random.split(data_rng)  # expect: prng-key-reuse
    spike_times = jnp.sort(random.uniform(spike_rng, (1, n), maxval=t_max))
    spike_idx = random.randint(idx_rng, (1, n), 0, n)
    weights = random.normal(param_rng, (n, 4))
    return jnp.concatenate([first_half, spike_times], axis=1), spike_idx, weights


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    print(spike_input(random.key(0), 5, 2.0))
