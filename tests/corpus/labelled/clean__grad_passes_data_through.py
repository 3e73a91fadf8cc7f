"""Autodiff cookbook: under `jax.grad` alone only the differentiated argument is traced.

The data argument is passed through as the caller gave it (a NumPy array here): converting it works.
"""
import jax
import jax.numpy as jnp
import numpy as np


def loss(w, batch):
    targets = np.asarray(batch["y"], dtype=np.float32)
    weight = float(batch["weight"])
    return weight * jnp.mean((batch["x"] @ w - targets) ** 2)


if __name__ == "__main__":
    batch = {"x": np.ones((4, 2)), "y": np.zeros(4), "weight": np.float32(0.5)}
    print(jax.grad(loss)(jnp.ones(2), batch))
