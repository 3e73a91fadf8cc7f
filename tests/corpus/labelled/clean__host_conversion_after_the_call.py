"""Sharp Bits / "Converting traced values": converting results after the jitted call returns.

Outside traced code the results are concrete arrays: float(), .item(), .tolist() and NumPy all work.
"""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    return w * 0.9, loss


if __name__ == "__main__":
    w = jnp.ones(2)
    history = []
    for _ in range(3):
        w, loss = step(w, jnp.ones((4, 2)))
        history.append(float(loss))
    print(history, w.tolist(), np.asarray(w).mean(), loss.item(), np.exp(w))
