"""Training loop: the dropout key lives in a trainer object and is handed unchanged to the jitted step.

`self._step(params, batch, self.dropout_rng)` gets the same key on every call, so every step drops
the same units: the dropout mask never changes during training.
"""
import jax
import jax.numpy as jnp


def step(params, batch, rng):
    keep = jax.random.bernoulli(rng, 0.5, params.shape)
    grads = jnp.where(keep, batch.mean(0), 0.0)
    return params - 0.1 * grads, keep


class Trainer:
    def __init__(self, seed):
        self.dropout_rng = jax.random.PRNGKey(seed)
        self._step = jax.jit(step)

    def fit(self, params, batches):
        masks = []
        for batch in batches:
            params, keep = self._step(params, batch, self.dropout_rng)  # expect: prng-key-reuse
            masks.append(keep)
        return params, masks


if __name__ == "__main__":
    _, masks = Trainer(0).fit(jnp.zeros(16), [jnp.ones((4, 16))] * 5)
    if all(bool((m == masks[0]).all()) for m in masks):
        print("SHARP BIT: 5 training steps, one dropout mask:", masks[0].astype(int))
