"""A jitted eval step logs the batch loss with `np.mean` into a module-level list. NumPy's reductions call the
argument's own method (`np.mean(x)` is `x.mean()`), so the list gets a tracer, once, at trace time, not a number
per call (held-out set recall24: `np.std(h)` stored from a `jax.checkpoint` block).
"""
import jax
import jax.numpy as jnp
import numpy as np

LOSSES = []


@jax.jit
def eval_step(w, x, y):
    per_example = (x @ w - y) ** 2
    LOSSES.append(np.mean(per_example))  # expect: side-effect-in-jit
    return per_example


if __name__ == "__main__":
    for _ in range(3):
        eval_step(jnp.ones(3), jnp.ones((4, 3)), jnp.zeros(4))
    if len(LOSSES) != 3 or isinstance(LOSSES[0], jax.core.Tracer):
        print("SHARP BIT: 3 steps logged", LOSSES)
