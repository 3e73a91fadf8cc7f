"""A small program for `sharpbits run` on an accelerator (helper-notes' gpu_check.sh runs it): a jitted step
compiled for four batch shapes (a recompile finding, SB601, saying the shape of `x` changed and to pad or bucket
it), a raw `PRNGKey` reused eagerly and a key consumed twice inside a jitted function (SB201).

    PYTHONPATH=server python3 -m sharpbits run -- python3 examples/gpu/recompile_and_key_reuse.py
"""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    return jnp.tanh(x @ w).mean()


w = jnp.ones((256, 256)) * 0.01
for batch in (32, 64, 96, 128):  # four shapes: four compiles of `step`
    print("batch", batch, "loss", float(step(w, jnp.ones((batch, 256)))))

key = jax.random.PRNGKey(0)
noise = jax.random.normal(key, (4,))
dropout = jax.random.bernoulli(key, 0.5, (4,))  # the same key again: the same random bits


@jax.jit
def augment(k, x):
    return x + jax.random.normal(k, x.shape) * jax.random.uniform(k, x.shape)  # one key, two samplers


print("augment", augment(jax.random.PRNGKey(1), jnp.ones(4)), noise, dropout)
print("devices", jax.devices())
