"""Sharp Bits: "Pure functions": a training step that records its loss in a module-level list.

The list gets one entry (a tracer), at trace time, not one loss per step.
"""
import jax
import jax.numpy as jnp

loss_history = []


@jax.jit
def train_step(w, x, y):
    loss = jnp.mean((x @ w - y) ** 2)
    loss_history.append(loss)  # expect: side-effect-in-jit
    grad = 2 * x.T @ (x @ w - y) / x.shape[0]
    return w - 0.1 * grad


if __name__ == "__main__":
    x = jnp.ones((8, 3))
    y = jnp.zeros(8)
    w = jnp.ones(3)
    for _ in range(3):
        w = train_step(w, x, y)
    if len(loss_history) == 1 and isinstance(loss_history[0], jax.core.Tracer):
        print("SHARP BIT: 3 steps, one entry in loss_history, and it is a tracer")
