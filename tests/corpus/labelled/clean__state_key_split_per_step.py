"""Training loop: the trainer splits its dropout key on every step and keeps the new one.

Every call of the jitted step gets a fresh key, so the dropout mask changes from step to step.
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
            self.dropout_rng, step_rng = jax.random.split(self.dropout_rng)
            params, keep = self._step(params, batch, step_rng)
            masks.append(keep)
        return params, masks


if __name__ == "__main__":
    _, masks = Trainer(0).fit(jnp.zeros(16), [jnp.ones((4, 16))] * 5)
    print(len({tuple(m.tolist()) for m in masks}), "distinct masks over 5 steps")
