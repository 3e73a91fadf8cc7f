"""Notebook-style script: cells run top to bottom, and `BETA` is rebound only after the last call of the
jitted function that read it (later cells use the new value eagerly). Nothing traced sees a stale value.
"""
import jax
import jax.numpy as jnp

BETA = 0.9


@jax.jit
def ema(avg, x):
    return BETA * avg + (1 - BETA) * x


# %% smooth a noisy signal
signal = jnp.sin(jnp.linspace(0, 6, 50)) + 0.1 * jax.random.normal(jax.random.PRNGKey(0), (50,))
avg = signal[0]
smoothed = []
for x in signal:
    avg = ema(avg, x)
    smoothed.append(avg)
print("last smoothed value:", smoothed[-1])

# %% try a slower decay, computed eagerly this time
BETA = 0.99
weights = BETA ** jnp.arange(50)[::-1]
print("eager weighted mean:", jnp.sum(weights * signal) / jnp.sum(weights))
